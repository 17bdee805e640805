import { useMutation, useQuery } from '@tanstack/react-query';
import * as authCalls from '@wxc/contract/calls/auth';
import type { AdminOrder } from '@wxc/contract/calls/orders';
import * as orderCalls from '@wxc/contract/calls/orders';
import type { Package } from '@wxc/contract/calls/packages';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as realNameCalls from '@wxc/contract/calls/realname';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { TIER_LABELS, TIER_ORDER, type Tier } from '@wxc/contract/domain';
import { Button, Card, Empty, Form, Input, InputNumber, Popconfirm, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { ModalForm } from '../../components/ModalForm';
import { PagedList } from '../../components/PagedList';
import { QueryState } from '../../components/QueryState';
import { useNarrow } from '../../components/useNarrow';
import { formatDuration, formatFen } from '../../features/commerce/money';
import { formatTime } from '../../utils/time';
import { opsKeys, useAdminOrders, useAdminPackages, useInvalidateOps } from './queries';
import { SupportContact } from './SupportContact';

/** 设置: the switches, the support contact, the package catalogue, offline payments. */
export function Settings() {
  return (
    <div className="ops-section ops-settings">
      <Switches />
      <SupportContact />
      <Catalogue />
      <OfflinePayments />
    </div>
  );
}

function Switches() {
  const { message } = useFeedback();
  const invalidate = useInvalidateOps();
  const switches = useQuery({
    queryKey: opsKeys.switches(),
    queryFn: async ({ signal }) => {
      const [realName, register] = await Promise.all([
        call(realNameCalls.isOpenRealName, {}, { signal }),
        call(authCalls.isAutoRegiste, {}, { signal }),
      ]);
      return { realName: realName.open, register: register.open };
    },
  });
  const setRealName = useMutation({
    mutationFn: (open: boolean) => call(realNameCalls.openRealName, { open }),
    onSuccess: (r) => {
      void message.success(r.open ? '已开启实名要求' : '已关闭实名要求');
      void invalidate();
    },
  });
  const setRegister = useMutation({
    mutationFn: (open: boolean) => call(authCalls.openAutoRegiste, { open }),
    onSuccess: (r) => {
      void message.success(r.open ? '已开放自助注册' : '已关闭自助注册');
      void invalidate();
    },
  });
  return (
    <Card size="small" title="开关">
      <QueryState query={switches} rows={2}>
        {(s) => (
          <div className="ops-switches">
            <div className="ops-switch">
              <Switch
                checked={s.realName}
                loading={setRealName.isPending}
                onChange={(v) => setRealName.mutate(v)}
                aria-label="实名认证要求"
              />
              <span>
                <strong>实名认证要求</strong>
                <span className="ops-muted">
                  开启后，未通过实名认证的公司不能购买套餐、开通 API 或新建子账号。
                </span>
              </span>
            </div>
            <div className="ops-switch">
              <Switch
                checked={s.register}
                loading={setRegister.isPending}
                onChange={(v) => setRegister.mutate(v)}
                aria-label="自助注册"
              />
              <span>
                <strong>自助注册</strong>
                <span className="ops-muted">关闭后注册页提示“暂未开放注册”，已有账号不受影响。</span>
              </span>
            </div>
          </div>
        )}
      </QueryState>
    </Card>
  );
}

interface PackageForm {
  name: string;
  tier: Tier;
  slots: number;
  durationDays: number;
  priceYuan: number;
  onSale: boolean;
  description: string;
}

function Catalogue() {
  const narrow = useNarrow();
  const query = useAdminPackages();
  const [editing, setEditing] = useState<Package | 'new' | null>(null);
  return (
    <Card
      size="small"
      title="套餐目录"
      extra={
        <Button size="small" type="primary" onClick={() => setEditing('new')}>
          新增套餐
        </Button>
      }
    >
      <QueryState
        query={query}
        isEmpty={(d) => d.list.length === 0}
        empty={<Empty description="还没有套餐" />}
      >
        {(d) => (
          <Table<Package>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={d.list}
            scroll={{ x: narrow ? 560 : undefined }}
            columns={[
              { title: '名称', dataIndex: 'name' },
              { title: '等级', key: 'tier', render: (_, p) => TIER_LABELS[p.tier] },
              { title: '额度', dataIndex: 'slots', width: 70 },
              { title: '周期', key: 'd', render: (_, p) => formatDuration(p.durationDays) },
              { title: '价格', key: 'p', render: (_, p) => formatFen(p.priceFen) },
              {
                title: '状态',
                key: 's',
                render: (_, p) => (p.onSale ? <Tag color="success">在售</Tag> : <Tag>已下架</Tag>),
              },
              {
                title: '操作',
                key: 'a',
                width: 70,
                render: (_, p) => (
                  <Button type="link" size="small" onClick={() => setEditing(p)}>
                    编辑
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {editing ? (
        <PackageDialog pkg={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Card>
  );
}

function PackageDialog({ pkg, onClose }: { pkg: Package | null; onClose: () => void }) {
  const { message } = useFeedback();
  const invalidate = useInvalidateOps();
  const save = useMutation({
    mutationFn: (v: PackageForm) =>
      call(packageCalls.adminSavePackage, {
        ...(pkg ? { id: pkg.id } : {}),
        name: v.name,
        tier: v.tier,
        slots: v.slots,
        durationDays: v.durationDays,
        priceFen: Math.round(v.priceYuan * 100),
        onSale: v.onSale,
        description: v.description ?? '',
      }),
    onSuccess: () => {
      void message.success('套餐已保存');
      void invalidate();
      onClose();
    },
  });
  return (
    <ModalForm<PackageForm>
      title={pkg ? `编辑套餐：${pkg.name}` : '新增套餐'}
      pending={save.isPending}
      onSubmit={(v) => save.mutate(v)}
      onClose={onClose}
      initialValues={
        pkg
          ? { ...pkg, priceYuan: pkg.priceFen / 100 }
          : { tier: 'basic', slots: 5, durationDays: 30, priceYuan: 299, onSale: true, description: '' }
      }
    >
      <Form.Item
        name="name"
        label="名称"
        rules={[{ required: true, min: 2, max: 30, message: '名称为 2-30 个字符' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="tier" label="等级" rules={[{ required: true }]}>
        <Select options={TIER_ORDER.map((t) => ({ value: t, label: TIER_LABELS[t] }))} />
      </Form.Item>
      <Form.Item name="slots" label="账号额度" rules={[{ required: true, message: '请输入额度' }]}>
        <InputNumber min={1} max={10_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="durationDays" label="周期（天）" rules={[{ required: true, message: '请输入周期' }]}>
        <InputNumber min={1} max={3660} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="priceYuan" label="价格（元）" rules={[{ required: true, message: '请输入价格' }]}>
        <InputNumber min={0} max={1_000_000} precision={2} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="description" label="描述">
        <Input.TextArea maxLength={200} rows={2} />
      </Form.Item>
      <Form.Item name="onSale" label="在售" valuePropName="checked">
        <Switch />
      </Form.Item>
    </ModalForm>
  );
}

function OfflinePayments() {
  const { message } = useFeedback();
  const invalidate = useInvalidateOps();
  const [page, setPage] = useState(1);
  const query = useAdminOrders({ page, pageSize: PAGE_SIZE_DEFAULT, state: 'pending' });
  const markPaid = useMutation({
    mutationFn: (orderNo: string) =>
      call(orderCalls.adminMarkPaid, { orderNo, note: '运营确认线下转账到账' }),
    onSuccess: (o) => {
      void message.success(`订单 ${o.orderNo} 已确认到账`);
      void invalidate();
    },
  });
  const confirmPaid = (o: AdminOrder) => (
    <Popconfirm
      title="确认已收到该笔线下转账？"
      description="确认后套餐立即生效。"
      okText="确认到账"
      cancelText="取消"
      onConfirm={() => markPaid.mutate(o.orderNo)}
    >
      <Button type="link" size="small">
        确认到账
      </Button>
    </Popconfirm>
  );
  return (
    <Card size="small" title="待确认的线下付款">
      <PagedList<AdminOrder>
        query={query}
        label="待确认的线下付款"
        rowKey="orderNo"
        size="small"
        sizeChanger={false}
        scrollX={640}
        empty={<Empty description="没有待支付的订单" />}
        onPage={setPage}
        columns={[
          { title: '订单号', dataIndex: 'orderNo', ellipsis: true },
          {
            title: '公司',
            key: 'c',
            render: (_, o) => (
              <span>
                {o.companyName}
                <span className="ops-muted"> {o.companyAccount}</span>
              </span>
            ),
          },
          { title: '套餐', key: 'p', render: (_, o) => `${o.packageName} × ${o.quantity}` },
          { title: '金额', key: 'a', render: (_, o) => formatFen(o.amountFen) },
          { title: '下单时间', key: 't', render: (_, o) => formatTime(o.createdAt) },
          { title: '操作', key: 'x', width: 100, render: (_, o) => confirmPaid(o) },
        ]}
        card={(o) => (
          <>
            <div className="list-card-head">
              <span>{o.companyName}</span>
              <span>{formatFen(o.amountFen)}</span>
            </div>
            <dl>
              <dt>订单号</dt>
              <dd>
                <code>{o.orderNo}</code>
              </dd>
              <dt>套餐</dt>
              <dd>
                {o.packageName} × {o.quantity}
              </dd>
              <dt>下单时间</dt>
              <dd>{formatTime(o.createdAt)}</dd>
            </dl>
            <span className="table-actions">{confirmPaid(o)}</span>
          </>
        )}
      />
    </Card>
  );
}
