import { ExclamationCircleFilled, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WxAccount } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as recordCalls from '@wxc/contract/calls/records';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import {
  Button,
  Card,
  Drawer,
  Empty,
  Input,
  Modal,
  Select,
  type TableColumnsType,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { PagedList } from '../../components/PagedList';
import { useApiAccounts } from '../../features/commerce/queries';
import { QrLoginDialog } from '../../features/messaging/QrLoginDialog';
import { messagingKeys } from '../../features/messaging/queries';
import { useLiveEvents } from '../../features/messaging/useLive';
import { AccountStatusTag, LiveBadge, WxAccountCardHead, WxAvatar } from '../../features/messaging/widgets';
import { useReadOnly } from '../../stores/support-view';
import { formatTime, relativeTime } from '../../utils/time';
import { MessagesPanel } from './MessagesPanel';
import { DeviceRecords, LoginRecords } from './Records';
import '../../features/commerce/commerce.css';
import '../../features/messaging/messaging.css';
import './wechat-list.css';
import { PageHeader } from '../../components/PageHeader';

interface Filter {
  page: number;
  pageSize: number;
  status?: 'online' | 'offline' | undefined;
  subAccountId?: string | undefined;
  keyword?: string | undefined;
}

type Login = { deviceId?: string | undefined; title?: string } | null;

/** The remark, editable in place (updateRemarks). */
function Remark({ account }: { account: WxAccount }) {
  const { message } = useFeedback();
  const client = useQueryClient();
  const readOnly = useReadOnly();
  if (readOnly) {
    return (
      <Typography.Text className="remark" type={account.remark ? undefined : 'secondary'}>
        {account.remark || '无'}
      </Typography.Text>
    );
  }
  return (
    <Typography.Text
      className="remark"
      editable={{
        tooltip: '修改备注',
        maxLength: 50,
        onChange: async (remark) => {
          if (remark.trim() === account.remark) return;
          try {
            await call(recordCalls.updateRemarks, { wxid: account.wxid, remark });
            void message.success('备注已保存');
            void client.invalidateQueries({ queryKey: messagingKeys.accounts() });
          } catch {
            // the request layer has said why
          }
        },
      }}
      type={account.remark ? undefined : 'secondary'}
    >
      {account.remark || '无'}
    </Typography.Text>
  );
}

/** Sets or clears an account's own expiry (updateExpireTime). */
function ExpiryDialog({ account, onClose }: { account: WxAccount | null; onClose(): void }) {
  const { message } = useFeedback();
  const client = useQueryClient();
  const [date, setDate] = useState(account?.expireAt ? formatTime(account.expireAt, 'YYYY-MM-DD') : '');
  const [busy, setBusy] = useState(false);
  const save = async (clear: boolean) => {
    if (!account) return;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!clear && !m) {
      void message.warning('请选择日期');
      return;
    }
    setBusy(true);
    try {
      // End of the chosen day, local time.
      const expireAt =
        clear || !m ? null : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59).getTime();
      await call(recordCalls.updateExpireTime, { wxid: account.wxid, expireAt });
      void message.success(clear ? '已取消到期时间' : '到期时间已设置');
      void client.invalidateQueries({ queryKey: messagingKeys.all });
      onClose();
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={Boolean(account)}
      title={`设置到期时间：${account?.nickname ?? ''}`}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="clear" onClick={() => void save(true)} disabled={busy || !account?.expireAt}>
          取消到期时间
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void save(false)}>
          保存
        </Button>,
      ]}
    >
      <p className="muted">
        到期后该账号自动下线且不能再登录，适用于按账号计时转售的场景。不设置时跟随套餐。
      </p>
      <Input type="date" aria-label="到期日期" value={date} onChange={(e) => setDate(e.target.value)} />
    </Modal>
  );
}

