import { useMutation } from '@tanstack/react-query';
import type { Order } from '@wxc/contract/calls/orders';
import * as orderCalls from '@wxc/contract/calls/orders';
import type { Package, Subscription } from '@wxc/contract/calls/packages';
import { ORDER_MAX_QUANTITY } from '@wxc/contract/constants';
import { TIER_LABELS } from '@wxc/contract/domain';
import { Alert, Button, Descriptions, InputNumber, Modal, Popconfirm, Result, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import {
  newIdempotencyKey,
  purchaseEndsAt,
  renewalEndsAt,
  TIER_COLORS,
  tierRefusal,
} from '../../features/commerce/logic';
import { formatDuration, orderTotalFen } from '../../features/commerce/money';
import { useInvalidateCommerce, usePackage, useSubscriptions } from '../../features/commerce/queries';
import { Money } from '../../features/commerce/widgets';
import { useCompanyAccountType } from '../../stores/support-view';
import { formatTime } from '../../utils/time';

export type OrderTarget = { kind: 'buy'; pkg: Package } | { kind: 'renew'; sub: Subscription };

const DATE = 'YYYY-MM-DD HH:mm';

/** Step 1: quantity and total; submitting creates a pending order (once per idempotency key). */
function ConfirmStep({
  target,
  onCreated,
  onCancel,
}: {
  target: OrderTarget;
  onCreated(order: Order): void;
  onCancel(): void;
}) {
  const renewal = target.kind === 'renew' ? target.sub : null;
  // A renewal takes the package's current period and price (the server does the same).
  const pkgQuery = usePackage(renewal?.packageId);
  const pkg = target.kind === 'buy' ? target.pkg : pkgQuery.data;
  const [quantity, setQuantity] = useState(1);
  // One key per dialog and request: a double click or a retry makes one order; a new quantity is a
  // new request, so it gets a new key.
  const [key, setKey] = useState(newIdempotencyKey);
  const invalidate = useInvalidateCommerce();
  const accountType = useCompanyAccountType();
  const create = useMutation({
    mutationFn: () =>
      renewal
        ? call(orderCalls.renew, { subscriptionId: renewal.id, quantity, idempotencyKey: key })
        : call(orderCalls.buy, { packageId: pkg!.id, quantity, idempotencyKey: key }),
    onSuccess: (order) => {
      void invalidate();
      onCreated(order);
    },
  });

  if (!pkg) {
    return pkgQuery.isError ? (
      <Alert type="error" showIcon title="套餐信息加载失败" description={pkgQuery.error.message} />
    ) : (
      <Skeleton active />
    );
  }
  const now = Date.now();
  const endsAt = renewal
    ? renewalEndsAt(renewal.endsAt, now, pkg.durationDays, quantity)
    : purchaseEndsAt(now, pkg.durationDays, quantity);
  const total = orderTotalFen(pkg.priceFen, quantity);
  const refusal = tierRefusal(pkg.tier, accountType);
  return (
    <>
      {refusal ? (
        <Alert
          className="dialog-alert"
          type="error"
          showIcon
          title="该套餐不适用于贵公司的接入方式"
          description={refusal.replace(/^不适用：/, '')}
        />
      ) : null}
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          {
            key: 'name',
            label: '套餐',
            children: (
              <>
                {renewal?.packageName ?? pkg.name}{' '}
                <Tag color={TIER_COLORS[pkg.tier]}>{TIER_LABELS[pkg.tier]}</Tag>
              </>
            ),
          },
          { key: 'slots', label: '账号额度', children: `${renewal?.slots ?? pkg.slots} 个` },
          {
            key: 'price',
            label: '单价',
            children: (
              <>
                <Money fen={pkg.priceFen} /> / {formatDuration(pkg.durationDays)}（{pkg.durationDays} 天）
              </>
            ),
          },
          {
            key: 'quantity',
            label: renewal ? '续费周期数' : '购买周期数',
            children: (
              <InputNumber
                aria-label="购买周期数"
                min={1}
                max={ORDER_MAX_QUANTITY}
                precision={0}
                value={quantity}
                suffix="个周期"
                onChange={(v) => {
                  const next = Math.min(ORDER_MAX_QUANTITY, Math.max(1, Math.trunc(Number(v) || 1)));
                  if (next !== quantity) {
                    setQuantity(next);
                    setKey(newIdempotencyKey());
                  }
                }}
              />
            ),
          },
          ...(renewal
            ? [{ key: 'current', label: '当前到期', children: formatTime(renewal.endsAt, DATE) }]
            : []),
          {
            key: 'ends',
            label: renewal ? '续费后到期' : '预计到期',
            children: (
              <span>
                {formatTime(endsAt, DATE)}
                <span className="muted">
                  {renewal
                    ? renewal.status === 'expired'
                      ? '（已过期，自支付时起算）'
                      : '（自当前到期时间顺延）'
                    : '（自支付时起算）'}
                </span>
              </span>
            ),
          },
          {
            key: 'total',
            label: '应付金额',
            children: (
              <span data-testid="order-total">
                <Money fen={total} strong />
              </span>
            ),
          },
        ]}
      />
      <p className="muted dialog-note">提交后生成待支付订单，请在 30 分钟内完成支付，超时订单自动关闭。</p>
      <div className="dialog-footer">
        <Button onClick={onCancel}>取消</Button>
        <Button
          type="primary"
          loading={create.isPending}
          disabled={refusal !== null}
          onClick={() => create.mutate()}
        >
          提交订单
        </Button>
      </div>
    </>
  );
}

