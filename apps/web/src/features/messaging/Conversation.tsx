import { ReloadOutlined } from '@ant-design/icons';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Message } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { Alert, Button, Empty, Skeleton } from 'antd';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { call } from '../../api/client';
import { formatTime } from '../../utils/time';
import { MessageBubble } from './MessageBubble';
import { messagingKeys } from './queries';

const PAGE = 30;
const GAP_SECONDS = 5 * 60;

/** History of one account (one conversation, or all with `peer` undefined), newest first per page. */
export function useConversation(wxid: string | undefined, peer: string | undefined) {
  return useInfiniteQuery({
    queryKey: messagingKeys.conversation(wxid ?? '', peer),
    queryFn: ({ signal, pageParam }) =>
      call(
        messagingCalls.showMsgConsole,
        { wxid: wxid!, peer, limit: PAGE, ...(pageParam ? { beforeMsgId: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: '' as string,
    getNextPageParam: (last) => (last.hasMore ? last.list[last.list.length - 1]?.msgId : undefined),
    enabled: Boolean(wxid),
  });
}

/** Oldest first, without duplicates (a refetch while a message arrives may repeat one). */
export function chronological(pages: ReadonlyArray<{ list: readonly Message[] }>): Message[] {
  const seen = new Set<string>();
  const out: Message[] = [];
  for (const page of pages) {
    for (const m of page.list) {
      if (seen.has(m.msgId)) continue;
      seen.add(m.msgId);
      out.push(m);
    }
  }
  return out.reverse();
}

/**
 * The message view: history with 加载更早的消息, time separators, bubbles drawn per type; keeps the
 * newest message in view as replies arrive (live events refetch the query).
 */
export function Conversation({
  wxid,
  peer,
  nameOf,
  showPeer = false,
  emptyText = '还没有消息',
  className,
}: {
  wxid: string;
  peer?: string | undefined;
  nameOf?(id: string): string;
  /** In an all-conversations view, name the other side of every message. */
  showPeer?: boolean;
  emptyText?: string;
  className?: string;
}) {
  const query = useConversation(wxid, peer);
  const messages = useMemo(() => chronological(query.data?.pages ?? []), [query.data]);
  const box = useRef<HTMLDivElement>(null);
  const lastId = messages[messages.length - 1]?.msgId;
  const loadingOlder = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the newest message changes.
  useLayoutEffect(() => {
    const el = box.current;
    if (el && !loadingOlder.current) el.scrollTop = el.scrollHeight;
  }, [lastId]);
  useEffect(() => {
    if (!query.isFetchingNextPage) loadingOlder.current = false;
  }, [query.isFetchingNextPage]);

  const label = (m: Message): string | undefined => {
    const name = (id: string) => nameOf?.(id) ?? id;
    if (showPeer)
      return m.direction === 'out'
        ? `发给 ${name(m.peer)}`
        : `来自 ${name(m.peer)}${m.sender !== m.peer ? ` · ${name(m.sender)}` : ''}`;
    if (m.direction === 'in' && m.sender !== m.peer) return name(m.sender);
    return undefined;
  };

  let body: React.ReactNode;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (query.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title="消息加载失败"
        description={query.error.message}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            重试
          </Button>
        }
      />
    );
  else if (messages.length === 0)
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  else
    body = (
      <>
        {query.hasNextPage ? (
          <div className="conv-older">
            <Button
              size="small"
              type="link"
              loading={query.isFetchingNextPage}
              onClick={() => {
                loadingOlder.current = true;
                void query.fetchNextPage();
              }}
            >
              加载更早的消息
            </Button>
          </div>
        ) : (
          <div className="conv-older muted">没有更早的消息了</div>
        )}
        {messages.map((m, i) => {
          const prev = messages[i - 1];
          const gap = !prev || m.createTime - prev.createTime > GAP_SECONDS;
          return (
            <Fragment key={m.msgId}>
              {gap ? <div className="msg-time">{formatTime(m.createTime, 'MM-DD HH:mm')}</div> : null}
              <MessageBubble m={m} senderName={label(m)} />
            </Fragment>
          );
        })}
      </>
    );

  return (
    <div
      ref={box}
      className={`conversation ${className ?? ''}`}
      data-testid="conversation"
      aria-live="polite"
    >
      {body}
    </div>
  );
}
