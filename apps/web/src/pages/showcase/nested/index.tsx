import { Alert, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { useRouteMeta } from '../../../app/RootLayout';
import { findShowcaseRoute } from '../../../app/showcase-routes';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';

/**
 * The nested-menu pages (/nested/menu1/…, /nested/menu2): one component, a page each. What is typed
 * here stays when you switch to another tab and back (cached views), and goes with 刷新 or closing
 * the tab.
 */
export default function NestedPage() {
  const handle = useRouteMeta();
  // The route this instance was opened at: a hidden cached page keeps its own.
  const [path] = useState(() => handle?.path ?? '');
  const [title] = useState(() => handle?.meta.title ?? '');
  const [text, setText] = useState('');
  const [count, setCount] = useState<number | null>(1);
  const trail = [...(findShowcaseRoute(path)?.ancestors ?? []), { title }];
  return (
    <div className="page showcase-page" data-testid="nested-page" data-path={path}>
      <PageHeader title={title} subtitle={`路由嵌套 · ${path}`} />
      <Card title="所在层级">
        <p className="showcase-row">
          {trail.map((c, i) => (
            <span key={c.title}>
              {i > 0 ? ' › ' : ''}
              {c.title}
            </span>
          ))}
        </p>
        <Alert
          type="info"
          showIcon
          message="菜单可以嵌套任意层：父级没有自己的页面，打开父级路径会进入它的第一个子页面。"
        />
      </Card>
      <Card title="本页的状态">
        <p className="showcase-muted">
          在这里输入内容后切换到其他标签页再回来，内容仍在；右键标签“刷新”或关闭标签后重新打开，内容清空。
        </p>
        <div className="showcase-row">
          <Input
            aria-label={`${title} 的备注`}
            placeholder={`在「${title}」里写点什么`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            style={{ maxWidth: 320 }}
          />
          <InputNumber aria-label="数量" min={0} value={count} onChange={setCount} />
        </div>
      </Card>
    </div>
  );
}