/** Step 2: the sandbox payment, clearly labelled; pay or cancel the pending order. */
function PayStep({
  order,
  onPaid,
  onCancelled,
  onLater,
}: {
  order: Order;
  onPaid(order: Order): void;
  onCancelled(): void;
  onLater(): void;
}) {
  const invalidate = useInvalidateCommerce();
  const pay = useMutation({
    mutationFn: () => call(orderCalls.paySandbox, { orderNo: order.orderNo }),
    onSuccess: (paid) => {
      void invalidate();
      onPaid(paid);
    },
  });
  const cancel = useMutation({
    mutationFn: () => call(orderCalls.cancelOrder, { orderNo: order.orderNo }),
    onSuccess: () => {
      void invalidate();
      onCancelled();
    },
  });
  return (
    <>
      <Alert
        type="info"
        showIcon
        title="沙箱支付（测试环境）"
        description="这是模拟支付：点击「确认支付」即视为支付成功，不会产生任何真实扣款。"
      />
      <Descriptions
        className="pay-facts"
        column={1}
        size="small"
        bordered
        items={[
          { key: 'no', label: '订单号', children: <span data-testid="order-no">{order.orderNo}</span> },
          {
            key: 'pkg',
            label: order.kind === 'renew' ? '续费套餐' : '购买套餐',
            children: order.packageName,
          },
          {
            key: 'qty',
            label: '周期',
            children: `${order.quantity} × ${order.durationDays} 天`,
          },
          { key: 'amount', label: '应付金额', children: <Money fen={order.amountFen} strong /> },
          { key: 'deadline', label: '支付截止', children: formatTime(order.payDeadline) },
        ]}
      />
      <div className="dialog-footer">
        <Popconfirm
          title="取消该订单？"
          description="取消后需重新下单。"
          okText="取消订单"
          cancelText="再想想"
          onConfirm={() => cancel.mutate()}
        >
          <Button danger loading={cancel.isPending} disabled={pay.isPending}>
            取消订单
          </Button>
        </Popconfirm>
        <Button onClick={onLater} disabled={pay.isPending}>
          稍后支付
        </Button>
        <Button
          type="primary"
          loading={pay.isPending}
          disabled={cancel.isPending}
          onClick={() => pay.mutate()}
        >
          确认支付（沙箱）
        </Button>
      </div>
    </>
  );
}

/** Step 3: paid; the package is active (or extended) until the date the server now holds. */
function PaidStep({ order, onShowMine, onClose }: { order: Order; onShowMine(): void; onClose(): void }) {
  const subs = useSubscriptions();
  const sub = subs.data?.list.find((s) => s.id === order.subscriptionId);
  return (
    <Result
      status="success"
      title={order.kind === 'renew' ? '续费成功，套餐已顺延' : '支付成功，套餐已生效'}
      subTitle={
        <span data-testid="paid-summary">
          {order.packageName}
          {sub ? `，有效期至 ${formatTime(sub.endsAt, DATE)}，账号额度 ${sub.slots} 个` : ''}
        </span>
      }
      extra={[
        <Button key="mine" type="primary" onClick={onShowMine}>
          查看我的套餐
        </Button>,
        <Button key="close" onClick={onClose}>
          完成
        </Button>,
      ]}
    />
  );
}

/**
 * Buying, renewing and paying in one dialog: confirm (quantity, total) → 沙箱支付 → paid. Opened
 * with `order`, it starts at the payment of that pending order (from the records table).
 */
export function OrderDialog({
  target,
  pending,
  onClose,
  onShowMine,
}: {
  target: OrderTarget | null;
  pending: Order | null;
  onClose(): void;
  onShowMine(): void;
}) {
  const [order, setOrder] = useState<Order | null>(pending);
  const open = Boolean(target || pending);
  const step = order ? (order.state === 'paid' ? 'paid' : 'pay') : 'confirm';
  const title = {
    confirm: target?.kind === 'renew' ? '续费套餐' : '确认订单',
    pay: '沙箱支付',
    paid: '支付成功',
  }[step];
  return (
    <Modal
      open={open}
      title={title}
      footer={null}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      width={560}
    >
      {step === 'confirm' && target ? (
        <ConfirmStep target={target} onCreated={setOrder} onCancel={onClose} />
      ) : null}
      {step === 'pay' && order ? (
        <PayStep order={order} onPaid={setOrder} onCancelled={onClose} onLater={onClose} />
      ) : null}
      {step === 'paid' && order ? (
        <PaidStep
          order={order}
          onClose={onClose}
          onShowMine={() => {
            onClose();
            onShowMine();
          }}
        />
      ) : null}
    </Modal>
  );
}
