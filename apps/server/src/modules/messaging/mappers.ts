import type { Message, WxAccount } from '@wxc/contract';
import type { WxAccountRow, WxMessageRow } from '../../db/schema.js';

/** A `wx_accounts` row joined with its sub-account's name (`api_accounts.name as sub_account_name`). */
export type WxAccountViewRow = WxAccountRow & { sub_account_name: string };

/** The one mapping of a messaging account to the contract's `wxAccountSchema` (gateway, records, statistics). */
export function toWxAccount(row: WxAccountViewRow): WxAccount {
  return {
    wxid: row.wxid,
    nickname: row.nickname,
    avatar: row.avatar,
    alias: row.alias,
    subAccountId: row.api_account_id,
    subAccountName: row.sub_account_name,
    deviceId: row.device_id,
    status: row.status,
    onlineSince: row.online_since,
    lastOfflineAt: row.last_offline_at,
    logoutReason: row.logout_reason,
    remark: row.remark,
    expireAt: row.expire_at,
    firstLoginAt: row.first_login_at,
    lastLoginAt: row.last_login_at,
  };
}

export function toMessage(row: WxMessageRow, wxid: string): Message {
  return {
    msgId: row.id,
    newMsgId: row.new_msg_id,
    createTime: row.create_time,
    type: row.type,
    appType: row.app_type,
    direction: row.direction,
    wxid,
    peer: row.peer,
    sender: row.sender,
    content: row.content,
    media: row.media ? (JSON.parse(row.media) as Record<string, string | number>) : null,
    status: row.status === 'sending' ? 'queued' : row.status,
    error: row.error,
  };
}

/** What a send call carries, mapped to the raw message type it becomes. */
export type OutgoingInput =
  | { kind: 'text'; content: string; at?: string[] | undefined }
  | { kind: 'image'; imageUrl: string }
  | { kind: 'video'; videoUrl: string; thumbUrl: string; duration: number }
  | { kind: 'file'; fileUrl: string; fileName: string }
  | { kind: 'link'; title: string; description: string; url: string; thumbUrl?: string | undefined }
  | {
      kind: 'app';
      appId: string;
      username: string;
      title: string;
      coverUrl: string;
      pagePath: string;
      displayName: string;
    }
  | { kind: 'emoji'; md5: string; size: number }
  | { kind: 'voice'; voiceUrl: string; duration: number };

export function toRaw(input: OutgoingInput): {
  type: number;
  appType: number | null;
  content: string;
  media: Record<string, string | number> | null;
} {
  switch (input.kind) {
    case 'text':
      return {
        type: 1,
        appType: null,
        content: input.content,
        media: input.at?.length ? { at: input.at.join(',') } : null,
      };
    case 'image':
      return { type: 3, appType: null, content: '[图片]', media: { url: input.imageUrl } };
    case 'video':
      return {
        type: 43,
        appType: null,
        content: '[视频]',
        media: { url: input.videoUrl, thumbUrl: input.thumbUrl, duration: input.duration },
      };
    case 'file':
      return {
        type: 49,
        appType: 6,
        content: input.fileName,
        media: { url: input.fileUrl, fileName: input.fileName },
      };
    case 'link':
      return {
        type: 49,
        appType: 5,
        content: input.title,
        media: {
          title: input.title,
          description: input.description,
          url: input.url,
          ...(input.thumbUrl ? { thumbUrl: input.thumbUrl } : {}),
        },
      };
    case 'app':
      return {
        type: 49,
        appType: 33,
        content: input.title,
        media: {
          appId: input.appId,
          username: input.username,
          title: input.title,
          coverUrl: input.coverUrl,
          pagePath: input.pagePath,
          displayName: input.displayName,
        },
      };
    case 'emoji':
      return { type: 47, appType: null, content: '[表情]', media: { md5: input.md5, size: input.size } };
    case 'voice':
      return {
        type: 34,
        appType: null,
        content: '[语音]',
        media: { url: input.voiceUrl, duration: input.duration },
      };
  }
}
