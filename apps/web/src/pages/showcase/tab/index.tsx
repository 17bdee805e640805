import { Input, InputNumber, Tabs } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';

const REGIONS = [
  { key: 'CN', label: '中国', currency: '人民币' },
  { key: 'US', label: '美国', currency: '美元' },
  { key: 'JP', label: '日本', currency: '日元' },
  { key: 'EU', label: '欧元区', currency: '欧元' },
] as const;
type RegionKey = (typeof REGIONS)[number]['key'];

export function regionOf(tab: string | null): RegionKey {
  return REGIONS.some((r) => r.key === tab) ? (tab as RegionKey) : 'CN';
}

/** One tab's content: its own state, kept while the other tabs are shown. */
function RegionPane({ region }: { region: (typeof REGIONS)[number] }) {
  const created = useRef(Date.now());
  const [note, setNote] = useState('');
  const [amount, setAmount] = useState<number | null>(100);
  return (
    <div className="tab-pane" data-testid={`tab-pane-${region.key}`}>
      <p className="showcase-muted">
        {region.label}（{region.currency}）· 创建于 {new Date(created.current).toLocaleTimeString('zh-CN')}
      </p>
      <div className="showcase-row">
        <Input
          aria-label={`${region.label} 备注`}
          placeholder={`${region.label} 的备注`}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          style={{ maxWidth: 280 }}
        />
        <InputNumber aria-label={`${region.label} 金额`} value={amount} onChange={setAmount} min={0} />
      </div>
    </div>
  );
}

/** Tab: antd Tabs whose panes keep their state; the active tab is in the URL (?tab=). */
export default function TabPage() {
  const [params, setParams] = useSearchParams();
  const active = regionOf(params.get('tab'));
  const [switches, setSwitches] = useState(0);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: counts changes of the active tab.
  useEffect(() => {
    if (first.current) first.current = false;
    else setSwitches((n) => n + 1);
  }, [active]);
  return (
    <div className="page showcase-page" data-testid="tab-page">
      <PageHeader subtitle="切换的标签写在网址里（?tab=），复制网址即可直接打开同一个标签" />
      <Card>
        <p className="showcase-muted">本页已切换标签 {switches} 次；每个标签里输入的内容在切换后仍然保留。</p>
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={REGIONS.map((r) => ({ key: r.key, label: r.label, children: <RegionPane region={r} /> }))}
        />
      </Card>
    </div>
  );
}
