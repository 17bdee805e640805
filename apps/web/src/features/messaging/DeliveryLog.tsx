import { ReloadOutlined, RetweetOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { Button, Drawer, Empty, Select, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { PagedList } from '../../components/PagedList';
import { QueryState } from '../../components/QueryState';
import { useReadOnly } from '../../stores/support-view';
import { formatTime, relativeTime } from '../../utils/time';
import { CALLBACK_TYPE_LABELS, DELIVERY_STATUS_LABELS } from './labels';
import { type DeliveryFilter, messagingKeys, useDeliveries } from './queries';

type Delivery = z.infer<typeof callbackCalls.deliverySchema>;

function StatusTag({ status }: { status: string }) {
  const s = DELIVERY_STATUS_LABELS[status] ?? { text: status, color: 'default' };
  return <Tag color={s.color}>{s.text}</Tag>;
}

/** 重新投递 (absent in the support view). */
function ReplayButton({ eventId }: { eventId: string }) {
  const { message } = useFeedback();
  const client = useQueryClient();
  const readOnly = useReadOnly();
  const replay = useMutation({
    mutationFn: () => call(callbackCalls.replayDelivery, { eventId }),
    onSuccess: () => {
      void message.success('已重新投递');
      void client.invalidateQueries({ queryKey: messagingKeys.deliveries() });
    },
  });
  if (readOnly) return null;
  return (
    <Button
      type="link"
      size="small"
      icon={<RetweetOutlined />}
      loading={replay.isPending}
      onClick={() => replay.mutate()}
    >
      重新投递
    </Button>
  );
}

/** Every attempt of one event, with the payload as sent. */
function AttemptsDrawer({ eventId, onClose }: { eventId: string | null; onClose(): void }) {
  const query = useQuery({
    queryKey: messagingKeys.attempts(eventId ?? ''),
    queryFn: ({ signal }) => call(callbackCalls.deliveryAttempts, { eventId: eventId! }, { signal }),
    enabled: Boolean(eventId),
  });
  return (
    <Drawer open={Boolean(eventId)} onClose={onClose} title="投递详情" size={520} destroyOnHidden>
      <QueryState query={query} rows={6}>
        {(d) => (
          <div className="delivery-detail">
            <dl className="kv">
              <dt>事件</dt>
              <dd>
                <code>{d.event.eventId}</code> {CALLBACK_TYPE_LABELS[d.event.type] ?? d.event.type}
              </dd>
              <dt>状态</dt>
              <dd>
                <StatusTag status={d.event.status} /> 共 {d.event.attempts} 次尝试
              </dd>
              <dt>地址</dt>
              <dd className="break">{d.event.url || '—'}</dd>
              {d.event.nextAttemptAt ? (
                <>
                  <dt>下次重试</dt>
                  <dd>{formatTime(d.event.nextAttemptAt)}</dd>
                </>
              ) : null}
            </dl>
            <h4>每次尝试</h4>
            {d.attempts.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有尝试" />
            ) : (
              <ol className="attempt-list">
                {d.attempts.map((a) => (
                  <li key={a.attempt}>
                    <strong>第 {a.attempt} 次</strong> {formatTime(a.at)} ·{' '}
                    {a.statusCode ? (
                      <Tag color={a.statusCode < 300 ? 'success' : 'error'}>HTTP {a.statusCode}</Tag>
                    ) : null}
                    {a.error ? <span className="danger">{a.error}</span> : null} · {a.durationMs} ms
                  </li>
                ))}
              </ol>
            )}
            <h4>请求体</h4>
            <pre className="json-block">{prettyPayload(d.payload)}</pre>
            <ReplayButton eventId={d.event.eventId} />
          </div>
        )}
      </QueryState>
    </Drawer>
  );
}

function prettyPayload(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * 回调投递记录: status, type, attempts, last HTTP status or error; details and replay per event.
 * Refreshed live by `callback` events. `compact` draws a narrow list (beside the demo chat).
 */
export function DeliveryLog({
  wxid,
  subAccountId,
  compact = false,
  pageSize = PAGE_SIZE_DEFAULT,
  emptyHint,
}: {
  wxid?: string | undefined;
  subAccountId?: string | undefined;
  compact?: boolean;
  pageSize?: number;
  /** What to do when nothing was delivered yet, said for the page it is on. */
  emptyHint?: React.ReactNode;
}) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DeliveryFilter['status']>(undefined);
  const [detail, setDetail] = useState<string | null>(null);
  const filter: DeliveryFilter = { page, pageSize, status, wxid, subAccountId };
  const query = useDeliveries(filter);
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        status
          ? '没有该状态的投递'
          : (emptyHint ??
            '还没有回调事件：为子账号设置回调地址后，收到的消息、上下线等事件会推送到该地址并记录在这里')
      }
    />
  );

  const toolbar = (
    <div className="list-toolbar">
      <Select
        aria-label="投递状态"
        allowClear
        placeholder="全部状态"
        value={status}
        style={{ minWidth: 120 }}
        onChange={(s) => {
          setStatus(s);
          setPage(1);
        }}
        options={Object.entries(DELIVERY_STATUS_LABELS).map(([value, s]) => ({ value, label: s.text }))}
      />
      <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
        刷新
      </Button>
    </div>
  );

  const columns: TableColumnsType<Delivery> = [
    { title: '时间', dataIndex: 'createdAt', width: 165, render: (t: number) => formatTime(t) },
    {
      title: '事件',
      dataIndex: 'type',
      width: 110,
      render: (t: string) => CALLBACK_TYPE_LABELS[t] ?? t,
    },
    { title: '账号', dataIndex: 'account', width: 150, ellipsis: true, render: (a: string) => a || '—' },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: string) => <StatusTag status={s} /> },
    { title: '尝试', dataIndex: 'attempts', width: 64, align: 'right' },
    {
      title: '最近结果',
      key: 'last',
      ellipsis: true,
      render: (_, d) =>
        d.lastStatusCode ? (
          `HTTP ${d.lastStatusCode}`
        ) : d.lastError ? (
          <span className="danger">{d.lastError}</span>
        ) : (
          '—'
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 180,
      render: (_, d) => (
        <span className="table-actions">
          <Button type="link" size="small" onClick={() => setDetail(d.eventId)}>
            详情
          </Button>
          <ReplayButton eventId={d.eventId} />
        </span>
      ),
    },
  ];

  return (
    <div className={compact ? 'delivery-log delivery-log-compact' : 'delivery-log'}>
      {toolbar}
      <PagedList<Delivery>
        query={query}
        rows={4}
        label="回调投递记录"
        rowKey="eventId"
        size="small"
        scrollX={860}
        sizeChanger={false}
        cards={compact}
        columns={columns}
        empty={empty}
        onPage={setPage}
        listClassName="delivery-cards"
        cardProps={() => ({ className: 'delivery-card', testId: 'delivery' })}
        card={(d) => (
          <button type="button" className="delivery-card-main" onClick={() => setDetail(d.eventId)}>
            <span className="delivery-card-head">
              <strong>{CALLBACK_TYPE_LABELS[d.type] ?? d.type}</strong>
              <StatusTag status={d.status} />
            </span>
            <span className="muted">
              {relativeTime(d.createdAt)} · {d.attempts} 次
              {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : ''}
              {d.lastError ? ` · ${d.lastError}` : ''}
            </span>
          </button>
        )}
      />
      <AttemptsDrawer eventId={detail} onClose={() => setDetail(null)} />
    </div>
  );
}
