import { ArrowLeftOutlined, PlusOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Contact } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { Alert, Button, Card, Empty, Input, Segmented, Select, Skeleton, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { useNarrow } from '../../components/useNarrow';
import { Composer } from '../../features/messaging/Composer';
import { Conversation } from '../../features/messaging/Conversation';
import { DeliveryLog } from '../../features/messaging/DeliveryLog';
import { isChatroom } from '../../features/messaging/labels';
import { QrLoginDialog } from '../../features/messaging/QrLoginDialog';
import { messagingKeys, useOnlineAccounts } from '../../features/messaging/queries';
import { useLiveEvents } from '../../features/messaging/useLive';
import { LiveBadge, WxAvatar } from '../../features/messaging/widgets';
import '../../features/messaging/messaging.css';
import './moniyanshi.css';
import { PageHeader } from '../../components/PageHeader';
import { useReadOnly } from '../../stores/support-view';

const displayName = (c: Contact) => c.remark || c.nickname || c.wxid;

function Intro() {
  return (
    <ol className="demo-steps" aria-label="演示步骤">
      <li>
        <strong>扫码登录</strong>
        <span>用手机或另一个标签打开二维码链接并确认，账号即上线。</span>
      </li>
      <li>
        <strong>收发消息</strong>
        <span>给联系人发消息，他们会自动回复；试试「图片」「文件」「时间」。</span>
      </li>
      <li>
        <strong>回调通知</strong>
        <span>每条消息、上下线都会推送到您的回调地址，投递记录随时可查。</span>
      </li>
    </ol>
  );
}

function Members({ wxid, roomId }: { wxid: string; roomId: string }) {
  const query = useQuery({
    queryKey: messagingKeys.members(wxid, roomId),
    queryFn: ({ signal }) => call(messagingCalls.getChatRoomMember, { wxid, roomId }, { signal }),
  });
  if (query.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (query.isError) return <Alert type="error" showIcon title="群成员加载失败" />;
  return (
    <div className="members">
      <h3 className="side-title">
        群成员 <span className="muted">{query.data.members.length} 人</span>
      </h3>
      <ul className="member-grid" aria-label="群成员">
        {query.data.members.map((m) => (
          <li key={m.wxid} title={m.wxid}>
            <WxAvatar src={m.avatar} name={m.displayName || m.nickname} size={32} />
            <span className="member-name">
              {m.displayName || m.nickname}
              {m.wxid === query.data.owner ? <Tag className="owner-tag">群主</Tag> : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /moniyanshi/index (模拟演示): a chat client of the simulated network, with the callbacks beside it. */
export default function DemoPage() {
  useLiveEvents();
  const narrow = useNarrow();
  const readOnly = useReadOnly();
  const online = useOnlineAccounts();
  const accounts = online.data?.list ?? [];
  // `?wxid=&peer=` (微信管理 → 消息) opens that account's conversation.
  const [params] = useSearchParams();
  const [wxid, setWxid] = useState<string | undefined>(() => params.get('wxid') ?? undefined);
  const [peer, setPeer] = useState<string | undefined>(() => params.get('peer') ?? undefined);
  const [tab, setTab] = useState<'friend' | 'chatroom'>('friend');
  const [search, setSearch] = useState('');
  const [login, setLogin] = useState(false);
  const [memberNames, setMemberNames] = useState<Record<string, string>>({});

  // Keep a valid account selected: the first online one, or none when it went offline.
  useEffect(() => {
    if (!online.data) return;
    if (!wxid || !accounts.some((a) => a.wxid === wxid)) {
      setWxid(accounts[0]?.wxid);
      setPeer(undefined);
    }
  }, [online.data, accounts, wxid]);

  const contacts = useQuery({
    queryKey: messagingKeys.contacts(wxid ?? ''),
    queryFn: ({ signal }) => call(messagingCalls.getAddressList, { wxid: wxid! }, { signal }),
    enabled: Boolean(wxid),
  });
  const all = contacts.data?.list ?? [];
  const byId = useMemo(() => new Map(all.map((c) => [c.wxid, c])), [all]);
  const shown = all
    .filter((c) => c.kind === tab)
    .filter((c) => {
      const q = search.trim().toLowerCase();
      return !q || [c.nickname, c.remark, c.wxid].some((x) => x.toLowerCase().includes(q));
    });
  const current = peer ? byId.get(peer) : undefined;
  const account = accounts.find((a) => a.wxid === wxid);

  const members = useQuery({
    queryKey: messagingKeys.members(wxid ?? '', peer ?? ''),
    queryFn: ({ signal }) =>
      call(messagingCalls.getChatRoomMember, { wxid: wxid!, roomId: peer! }, { signal }),
    enabled: Boolean(wxid && peer && isChatroom(peer)),
  });
  useEffect(() => {
    if (!members.data) return;
    setMemberNames(
      Object.fromEntries(members.data.members.map((m) => [m.wxid, m.displayName || m.nickname])),
    );
  }, [members.data]);
  const nameOf = (id: string) => memberNames[id] ?? (byId.get(id) ? displayName(byId.get(id)!) : id);

  const accountBar = (
    <div className="demo-account">
      {accounts.length > 0 ? (
        <Select
          aria-label="演示账号"
          className="demo-account-select"
          value={wxid}
          onChange={(v) => {
            setWxid(v);
            setPeer(undefined);
          }}
          options={accounts.map((a) => ({
            value: a.wxid,
            label: (
              <span className="account-cell">
                <WxAvatar src={a.avatar} name={a.nickname} size={20} />
                {a.nickname}
              </span>
            ),
          }))}
        />
      ) : null}
      {readOnly ? null : (
        <Button
          icon={<PlusOutlined />}
          onClick={() => setLogin(true)}
          type={accounts.length ? 'default' : 'primary'}
        >
          {accounts.length ? '登录' : '扫码登录账号'}
        </Button>
      )}
    </div>
  );

  const contactList = (
    <div className="demo-contacts">
      <Segmented
        block
        value={tab}
        onChange={(v) => setTab(v as 'friend' | 'chatroom')}
        options={[
          { value: 'friend', label: '好友', icon: <UserOutlined /> },
          { value: 'chatroom', label: '群聊', icon: <TeamOutlined /> },
        ]}
      />
      <Input.Search
        allowClear
        placeholder="搜索昵称 / 备注 / wxid"
        aria-label="搜索联系人"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {contacts.isPending ? (
        <Skeleton active avatar paragraph={{ rows: 4 }} />
      ) : contacts.isError ? (
        <Alert
          type="error"
          showIcon
          title="通讯录加载失败"
          action={
            <Button size="small" onClick={() => void contacts.refetch()}>
              重试
            </Button>
          }
        />
      ) : shown.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={search ? '没有匹配的联系人' : tab === 'friend' ? '没有好友' : '没有群聊'}
        />
      ) : (
        <ul className="contact-list" aria-label={tab === 'friend' ? '好友' : '群聊'}>
          {shown.map((c) => (
            <li key={c.wxid}>
              <button
                type="button"
                className={c.wxid === peer ? 'contact is-active' : 'contact'}
                onClick={() => setPeer(c.wxid)}
                data-testid="contact"
              >
                <WxAvatar src={c.avatar} name={displayName(c)} size={36} />
                <span className="contact-main">
                  <strong>{displayName(c)}</strong>
                  <span className="muted">{c.signature || c.wxid}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );

  const chat =
    wxid && peer ? (
      <div className="demo-chat">
        <header className="chat-head">
          {narrow ? (
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label="返回联系人"
              onClick={() => setPeer(undefined)}
            />
          ) : null}
          <strong data-testid="chat-title">{current ? displayName(current) : peer}</strong>
          <span className="muted chat-peer">{peer}</span>
        </header>
        <Conversation
          key={`${wxid}/${peer}`}
          wxid={wxid}
          peer={peer}
          nameOf={nameOf}
          className="chat-body"
          emptyText="还没有消息，打个招呼吧"
        />
        {readOnly ? (
          <p className="muted demo-readonly">只读查看：不能代客户发送消息。</p>
        ) : (
          <Composer wxid={wxid} peer={peer} />
        )}
      </div>
    ) : (
      <div className="demo-chat demo-chat-empty">
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={wxid ? '从左侧选择一个联系人或群聊开始聊天' : '先扫码登录一个模拟账号'}
        />
      </div>
    );

  const side = wxid ? (
    <aside className="demo-side" aria-label="回调与群成员">
      {peer && isChatroom(peer) ? <Members wxid={wxid} roomId={peer} /> : null}
      <h3 className="side-title">
        回调投递 <span className="muted">{account?.nickname}</span>
      </h3>
      <DeliveryLog
        wxid={wxid}
        compact
        pageSize={8}
        emptyHint={
          <>
            还没有回调事件：在「在线测试 →
            回调设置」为子账号设置回调地址后，消息、上下线等事件会推送并记录在这里。
            <Link to="/onlineTest/index#callbacks">去设置回调地址</Link>
          </>
        }
      />
    </aside>
  ) : null;

  return (
    <div className="page demo-page">
      <PageHeader
        tag={<LiveBadge />}
        subtitle="一个完整的模拟微信网络：虚拟好友会回复，群里会有人聊天，所有事件同时推送回调。"
      />
      <Intro />
      {online.isError ? (
        <Alert type="error" showIcon title="账号列表加载失败" description={online.error.message} />
      ) : null}
      <Card className="demo-card" styles={{ body: { padding: 0 } }}>
        {online.isPending ? (
          <Skeleton active className="demo-loading" />
        ) : accounts.length === 0 ? (
          <Empty
            className="demo-nobody"
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              readOnly ? '该公司此刻没有在线的账号' : '还没有在线的账号：扫码登录一个模拟账号，就能开始聊天'
            }
          >
            {readOnly ? null : (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setLogin(true)}>
                扫码登录账号
              </Button>
            )}
          </Empty>
        ) : (
          <div className={`demo-layout ${narrow ? (peer ? 'show-chat' : 'show-list') : ''}`}>
            <div className="demo-left">
              {accountBar}
              {contactList}
            </div>
            {chat}
            {!narrow ? side : null}
          </div>
        )}
      </Card>
      {side ? <Card className="demo-side-card">{side}</Card> : null}
      <QrLoginDialog
        open={login}
        onClose={() => setLogin(false)}
        title="扫码登录模拟账号"
        onLoggedIn={(a) => {
          setWxid(a.wxid);
          setPeer(undefined);
        }}
      />
    </div>
  );
}
