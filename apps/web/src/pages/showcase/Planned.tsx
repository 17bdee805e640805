import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { Card } from '../../components/Card';
import { PageHeader } from '../../components/PageHeader';
import './showcase.css';

/**
 * A showcase route whose page is still to be built (issue 15, "The pages"): it says what it will be
 * instead of showing made-up content. The route, its menu entry, roles and tab already work.
 */
export function Planned({ what, items }: { what: string; items: ReactNode[] }) {
  return (
    <div className="page showcase-page" data-testid="showcase-planned">
      <PageHeader subtitle="模板示例 · 建设中" />
      <Card title="这个页面将会是">
        <Alert type="info" showIcon message={what} />
        <ul className="showcase-list">
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list.
            <li key={i}>{item}</li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