function AccountsTab({
  fixedStatus,
  onLogin,
  onConsole,
  onExpiry,
}: {
  fixedStatus?: 'offline';
  onLogin(login: Login): void;
  onConsole(account: WxAccount): void;
  onExpiry(account: WxAccount): void;
}) {
  const { modal, message } = useFeedback();
  const client = useQueryClient();
  const subs = useApiAccounts(false);
  const readOnly = useReadOnly();
  const [filter, setFilter] = useState<Filter>({ page: 1, pageSize: PAGE_SIZE_DEFAULT, status: fixedStatus });
  const [keyword, setKeyword] = useState('');
  const query = useQuery({
    queryKey: messagingKeys.accountList(filter),
    queryFn: ({ signal }) => call(recordCalls.queryHistoryWx, filter, { signal }),
    placeholderData: (p) => p,
  });
  const filtered = Boolean(filter.subAccountId || filter.keyword || (!fixedStatus && filter.status));

  const logout = (a: WxAccount) =>
    modal.confirm({
      title: `让「${a.nickname}」下线？`,
      icon: <ExclamationCircleFilled />,
      content: '账号将退出登录并释放子账号的一个额度，排队中的消息不再发送。之后可在原设备重新登录。',
      okText: '下线',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(messagingCalls.logout, { wxid: a.wxid });
          void message.success(`「${a.nickname}」已下线`);
          void client.invalidateQueries({ queryKey: messagingKeys.all });
        } catch {
          // shown by the request layer
        }
      },
    });

  const actions = (a: WxAccount) => (
    <span className="table-actions">
      <Button type="link" size="small" onClick={() => onConsole(a)}>
        消息
      </Button>
      {readOnly ? null : a.status === 'online' ? (
        <Button type="link" size="small" danger onClick={() => logout(a)}>
          下线
        </Button>
      ) : (
        <Button
          type="link"
          size="small"
          onClick={() => onLogin({ deviceId: a.deviceId, title: `重新登录：${a.nickname}` })}
        >
          重新登录
        </Button>
      )}
      {readOnly ? null : (
        <Button type="link" size="small" onClick={() => onExpiry(a)}>
          到期时间
        </Button>
      )}
    </span>
  );

  const columns: TableColumnsType<WxAccount> = [
    {
      title: '账号',
      key: 'account',
      width: 230,
      fixed: 'left',
      render: (_, a) => (
        <span className="account-cell">
          <WxAvatar src={a.avatar} name={a.nickname} />
          <span className="account-cell-text">
            <strong>{a.nickname}</strong>
            <span className="muted block" title={a.wxid}>
              {a.wxid}
            </span>
          </span>
        </span>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (s: WxAccount['status']) => <AccountStatusTag status={s} />,
    },
    { title: '子账号', dataIndex: 'subAccountName', width: 120, ellipsis: true },
    {
      title: '设备',
      dataIndex: 'deviceId',
      width: 150,
      ellipsis: true,
      render: (d: string) => <code>{d}</code>,
    },
    {
      title: fixedStatus ? '下线' : '在线时间',
      key: 'since',
      width: 170,
      render: (_, a) =>
        a.status === 'online' ? (
          <span title={formatTime(a.onlineSince)}>{relativeTime(a.onlineSince)}上线</span>
        ) : (
          <span>
            {formatTime(a.lastOfflineAt) || '—'}
            {a.logoutReason ? <span className="muted block">{a.logoutReason}</span> : null}
          </span>
        ),
    },
    {
      title: '到期',
      dataIndex: 'expireAt',
      width: 110,
      render: (t: number | null) =>
        t ? formatTime(t, 'YYYY-MM-DD') : <span className="muted">跟随套餐</span>,
    },
    { title: '备注', key: 'remark', width: 160, render: (_, a) => <Remark account={a} /> },
    {
      title: '操作',
      key: 'actions',
      width: readOnly ? 80 : 200,
      fixed: 'right',
      render: (_, a) => actions(a),
    },
  ];

  const onPage = (page: number, pageSize: number) =>
    setFilter((f) => ({ ...f, page: pageSize === f.pageSize ? page : 1, pageSize }));
  const subOptions = (subs.data?.list ?? []).map((s) => ({ value: s.id, label: s.name }));

  return (
    <>
      <div className="list-toolbar">
        <Select
          aria-label="子账号"
          allowClear
          placeholder="全部子账号"
          style={{ minWidth: 140 }}
          options={subOptions}
          value={filter.subAccountId}
          onChange={(subAccountId?: string) => setFilter((f) => ({ ...f, page: 1, subAccountId }))}
        />
        {fixedStatus ? null : (
          <Select
            aria-label="状态"
            allowClear
            placeholder="全部状态"
            style={{ minWidth: 110 }}
            value={filter.status}
            onChange={(status?: 'online' | 'offline') => setFilter((f) => ({ ...f, page: 1, status }))}
            options={[
              { value: 'online', label: '在线' },
              { value: 'offline', label: '离线' },
            ]}
          />
        )}
        <Input.Search
          aria-label="搜索账号"
          placeholder="wxid / 昵称 / 备注"
          allowClear
          enterButton={<SearchOutlined />}
          style={{ maxWidth: 260 }}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.target.value);
            if (!e.target.value) setFilter((f) => ({ ...f, page: 1, keyword: undefined }));
          }}
          onSearch={(v) => setFilter((f) => ({ ...f, page: 1, keyword: v.trim() || undefined }))}
        />
        <span className="spacer" />
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
          刷新
        </Button>
      </div>
      <PagedList<WxAccount>
        label={fixedStatus ? '历史账号' : '微信账号'}
        query={query}
        columns={columns}
        rowKey="wxid"
        onPage={onPage}
        scrollX={1230}
        empty={
          filtered ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的账号" />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={fixedStatus ? '没有已下线的账号' : '还没有登录过微信账号'}
            >
              {fixedStatus || readOnly ? null : (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => onLogin({})}>
                  添加账号
                </Button>
              )}
            </Empty>
          )
        }
        card={(a) => (
          <div data-testid="wx-card">
            <WxAccountCardHead account={a} />
            <dl>
              <dt>wxid</dt>
              <dd>{a.wxid}</dd>
              <dt>子账号</dt>
              <dd>{a.subAccountName}</dd>
              <dt>{a.status === 'online' ? '上线' : '下线'}</dt>
              <dd>
                {a.status === 'online' ? relativeTime(a.onlineSince) : formatTime(a.lastOfflineAt) || '—'}
                {a.status === 'offline' && a.logoutReason ? `（${a.logoutReason}）` : ''}
              </dd>
              <dt>备注</dt>
              <dd>
                <Remark account={a} />
              </dd>
            </dl>
            {actions(a)}
          </div>
        )}
      />
    </>
  );
}

