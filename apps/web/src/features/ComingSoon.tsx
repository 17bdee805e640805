import { Card, Empty } from 'antd';
import { useRouteMeta } from '../app/RootLayout';
import { PageHeader } from '../components/PageHeader';

/** The page of a route whose feature arrives with a later release: its title and a plain notice. */
export function ComingSoon({ description }: { description?: string }) {
  const handle = useRouteMeta();
  const title = handle?.meta.title ?? '';
  return (
    <div className="page">
      <PageHeader />
      <Card className="coming-soon">
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              <div className="coming-soon-title">即将上线</div>
              <div className="muted">{description ?? `「${title}」功能正在建设中，敬请期待。`}</div>
            </>
          }
        />
      </Card>
    </div>
  );
}
