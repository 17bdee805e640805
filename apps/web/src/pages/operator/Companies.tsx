import { EyeOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import * as operatorCalls from '@wxc/contract/calls/operator';
import { type Company, PACKAGE_STATE_LABELS, type PackageState } from '@wxc/contract/calls/operator';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { REAL_NAME_LABELS } from '@wxc/contract/domain';
import {
  Button,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Modal,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { PagedList } from '../../components/PagedList';
import { QueryState } from '../../components/QueryState';
import { useNarrow } from '../../components/useNarrow';
import { useEnterView } from '../../features/support-view/SupportView';
import { accountTypeLabel, realNameStatus } from '../../utils/labels';
import { endOfDay, formatTime } from '../../utils/time';
import {
  type CompanyFilter,
  useCompanies,
  useCompanyPackages,
  useCompanySubAccounts,
  useInvalidateOps,
} from './queries';

const REAL_NAME_COLORS = { 0: 'default', 1: 'success', 2: 'processing', 3: 'error' } as const;
const PACKAGE_COLORS: Record<PackageState, string> = {
  active: 'success',
  expired: 'warning',
  none: 'default',
};

export const isServiceExpired = (c: Pick<Company, 'serviceExpiresAt'>, now = Date.now()) =>
  c.serviceExpiresAt !== null && c.serviceExpiresAt <= now;

/** 'YYYY-MM-DD' of a time, for the native date input (local time). */
function dateValue(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function RealNameTag({ status }: { status: number }) {
  const s = realNameStatus(status);
  return <Tag color={REAL_NAME_COLORS[s]}>{REAL_NAME_LABELS[s]}</Tag>;
}
function PackageTag({ company }: { company: Company }) {
  return (
    <Tag color={PACKAGE_COLORS[company.packageState]}>
      {PACKAGE_STATE_LABELS[company.packageState]}
      {company.packageState === 'active' ? ` · ${company.activeSlots} 个额度` : ''}
    </Tag>
  );
}
function ServiceEnd({ company }: { company: Company }) {
  if (company.serviceExpiresAt === null) return <span className="ops-muted">不限</span>;
  return isServiceExpired(company) ? (
    <Tag color="error">已到期 {formatTime(company.serviceExpiresAt, 'YYYY-MM-DD')}</Tag>
  ) : (
    <span>{formatTime(company.serviceExpiresAt, 'YYYY-MM-DD')}</span>
  );
}

/** 注册公司: search and filters, remarks, service expiry, packages and sub-accounts (read-only). */
export function Companies() {
  const narrow = useNarrow();
  const [filter, setFilter] = useState<CompanyFilter>({ page: 1, pageSize: PAGE_SIZE_DEFAULT });
  const [editing, setEditing] = useState<{ company: Company; what: 'remark' | 'expiry' } | null>(null);
  const [detail, setDetail] = useState<Company | null>(null);
  const query = useCompanies(filter);
  const enter = useEnterView();
  const set = (patch: Partial<CompanyFilter>) => setFilter((f) => ({ ...f, ...patch, page: 1 }));

  const actions = (c: Company) => (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        icon={<EyeOutlined />}
        onClick={() => enter(c)}
        aria-label={`查看控制台：${c.companyName}`}
      >
        查看控制台
      </Button>
      <Button type="link" size="small" onClick={() => setDetail(c)}>
        套餐与子账号
      </Button>
      <Button type="link" size="small" onClick={() => setEditing({ company: c, what: 'remark' })}>
        备注
      </Button>
      <Button type="link" size="small" onClick={() => setEditing({ company: c, what: 'expiry' })}>
        服务期限
      </Button>
    </Space>
  );

  const columns: TableColumnsType<Company> = [
    {
      title: '公司',
      key: 'company',
      render: (_, c) => (
        <div>
          <div>{c.companyName}</div>
          <div className="ops-muted">{c.companyAccount}</div>
        </div>
      ),
    },
    { title: '实名', key: 'rn', width: 96, render: (_, c) => <RealNameTag status={c.realNameStatus} /> },
    { title: '套餐', key: 'pkg', render: (_, c) => <PackageTag company={c} /> },
    {
      title: '子账号 / 在线',
      key: 'usage',
      width: 110,
      render: (_, c) => `${c.subAccountCount} / ${c.onlineCount}`,
    },
    { title: '服务期限', key: 'end', width: 130, render: (_, c) => <ServiceEnd company={c} /> },
    {
      title: '备注',
      dataIndex: 'remark',
      ellipsis: true,
      render: (v: string) => v || <span className="ops-muted">—</span>,
    },
    { title: '注册时间', key: 'created', width: 160, render: (_, c) => formatTime(c.createdAt) },
    { title: '操作', key: 'actions', width: 320, render: (_, c) => actions(c) },
  ];

  return (
    <div className="ops-section">
      <div className="ops-toolbar">
        <Input.Search
          allowClear
          placeholder="公司名称 / 手机号 / 备注"
          className="ops-search"
          onSearch={(v) => set({ keyword: v.trim() || undefined })}
        />
        <Select
          allowClear
          placeholder="实名状态"
          className="ops-select"
          aria-label="按实名状态筛选"
          options={([0, 1, 2, 3] as const).map((v) => ({ value: v, label: REAL_NAME_LABELS[v] }))}
          onChange={(v?: number) => set({ realNameStatus: v })}
        />
        <Select
          allowClear
          placeholder="套餐状态"
          className="ops-select"
          aria-label="按套餐状态筛选"
          options={(Object.keys(PACKAGE_STATE_LABELS) as PackageState[]).map((v) => ({
            value: v,
            label: PACKAGE_STATE_LABELS[v],
          }))}
          onChange={(v?: PackageState) => set({ packageState: v })}
        />
        <Select
          allowClear
          placeholder="服务期限"
          className="ops-select"
          aria-label="按服务期限筛选"
          options={[
            { value: 'expired', label: '已到期' },
            { value: 'ok', label: '未到期 / 不限' },
          ]}
          onChange={(v?: string) => set({ serviceExpired: v === undefined ? undefined : v === 'expired' })}
        />
      </div>
      <PagedList<Company>
        query={query}
        label="公司列表"
        rowKey="id"
        unit="家"
        scrollX={1200}
        columns={columns}
        empty={<Empty description="没有符合条件的公司" />}
        onPage={(page, pageSize) => setFilter((f) => ({ ...f, page, pageSize }))}
        card={(c) => (
          <article className="ops-card" aria-label={c.companyName}>
            <div className="ops-card-head">
              <strong>{c.companyName}</strong>
              <RealNameTag status={c.realNameStatus} />
            </div>
            <div className="ops-muted">{c.companyAccount}</div>
            <div className="ops-card-row">
              <PackageTag company={c} />
              <span>
                子账号 {c.subAccountCount} · 在线 {c.onlineCount}
              </span>
            </div>
            <div className="ops-card-row">
              服务期限：
              <ServiceEnd company={c} />
            </div>
            {c.remark ? <div className="ops-card-row">备注：{c.remark}</div> : null}
            <div className="ops-muted">注册于 {formatTime(c.createdAt)}</div>
            {actions(c)}
          </article>
        )}
        cardProps={() => ({ className: 'list-card-plain' })}
      />
      {editing ? <EditDialog {...editing} onClose={() => setEditing(null)} /> : null}
      <Drawer
        open={detail !== null}
        onClose={() => setDetail(null)}
        title={detail ? `${detail.companyName}（只读）` : ''}
        size={narrow ? window.innerWidth : 720}
        destroyOnHidden
      >
        {detail ? <CompanyDetail company={detail} /> : null}
      </Drawer>
    </div>
  );
}

function EditDialog({
  company,
  what,
  onClose,
}: {
  company: Company;
  what: 'remark' | 'expiry';
  onClose: () => void;
}) {
  const { message } = useFeedback();
  const invalidate = useInvalidateOps();
  const [remark, setRemark] = useState(company.remark);
  const [date, setDate] = useState(dateValue(company.serviceExpiresAt));
  const save = useMutation({
    mutationFn: (clear: boolean) =>
      what === 'remark'
        ? call(operatorCalls.updateCompanyRemarks, { userId: company.id, remark })
        : call(operatorCalls.updateCompanyExpireTime, {
            userId: company.id,
            expireAt: clear ? null : endOfDay(date),
          }),
    onSuccess: () => {
      void message.success('已保存');
      void invalidate();
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`${what === 'remark' ? '备注' : '服务期限'}：${company.companyName}`}
      onCancel={onClose}
      onOk={() => save.mutate(false)}
      okText="保存"
      okButtonProps={{ loading: save.isPending, disabled: what === 'expiry' && !endOfDay(date) }}
      footer={(origin) => (
        <>
          {what === 'expiry' && company.serviceExpiresAt !== null ? (
            <Button onClick={() => save.mutate(true)} disabled={save.isPending}>
              取消期限
            </Button>
          ) : null}
          {origin}
        </>
      )}
    >
      {what === 'remark' ? (
        <Input.TextArea
          aria-label="备注"
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          maxLength={100}
          showCount
          rows={3}
          placeholder="运营内部备注，客户看不到"
        />
      ) : (
        <>
          <p className="ops-muted">
            到期后该公司仍可登录控制台查看记录，但不能购买或续费套餐、开通
            API、登录新的微信账号；已在线的账号不受影响。
          </p>
          <input
            type="date"
            className="ops-date"
            aria-label="服务到期日"
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
        </>
      )}
    </Modal>
  );
}

function CompanyDetail({ company }: { company: Company }) {
  const packages = useCompanyPackages(company.id);
  const subs = useCompanySubAccounts(company.id);
  return (
    <div className="ops-detail">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="账号">{company.companyAccount}</Descriptions.Item>
        <Descriptions.Item label="用户名">{company.userName}</Descriptions.Item>
        <Descriptions.Item label="接入方式">{accountTypeLabel(company.accountType)}</Descriptions.Item>
        <Descriptions.Item label="实名">
          <RealNameTag status={company.realNameStatus} />
        </Descriptions.Item>
        <Descriptions.Item label="服务期限">
          <ServiceEnd company={company} />
        </Descriptions.Item>
      </Descriptions>
      <h4>已购套餐</h4>
      <QueryState
        query={packages}
        isEmpty={(d) => d.list.length === 0}
        empty={<Empty description="未购买套餐" />}
      >
        {(d) => (
          <>
            <p className="ops-muted">
              额度：共 {d.totalSlots}，已分配 {d.allocatedSlots}，空闲 {d.freeSlots}
            </p>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={d.list}
              scroll={{ x: 520 }}
              columns={[
                { title: '套餐', dataIndex: 'packageName' },
                { title: '额度', dataIndex: 'slots', width: 70 },
                {
                  title: '到期',
                  key: 'end',
                  render: (_, s) => formatTime(s.endsAt, 'YYYY-MM-DD'),
                },
                {
                  title: '状态',
                  key: 'status',
                  width: 90,
                  render: (_, s) =>
                    s.status === 'active' ? (
                      <Tag color="success">有效</Tag>
                    ) : (
                      <Tag color="default">已过期</Tag>
                    ),
                },
              ]}
            />
          </>
        )}
      </QueryState>
      <h4>子账号</h4>
      <QueryState
        query={subs}
        isEmpty={(d) => d.list.length === 0}
        empty={<Empty description="没有子账号" />}
      >
        {(d) => (
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={d.list}
            scroll={{ x: 520 }}
            columns={[
              { title: '名称', dataIndex: 'name' },
              { title: 'AppKey', dataIndex: 'appKey', ellipsis: true },
              {
                title: '分配 / 在线',
                key: 'n',
                width: 100,
                render: (_, s) => `${s.availableNum} / ${s.usedNum}`,
              },
              {
                title: '状态',
                key: 's',
                width: 80,
                render: (_, s) =>
                  s.status === 'active' ? <Tag color="success">正常</Tag> : <Tag>已回收</Tag>,
              },
            ]}
          />
        )}
      </QueryState>
    </div>
  );
}
