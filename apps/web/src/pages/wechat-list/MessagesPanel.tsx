import { ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Contact, WxAccount } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { Alert, Button, Select } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { Composer } from '../../features/messaging/Composer';
import { Conversation, chronological, useConversation } from '../../features/messaging/Conversation';
import { messagingKeys } from '../../features/messaging/queries';
import { useReadOnly } from '../../stores/support-view';

const nameOf = (c: Contact) => c.remark || c.nickname || c.wxid;

/** Where 模拟演示 opens this account's conversation with `peer` (or the account alone). */
export function demoLink(wxid: string, peer?: string): string {
  const q = new URLSearchParams({ wxid });
  if (peer) q.set('peer', peer);
  return `/moniyanshi/index?${q}`;
}

/**
 * 微信管理 → 消息: every conversation of one account, newest at the bottom, and under it a composer
 * to write to any of its contacts (the last one it talked with first), with a link to the same
 * conversation in 模拟演示. Offline accounts say how to send again; the support view only reads.
 */
export function MessagesPanel({ account, onRelogin }: { account: WxAccount; onRelogin(): void }) {
  const readOnly = useReadOnly();
  const online = account.status === 'online';
  const contacts = useQuery({
    queryKey: messagingKeys.contacts(account.wxid),
    queryFn: ({ signal }) => call(messagingCalls.getAddressList, { wxid: account.wxid }, { signal }),
    enabled: online,
  });
  const byId = useMemo(() => new Map((contacts.data?.list ?? []).map((c) => [c.wxid, c])), [contacts.data]);
  const history = useConversation(account.wxid, undefined);
  const lastPeer = useMemo(() => {
    const all = chronological(history.data?.pages ?? []);
    return all[all.length - 1]?.peer;
  }, [history.data]);
  const [chosen, setChosen] = useState<string | undefined>();
  const firstFriend = contacts.data?.list.find((c) => c.kind === 'friend') ?? contacts.data?.list[0];
  const peer = chosen ?? (lastPeer && byId.has(lastPeer) ? lastPeer : firstFriend?.wxid);

  let footer: React.ReactNode;
  if (readOnly) {
    footer = <p className="muted messages-note">只读查看：不能代客户发送消息。</p>;
  } else if (!online) {
    footer = (
      <Alert
        type="info"
        showIcon
        title="该账号已离线"
        description="重新登录后才能发送消息；以下是它的历史消息。"
        action={
          <Button size="small" type="primary" onClick={onRelogin}>
            重新登录
          </Button>
        }
      />
    );
  } else {
    footer = (
      <>
        <div className="messages-to">
          <label htmlFor="messages-peer" className="muted">
            发给
          </label>
          <Select
            id="messages-peer"
            aria-label="发给"
            className="messages-peer"
            showSearch={{ optionFilterProp: 'label' }}
            loading={contacts.isPending}
            value={peer}
            onChange={setChosen}
            placeholder={contacts.isError ? '联系人加载失败' : '选择联系人或群聊'}
            options={(contacts.data?.list ?? []).map((c) => ({
              value: c.wxid,
              label: `${nameOf(c)}${c.kind === 'chatroom' ? '（群）' : ''}`,
            }))}
          />
          <Link to={demoLink(account.wxid, peer)} className="messages-demo-link">
            <ExportOutlined /> 在模拟演示中打开
          </Link>
        </div>
        {peer ? <Composer key={peer} wxid={account.wxid} peer={peer} /> : null}
      </>
    );
  }

  return (
    <>
      <Conversation
        wxid={account.wxid}
        showPeer
        nameOf={(id) => {
          const c = byId.get(id);
          return c ? nameOf(c) : id;
        }}
        className="drawer-conversation"
        emptyText={
          online && !readOnly
            ? '该账号还没有收发过消息：在下方选择联系人，发一条试试'
            : '该账号还没有收发过消息'
        }
      />
      <footer className="messages-footer" data-testid="messages-footer">
        {footer}
      </footer>
    </>
  );
}
