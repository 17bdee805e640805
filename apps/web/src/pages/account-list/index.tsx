import { ExclamationCircleFilled, PlusOutlined, SettingOutlined, ShoppingOutlined } from '@ant-design/icons';
import type { ApiAccount } from '@wxc/contract/calls/api-accounts';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import { SUB_ACCOUNT_MAX_PER_COMPANY } from '@wxc/contract/constants';
import { Alert, Button, Card, Empty, Switch, type TableColumnsType } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { CopyableCode } from '../../components/CopyButton';
import { useFeedback } from '../../components/feedback';
import { ListView } from '../../components/PagedList';
import { QueryState } from '../../components/QueryState';
import { useApiAccounts, useInvalidateCommerce } from '../../features/commerce/queries';
import { type Credentials, SecretOnceDialog } from '../../features/commerce/SecretOnceDialog';
import { TierRule } from '../../features/commerce/TierRule';
import { QuotaSummary, StatusTag } from '../../features/commerce/widgets';
import { useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';
import { CompanySettingsDrawer, EditDialog, OpenDialog, SlotsDialog } from './dialogs';
import '../../features/commerce/commerce.css';
import './account-list.css';
import { PageHeader } from '../../components/PageHeader';

type Dialog =
  | { kind: 'open' }
  | { kind: 'slots'; account: ApiAccount }
  | { kind: 'edit'; account: ApiAccount }
  | { kind: 'settings' };

/** /accountList/index (子账号): API applications, their keys, slots, callbacks; company API settings. */
export default function AccountListPage() {
  const { modal, message } = useFeedback();
  const navigate = useNavigate();
  const [showRecovered, setShowRecovered] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [secret, setSecret] = useState<{ title: string; credentials: Credentials } | null>(null);
  const query = useApiAccounts(showRecovered);
  const invalidate = useInvalidateCommerce();
  const freeSlots = query.data?.freeSlots ?? 0;
  const hasPackage = (query.data?.totalSlots ?? 0) > 0;
  const activeCount = query.data?.list.filter((a) => a.status === 'active').length ?? 0;
  const readOnly = useReadOnly();
  // `?open=1` (the 开始使用 checklist's link) opens 新建子账号 once the quota is known.
  const [params] = useSearchParams();
  const autoOpened = useRef(false);
  useEffect(() => {
    if (autoOpened.current || readOnly || params.get('open') !== '1' || !query.data) return;
    autoOpened.current = true;
    if (query.data.totalSlots > 0) setDialog({ kind: 'open' });
  }, [params, query.data, readOnly]);

  const resetSecret = (account: ApiAccount) =>
    modal.confirm({
      title: `重置「${account.name}」的密钥？`,
      icon: <ExclamationCircleFilled />,
      content: '将生成新的 AppSecret 并只显示一次，旧密钥立即失效，使用旧密钥的程序需要更新配置。',
      okText: '重置密钥',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          const credentials = await call(apiAccountCalls.resetApiSecret, { id: account.id });
          void invalidate();
          setSecret({ title: '密钥已重置：请保存新密钥', credentials });
        } catch {
          // the request layer has shown why
        }
      },
    });

  const reclaim = (account: ApiAccount) =>
    modal.confirm({
      title: `回收子账号「${account.name}」？`,
      icon: <ExclamationCircleFilled />,
      content: (
        <div>
          <p>回收后：</p>
          <ul className="reclaim-list">
            <li>它的 AppKey 和 AppSecret 立即失效，使用它们的程序将无法再调用 API；</li>
            <li>
              已分配的 <strong>{account.availableNum}</strong> 个账号额度退回公司，可分配给其他子账号；
            </li>
            <li>此操作不可撤销。</li>
          </ul>
        </div>
      ),
      okText: '确认回收',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(apiAccountCalls.recoveryApiAccount, { id: account.id });
          void message.success(`子账号「${account.name}」已回收，${account.availableNum} 个额度已退回`);
          void invalidate();
        } catch {
          // the request layer has shown why
        }
      },
    });

  const actions = (a: ApiAccount) =>
    readOnly ? null : a.status === 'active' ? (
      <span className="table-actions">
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'slots', account: a })}>
          分配额度
        </Button>
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', account: a })}>
          编辑
        </Button>
        <Button type="link" size="small" onClick={() => resetSecret(a)}>
          重置密钥
        </Button>
        <Button type="link" size="small" danger onClick={() => reclaim(a)}>
          回收
        </Button>
      </span>
    ) : (
      <span className="muted">于 {formatTime(a.recoveredAt, 'YYYY-MM-DD HH:mm')} 回收</span>
    );

  const columns: TableColumnsType<ApiAccount> = [
    { title: '名称', dataIndex: 'name', width: 130, ellipsis: true },
    {
      title: 'AppKey',
      dataIndex: 'appKey',
      width: 250,
      render: (key: string) => <CopyableCode text={key} what="AppKey" />,
    },
    {
      title: '在线 / 分配',
      key: 'slots',
      width: 96,
      render: (_, a) => (
        <span className="slots-cell" data-testid="slots">
          {a.usedNum} / {a.availableNum}
        </span>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 84,
      render: (s: ApiAccount['status']) => <StatusTag status={s} />,
    },
    {
      title: '回调地址',
      dataIndex: 'callbackUrl',
      ellipsis: true,
      render: (url: string | null) => url ?? <span className="muted">使用默认</span>,
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 165, render: (t: number) => formatTime(t) },
    ...(readOnly
      ? []
      : [
          {
            title: '操作',
            key: 'actions',
            width: 236,
            fixed: 'right' as const,
            render: (_: unknown, a: ApiAccount) => actions(a),
          },
        ]),
  ];

  const buy = (
    <Button type="primary" icon={<ShoppingOutlined />} onClick={() => navigate('/purchaseRecords/index')}>
      去购买
    </Button>
  );
  const openButton = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      disabled={!query.data || activeCount >= SUB_ACCOUNT_MAX_PER_COMPANY}
      onClick={() => setDialog({ kind: 'open' })}
    >
      新建子账号
    </Button>
  );

  const emptyState = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        hasPackage
          ? '还没有子账号：新建一个，把套餐的账号额度分配给它，就能登录微信账号'
          : '购买套餐后即可创建子账号'
      }
    >
      {readOnly ? null : hasPackage ? openButton : buy}
    </Empty>
  );

  return (
    <div className="page commerce-page account-list-page">
      <PageHeader
        subtitle="为每个业务系统开通子账号，分配微信账号额度"
        extra={
          <>
            <Button icon={<SettingOutlined />} onClick={() => setDialog({ kind: 'settings' })}>
              公司 API 设置
            </Button>
            {readOnly ? null : openButton}
          </>
        }
      />
      <Card>
        <QueryState query={query} rows={5}>
          {(data) => (
            <div className="account-list">
              <QuotaSummary {...data} />
              {!hasPackage ? (
                <Alert
                  type="warning"
                  showIcon
                  title="暂无有效套餐"
                  description="子账号需要分配账号额度才能登录微信账号，请先购买或续费套餐。"
                  action={readOnly ? null : buy}
                />
              ) : (
                <TierRule onlyProblems />
              )}
              <div className="list-toolbar">
                <span className="recovered-toggle">
                  <Switch
                    id="show-recovered"
                    size="small"
                    checked={showRecovered}
                    onChange={setShowRecovered}
                  />
                  <label htmlFor="show-recovered">显示已回收</label>
                </span>
                <span className="muted">
                  每个子账号是一个 API 应用，拥有独立的 AppKey/AppSecret 和回调地址，最多{' '}
                  {SUB_ACCOUNT_MAX_PER_COMPANY} 个。
                </span>
              </div>
              <ListView<ApiAccount>
                rows={data.list}
                label="子账号列表"
                rowKey="id"
                unit="个"
                scrollX={1120}
                columns={columns}
                empty={emptyState}
                loading={query.isFetching && query.isPlaceholderData}
                rowClassName={(a) => (a.status === 'recovered' ? 'row-recovered' : '')}
                cardProps={(a) => ({
                  className: a.status === 'active' ? 'list-card' : 'list-card is-muted',
                  testId: 'account-card',
                })}
                card={(a) => (
                  <>
                    <div className="list-card-head">
                      <span>{a.name}</span>
                      <StatusTag status={a.status} />
                    </div>
                    <CopyableCode text={a.appKey} what="AppKey" />
                    <dl>
                      <dt>在线 / 分配</dt>
                      <dd data-testid="slots">
                        {a.usedNum} / {a.availableNum}
                      </dd>
                      <dt>回调地址</dt>
                      <dd>{a.callbackUrl ?? <span className="muted">使用默认</span>}</dd>
                      <dt>创建时间</dt>
                      <dd>{formatTime(a.createdAt)}</dd>
                    </dl>
                    {actions(a)}
                  </>
                )}
              />
            </div>
          )}
        </QueryState>
      </Card>

      {dialog?.kind === 'open' ? (
        <OpenDialog
          freeSlots={freeSlots}
          totalSlots={query.data?.totalSlots ?? 0}
          onClose={() => setDialog(null)}
          onCreated={(credentials) => {
            setDialog(null);
            setSecret({ title: '子账号已创建：请保存密钥', credentials });
          }}
        />
      ) : null}
      {dialog?.kind === 'slots' ? (
        <SlotsDialog account={dialog.account} freeSlots={freeSlots} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <EditDialog account={dialog.account} onClose={() => setDialog(null)} />
      ) : null}
      <CompanySettingsDrawer open={dialog?.kind === 'settings'} onClose={() => setDialog(null)} />
      <SecretOnceDialog
        credentials={secret?.credentials ?? null}
        title={secret?.title}
        onClose={() => setSecret(null)}
      />
    </div>
  );
}
