import { CompassOutlined } from '@ant-design/icons';
import { Button, Steps, Tour, type TourProps } from 'antd';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';

/** A shell element, looked up when its step opens (null: the step shows in the middle). */
const el = (selector: string) => () => document.querySelector<HTMLElement>(selector) as HTMLElement;

const STEPS: TourProps['steps'] = [
  {
    title: '菜单开关',
    description: '点击这里收起或展开侧边栏；窄屏下侧边栏默认收起，点击后从左侧滑出。',
    target: el('.hamburger'),
  },
  {
    title: '面包屑',
    description: '显示当前页面所在的位置：首页、菜单分组、上级页面，点击可返回上级。',
    target: el('.app-breadcrumb'),
  },
  {
    title: '标签页',
    description:
      '访问过的页面都会留在这里，切换时页面状态保留；右键可刷新、关闭、关闭其他或关闭所有，固定的标签不能关闭。',
    target: el('.tags-view'),
  },
  {
    title: '布局设置',
    description: '主题色、是否显示标签页、固定页头、侧栏标志和组件尺寸都在这里设置，刷新后仍然有效。',
    target: el('.settings-button'),
    placement: 'left',
  },
];

/** The guide (not cached): a step-by-step tour of the shell with antd's Tour (no extra library). */
export default function GuidePage() {
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState(0);
  return (
    <div className="page showcase-page" data-testid="guide-page">
      <PageHeader
        subtitle="逐步介绍控制台的外框：菜单开关、面包屑、标签页与布局设置"
        extra={
          <Button
            type="primary"
            icon={<CompassOutlined />}
            onClick={() => {
              setCurrent(0);
              setOpen(true);
            }}
          >
            开始引导
          </Button>
        }
      />
      <Card title="引导步骤">
        <Steps
          direction="vertical"
          size="small"
          current={open ? current : -1}
          items={(STEPS ?? []).map((s) => ({ title: s.title, description: s.description }))}
        />
        <p className="showcase-muted">本页不缓存：离开后再打开，引导会从头开始。</p>
      </Card>
      <Tour
        open={open}
        current={current}
        onChange={setCurrent}
        onClose={() => setOpen(false)}
        onFinish={() => setOpen(false)}
        steps={STEPS}
        indicatorsRender={(now, total) => `${now + 1} / ${total}`}
      />
    </div>
  );
}