/** /wechatList/index (微信管理): the company's messaging accounts, their logins, devices and messages. */
export default function WechatListPage() {
  useLiveEvents();
  const readOnly = useReadOnly();
  // `?add=1` (用户中心's 去添加账号, the 开始使用 checklist) opens 添加账号 at once.
  const [params] = useSearchParams();
  const [login, setLogin] = useState<Login>(() => (params.get('add') === '1' && !readOnly ? {} : null));
  const [consoleFor, setConsoleFor] = useState<WxAccount | null>(null);
  const [expiryFor, setExpiryFor] = useState<WxAccount | null>(null);
  const [tab, setTab] = useState('accounts');
  const common = { onLogin: setLogin, onConsole: setConsoleFor, onExpiry: setExpiryFor };
  return (
    <div className="page commerce-page wechat-list-page">
      <PageHeader
        tag={<LiveBadge />}
        subtitle="扫码登录的微信账号、登录记录与设备"
        extra={
          readOnly ? null : (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setLogin({})}>
              添加账号
            </Button>
          )
        }
      />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          destroyOnHidden
          items={[
            { key: 'accounts', label: '账号', children: <AccountsTab {...common} /> },
            { key: 'logins', label: '登录记录', children: <LoginRecords /> },
            {
              key: 'devices',
              label: '设备记录',
              children: (
                <DeviceRecords
                  onRelogin={
                    readOnly
                      ? undefined
                      : (deviceId, name) => setLogin({ deviceId, title: `在设备上登录：${name}` })
                  }
                />
              ),
            },
            {
              key: 'history',
              label: '历史账号',
              children: <AccountsTab fixedStatus="offline" {...common} />,
            },
          ]}
        />
      </Card>
      <QrLoginDialog
        open={login !== null}
        deviceId={login?.deviceId}
        {...(login?.title ? { title: login.title } : {})}
        onClose={() => setLogin(null)}
      />
      <Drawer
        open={Boolean(consoleFor)}
        onClose={() => setConsoleFor(null)}
        title={consoleFor ? `消息：${consoleFor.nickname}（${consoleFor.wxid}）` : ''}
        size={560}
        destroyOnHidden
        styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
      >
        {consoleFor ? (
          <MessagesPanel
            account={consoleFor}
            onRelogin={() => {
              setConsoleFor(null);
              setLogin({ deviceId: consoleFor.deviceId, title: `重新登录：${consoleFor.nickname}` });
            }}
          />
        ) : null}
      </Drawer>
      <ExpiryDialog key={expiryFor?.wxid ?? ''} account={expiryFor} onClose={() => setExpiryFor(null)} />
    </div>
  );
}
