import type { Order } from '@wxc/contract/calls/orders';
import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { Catalogue } from './Catalogue';
import { MySubscriptions } from './MySubscriptions';
import { OrderDialog, type OrderTarget } from './OrderDialog';
import { Orders } from './Orders';
import '../../features/commerce/commerce.css';
import './purchase.css';
import { PageHeader } from '../../components/PageHeader';

type TabKey = 'catalogue' | 'mine' | 'orders';

interface DialogState {
  /** Re-mounts the dialog for every purchase: a fresh idempotency key each time. */
  id: number;
  target: OrderTarget | null;
  pending: Order | null;
}

/** /purchaseRecords/index (套餐): catalogue, my packages with renewal, purchase records, sandbox pay. */
export default function PurchaseRecordsPage() {
  const [tab, setTab] = useState<TabKey>('catalogue');
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const open = (target: OrderTarget | null, pending: Order | null) =>
    setDialog((d) => ({ id: (d?.id ?? 0) + 1, target, pending }));

  return (
    <div className="page commerce-page purchase-page">
      <PageHeader subtitle="购买或续费套餐，查看购买记录" />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as TabKey)}
          items={[
            {
              key: 'catalogue',
              label: '购买套餐',
              children: <Catalogue onBuy={(pkg) => open({ kind: 'buy', pkg }, null)} />,
            },
            {
              key: 'mine',
              label: '我的套餐',
              children: (
                <MySubscriptions
                  onRenew={(sub) => open({ kind: 'renew', sub }, null)}
                  onBrowse={() => setTab('catalogue')}
                />
              ),
            },
            {
              key: 'orders',
              label: '购买记录',
              children: <Orders onPay={(order) => open(null, order)} onBrowse={() => setTab('catalogue')} />,
            },
          ]}
        />
      </Card>
      {dialog ? (
        <OrderDialog
          key={dialog.id}
          target={dialog.target}
          pending={dialog.pending}
          onClose={() => setDialog(null)}
          onShowMine={() => setTab('mine')}
        />
      ) : null}
    </div>
  );
}
