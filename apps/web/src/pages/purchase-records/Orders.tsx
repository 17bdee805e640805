import { ShoppingOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { Order } from '@wxc/contract/calls/orders';
import * as orderCalls from '@wxc/contract/calls/orders';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { ORDER_STATE_LABELS, type OrderStateValue, PAY_METHOD_LABELS } from '@wxc/contract/domain';
import { Button, DatePicker, Empty, Popconfirm, Select, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { PagedList } from '../../components/PagedList';
import { useNarrow } from '../../components/useNarrow';
import { dayRange, ORDER_STATE_COLORS } from '../../features/commerce/logic';
import { type OrdersFilter, useInvalidateCommerce, useOrders } from '../../features/commerce/queries';
import { Money } from '../../features/commerce/widgets';
import type { Dayjs } from '../../utils/dayjs';
import '../../utils/dayjs';
import { useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';

type DateRange = [Dayjs | null, Dayjs | null] | null;

const STATE_OPTIONS = (Object.keys(ORDER_STATE_LABELS) as OrderStateValue[]).map((value) => ({
  value,
  label: ORDER_STATE_LABELS[value],
}));

function CancelButton({ order }: { order: Order }) {
  const { message } = useFeedback();
  const invalidate = useInvalidateCommerce();
  const cancel = useMutation({
    mutationFn: () => call(orderCalls.cancelOrder, { orderNo: order.orderNo }),
    onSuccess: () => {
      void message.success('订单已取消');
      void invalidate();
    },
  });
  return (
    <Popconfirm
      title="取消该订单？"
      description="取消后需重新下单。"
      okText="取消订单"
      cancelText="再想想"
      onConfirm={() => cancel.mutate()}
    >
      <Button type="link" size="small" danger loading={cancel.isPending}>
        取消
      </Button>
    </Popconfirm>
  );
}

/** 购买记录: the company's orders, newest first, with state and date filters and paging. */
export function Orders({ onPay, onBrowse }: { onPay(order: Order): void; onBrowse(): void }) {
  const [filter, setFilter] = useState<OrdersFilter>({ page: 1, pageSize: PAGE_SIZE_DEFAULT });
  // antd's range picker in Chinese (utils/dayjs.ts); either end may stay open. The filter sends
  // the days' bounds in local time: from = the first day's 00:00, to = the last day's 23:59:59.999.
  const [range, setRange] = useState<DateRange>(null);
  const changeRange = (next: DateRange) => {
    setRange(next);
    const { from, to } = dayRange(next?.[0]?.toDate() ?? null, next?.[1]?.toDate() ?? null);
    setFilter((f) => ({ ...f, page: 1, from, to }));
  };
  const query = useOrders(filter);
  const narrow = useNarrow();
  const filtered = Boolean(filter.state || filter.from || filter.to);
  const readOnly = useReadOnly();

  const actions = (o: Order) =>
    o.state === 'pending' && !readOnly ? (
      <span className="table-actions">
        <Button type="link" size="small" onClick={() => onPay(o)}>
          去支付
        </Button>
        <CancelButton order={o} />
      </span>
    ) : null;

  const columns: TableColumnsType<Order> = [
    { title: '订单号', dataIndex: 'orderNo', width: 190, render: (no: string) => <code>{no}</code> },
    {
      title: '套餐',
      dataIndex: 'packageName',
      width: 190,
      render: (name: string, o) => (
        <div className="order-package">
          <span>
            {name}
            {o.kind === 'renew' ? <Tag className="kind-tag">续费</Tag> : null}
          </span>
          <span className="muted">
            {o.slots} 个账号 · {o.quantity} × {o.durationDays} 天
          </span>
        </div>
      ),
    },
    {
      title: '金额',
      dataIndex: 'amountFen',
      width: 110,
      align: 'right',
      render: (f: number) => <Money fen={f} />,
    },
    {
      title: '状态',
      dataIndex: 'state',
      width: 110,
      render: (state: OrderStateValue) => (
        <Tag color={ORDER_STATE_COLORS[state]}>{ORDER_STATE_LABELS[state]}</Tag>
      ),
    },
    {
      title: '支付方式',
      dataIndex: 'payMethod',
      width: 90,
      render: (m: string | null) => (m ? (PAY_METHOD_LABELS[m] ?? m) : '—'),
    },
    { title: '下单时间', dataIndex: 'createdAt', width: 165, render: (t: number) => formatTime(t) },
    {
      title: '支付时间',
      dataIndex: 'paidAt',
      width: 165,
      render: (t: number | null) => (t ? formatTime(t) : '—'),
    },
    ...(readOnly
      ? []
      : [
          {
            title: '操作',
            key: 'actions',
            width: 110,
            fixed: 'right' as const,
            render: (_: unknown, o: Order) => actions(o) ?? <span className="muted">—</span>,
          },
        ]),
  ];

  const emptyText = filtered ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的订单" />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无购买记录">
      <Button type="primary" icon={<ShoppingOutlined />} onClick={onBrowse}>
        查看套餐
      </Button>
    </Empty>
  );
  const changePage = (page: number, pageSize: number) =>
    setFilter((f) => ({ ...f, page: pageSize === f.pageSize ? page : 1, pageSize }));

  return (
    <div className="orders">
      <div className="list-toolbar">
        <Select
          aria-label="订单状态"
          allowClear
          placeholder="全部状态"
          options={STATE_OPTIONS}
          value={filter.state}
          style={{ minWidth: 150 }}
          onChange={(state?: OrderStateValue) => setFilter((f) => ({ ...f, page: 1, state }))}
        />
        <DatePicker.RangePicker
          className="date-range"
          classNames={{ popup: { root: 'orders-range-popup' } }}
          aria-label="下单日期"
          placeholder={['下单开始日期', '下单结束日期']}
          allowEmpty={[true, true]}
          value={range}
          onChange={(next) => changeRange(next as DateRange)}
          inputReadOnly={narrow}
        />
        {filtered ? (
          <Button
            onClick={() => {
              setRange(null);
              setFilter((f) => ({ page: 1, pageSize: f.pageSize }));
            }}
          >
            重置
          </Button>
        ) : null}
      </div>
      <PagedList<Order>
        query={query}
        label="购买记录"
        rowKey="orderNo"
        scrollX={1130}
        columns={columns}
        empty={emptyText}
        onPage={changePage}
        cardProps={() => ({ testId: 'order-card' })}
        card={(o) => (
          <>
            <div className="list-card-head">
              <span>
                {o.packageName}
                {o.kind === 'renew' ? <Tag className="kind-tag">续费</Tag> : null}
              </span>
              <Tag color={ORDER_STATE_COLORS[o.state]}>{ORDER_STATE_LABELS[o.state]}</Tag>
            </div>
            <dl>
              <dt>订单号</dt>
              <dd>
                <code>{o.orderNo}</code>
              </dd>
              <dt>金额</dt>
              <dd>
                <Money fen={o.amountFen} />（{o.quantity} × {o.durationDays} 天，{o.slots} 个账号）
              </dd>
              <dt>下单时间</dt>
              <dd>{formatTime(o.createdAt)}</dd>
              {o.paidAt ? (
                <>
                  <dt>支付</dt>
                  <dd>
                    {formatTime(o.paidAt)}{' '}
                    {o.payMethod ? (PAY_METHOD_LABELS[o.payMethod] ?? o.payMethod) : ''}
                  </dd>
                </>
              ) : null}
            </dl>
            {actions(o)}
          </>
        )}
      />
    </div>
  );
}
