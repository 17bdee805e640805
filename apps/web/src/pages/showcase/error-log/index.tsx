import { BugOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientError, ClientErrorKind } from '@wxc/contract/calls/client-errors';
import * as clientErrorCalls from '@wxc/contract/calls/client-errors';
import { Alert, Button, Empty, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../../api/client';
import { errorReporter, errorReportingOn } from '../../../app/error-reporting';
import { Card } from '../../../components/Card';
import { PagedList } from '../../../components/PagedList';
import { PageHeader } from '../../../components/PageHeader';
import { useSession } from '../../../stores/session';
import { isOperator } from '../../../utils/identity';
import { formatTime } from '../../../utils/time';
import '../showcase.css';
import './error-log.css';

const KIND_LABELS: Record<ClientErrorKind, { text: string; color: string }> = {
  error: { text: '脚本错误', color: 'red' },
  unhandledrejection: { text: '未处理的 Promise', color: 'orange' },
  react: { text: 'React 错误边界', color: 'purple' },
};

function KindTag({ kind }: { kind: ClientErrorKind }) {
  const k = KIND_LABELS[kind];
  return <Tag color={k.color}>{k.text}</Tag>;
}

function Stack({ stack }: { stack: string }) {
  if (!stack) return <span className="showcase-muted">—</span>;
  return (
    <details className="error-log-stack">
      <summary>堆栈</summary>
      <pre>{stack}</pre>
    </details>
  );
}

let samples = 0;

/**
 * /error-log/log: the console's error log. Errors the production console caught (window errors,
 * unhandled rejections, the route error boundary) are reported to the service (app/error-reporting)
 * and listed here, newest first: an operator sees every company's, a customer its own.
 */
export default function ErrorLog() {
  const operator = useSession((s) => (s.user ? isOperator(s.user) : false));
  const [paging, setPaging] = useState({ page: 1, pageSize: 10 });
  const [waiting, setWaiting] = useState(false);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['clientErrors', paging],
    queryFn: ({ signal }) => call(clientErrorCalls.list, paging, { signal }),
    placeholderData: keepPreviousData,
  });

  // Throws outside React (a timer), as a bug in an event handler would: the window's error
  // listener catches it and the reporter sends it; then the list is read again.
  const triggerSample = () => {
    samples += 1;
    const message = `示例错误 #${samples}（${formatTime(Date.now(), 'HH:mm:ss')}）`;
    setWaiting(true);
    setTimeout(() => {
      throw new Error(message);
    }, 0);
    setTimeout(async () => {
      await errorReporter.settled();
      setPaging((p) => ({ ...p, page: 1 }));
      await queryClient.invalidateQueries({ queryKey: ['clientErrors'] });
      setWaiting(false);
    }, 50);
  };

  const columns: TableColumnsType<ClientError> = [
    { title: '时间', dataIndex: 'at', width: 170, render: (t: number) => formatTime(t) },
    { title: '类型', dataIndex: 'kind', width: 150, render: (k: ClientErrorKind) => <KindTag kind={k} /> },
    {
      title: '信息',
      dataIndex: 'message',
      render: (m: string, e) => (
        <div className="error-log-message">
          <span>{m}</span>
          <Stack stack={e.stack} />
        </div>
      ),
    },
    {
      title: '页面',
      dataIndex: 'source',
      width: 180,
      render: (s: string) => (s ? <code>{s}</code> : '—'),
    },
    ...(operator
      ? [{ title: '公司', dataIndex: 'companyName', width: 180, render: (n: string) => n || '—' }]
      : []),
  ];

  const card = (e: ClientError) => (
    <>
      <div className="list-card-head">
        <span className="error-log-card-message">{e.message}</span>
        <KindTag kind={e.kind} />
      </div>
      <dl>
        <dt>时间</dt>
        <dd>{formatTime(e.at)}</dd>
        <dt>页面</dt>
        <dd>{e.source ? <code>{e.source}</code> : '—'}</dd>
        {operator ? (
          <>
            <dt>公司</dt>
            <dd>{e.companyName || '—'}</dd>
          </>
        ) : null}
      </dl>
      <Stack stack={e.stack} />
    </>
  );

  return (
    <div className="page showcase-page" data-testid="error-log">
      <PageHeader
        subtitle={
          operator ? '控制台捕获的前端错误，所有公司（最新在前）' : '控制台捕获的前端错误，本公司（最新在前）'
        }
        extra={
          <>
            <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
              刷新
            </Button>
            <Button type="primary" danger icon={<BugOutlined />} onClick={triggerSample} loading={waiting}>
              触发示例错误
            </Button>
          </>
        }
      />
      {errorReportingOn ? null : (
        <Alert
          className="error-log-note"
          type="info"
          showIcon
          message="开发环境不上报错误：只有生产构建会捕获并上报，示例错误在这里只出现在浏览器控制台。"
        />
      )}
      <Card>
        <PagedList<ClientError>
          query={query}
          onPage={(page, pageSize) =>
            setPaging((p) => ({ page: pageSize === p.pageSize ? page : 1, pageSize }))
          }
          columns={columns}
          rowKey="id"
          card={card}
          label="错误日志"
          scrollX={operator ? 960 : 780}
          empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无错误记录" />}
        />
      </Card>
    </div>
  );
}
