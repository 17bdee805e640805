import { ShoppingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import * as orderCalls from '@wxc/contract/calls/orders';
import { Button, Empty, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { Card } from '../../components/Card';
import { QueryState } from '../../components/QueryState';
import { daysLeftText, TIER_COLORS } from '../../features/commerce/logic';
import { useOpenService } from '../../features/commerce/queries';
import { Money } from '../../features/commerce/widgets';
import { useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';
import '../../features/commerce/commerce.css';

/*
 * 已开通服务 and 消费记录, just under the month chart: their own chunk, loaded when scrolled near
 * (index.tsx). Light on purpose: the pager (antd Pagination brings Select) loads only when there is
 * more than one page; 账号明细 with its table is a chunk of its own (AccountDetails.tsx).
 */
const Pager = lazy(() => import('./Pager'));

export function OpenServices() {
  const query = useOpenService();
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  return (
    <Card title="已开通服务" className="dash-card">
      <QueryState
        query={query}
        isEmpty={(d) => d.services.length === 0}
        empty={
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无有效套餐">
            {readOnly ? null : (
              <Button
                type="primary"
                icon={<ShoppingOutlined />}
                onClick={() => navigate('/purchaseRecords/index')}
              >
                去购买
              </Button>
            )}
          </Empty>
        }
      >
        {(d) => (
          <div className="services">
            <p className="muted">
              API {d.apiOpened ? '已开通' : '未开通'} · 子账号 {d.subAccountCount} 个
              {d.serviceEndsAt ? ` · 服务至 ${formatTime(d.serviceEndsAt, 'YYYY-MM-DD')}` : ''}
            </p>
            <ul className="service-list">
              {d.services.map((s) => (
                <li key={s.id}>
                  <span>
                    <Tag color={TIER_COLORS[s.tier]}>{s.packageName}</Tag>
                    {s.slots} 个账号
                  </span>
                  <span className={s.expiringSoon ? 'warn' : 'muted'}>
                    {formatTime(s.endsAt, 'YYYY-MM-DD')} 到期（{daysLeftText(s.status, s.daysLeft)}）
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </QueryState>
    </Card>
  );
}

export function ConsumeRecords() {
  const [page, setPage] = useState(1);
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  const query = useQuery({
    queryKey: ['commerce', 'consumeRecord', page],
    queryFn: ({ signal }) => call(orderCalls.consumeRecord, { page, pageSize: 5 }, { signal }),
    placeholderData: (p) => p,
  });
  return (
    <Card
      title="消费记录"
      className="dash-card"
      extra={
        query.data ? (
          <span className="muted">
            累计 <Money fen={query.data.totalFen} />
          </span>
        ) : null
      }
    >
      <QueryState
        query={query}
        isEmpty={(d) => d.total === 0}
        empty={
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消费记录">
            {readOnly ? null : <Button onClick={() => navigate('/purchaseRecords/index')}>查看套餐</Button>}
          </Empty>
        }
      >
        {(d) => (
          <>
            <ul className="consume-list">
              {d.list.map((o) => (
                <li key={o.orderNo}>
                  <span>
                    {o.packageName}
                    {o.kind === 'renew' ? <Tag className="kind-tag">续费</Tag> : null}
                    <span className="muted"> × {o.quantity}</span>
                  </span>
                  <span className="consume-right">
                    <Money fen={o.amountFen} />
                    <span className="muted">{formatTime(o.paidAt, 'YYYY-MM-DD HH:mm')}</span>
                  </span>
                </li>
              ))}
            </ul>
            {d.total > d.pageSize ? (
              <Suspense fallback={<div className="pager-placeholder" />}>
                <Pager current={d.page} pageSize={d.pageSize} total={d.total} onChange={setPage} />
              </Suspense>
            ) : null}
          </>
        )}
      </QueryState>
    </Card>
  );
}
