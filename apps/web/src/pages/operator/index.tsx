import { Tabs } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Companies } from './Companies';
import { Panel } from './Panel';
import { Reviews } from './Reviews';
import { Settings } from './Settings';
import { Visitors } from './Visitors';
import './operator.css';
import { PageHeader } from '../../components/PageHeader';

export const OPERATOR_TABS = [
  { key: 'review', label: '实名审核', render: () => <Reviews /> },
  { key: 'companies', label: '注册公司', render: () => <Companies /> },
  { key: 'panel', label: '运营总览', render: () => <Panel /> },
  { key: 'visitors', label: '访客统计', render: () => <Visitors /> },
  { key: 'settings', label: '设置', render: () => <Settings /> },
] as const;
export type OperatorTab = (typeof OPERATOR_TABS)[number]['key'];

/**
 * 运营管理 (operators only: the route is admin-only and every call it makes is checked by the
 * service). Sections are tabs; `?tab=<key>` opens one directly.
 */
export default function OperatorPage() {
  const [params] = useSearchParams();
  const linked = OPERATOR_TABS.find((t) => t.key === params.get('tab'))?.key;
  // `?tab=` opens a section directly (links, reloads, and a link followed while the page is open);
  // switching sections does not navigate, so the tags view keeps one 运营管理 tab.
  const [active, setActive] = useState<string>(linked ?? 'review');
  const [followed, setFollowed] = useState(linked);
  if (linked !== followed) {
    setFollowed(linked);
    if (linked) setActive(linked);
  }
  return (
    <div className="page ops-page">
      <PageHeader subtitle="实名审核、注册公司、运营总览、访客统计与系统设置" />
      <Tabs
        activeKey={active}
        onChange={setActive}
        destroyOnHidden
        items={OPERATOR_TABS.map((t) => ({ key: t.key, label: t.label, children: t.render() }))}
      />
    </div>
  );
}
