import { newId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import type { FileService } from '../files/service.js';
import type { GatewayContext } from './context.js';
import { toMessage, toWxAccount } from './mappers.js';
import * as repo from './repo.js';

/** Links to received media live this long. */
const MEDIA_LINK_TTL_MS = 3_600_000;

export interface ReadDeps {
  /** Media a message carries: stored files (kind `media`) and their signed links. */
  files: Pick<FileService, 'find' | 'link'>;
}

/**
 * What the gateway answers without changing an account: its state, its address book (synced in
 * the background), its messages and their media; and the narrow reads other modules need.
 */
export function createGatewayReads(ctx: GatewayContext, { files }: ReadDeps) {
  const { db, log, provider, ref, accountFor, onlineAccountFor } = ctx;

  return {
    async getAuth(caller: ApiCaller, wxid: string) {
      return toWxAccount(await accountFor(caller, wxid));
    },

    proxyList: () => ({ list: provider.proxies() }),

    async syncAddressList(caller: ApiCaller, wxid: string) {
      const account = await onlineAccountFor(caller, wxid);
      const jobId = newId();
      await repo.insertSyncJob(db, { id: jobId, wx_account_id: account.id, created_at: Date.now() });
      // Address lists can be slow to fetch: the job runs in the background and is polled.
      void provider
        .syncAddressList(ref(account))
        .then((lists) => repo.finishSyncJob(db, jobId, 'done', JSON.stringify(lists), Date.now()))
        .catch(async (err) => {
          log.warn({ err }, 'address list sync failed');
          await repo.finishSyncJob(db, jobId, 'failed', null, Date.now());
        });
      return { jobId, status: 'running' as const };
    },

    async addressListResult(caller: ApiCaller, wxid: string) {
      const account = await accountFor(caller, wxid);
      const job = await repo.latestSyncJob(db, account.id);
      const lists = job?.result
        ? (JSON.parse(job.result) as { friends: string[]; chatrooms: string[]; ghs: string[] })
        : null;
      return {
        jobId: job?.id ?? null,
        status: job?.status ?? ('none' as const),
        friends: lists?.friends ?? [],
        chatrooms: lists?.chatrooms ?? [],
        ghs: lists?.ghs ?? [],
        finishedAt: job?.finished_at ?? null,
      };
    },

    async addressList(caller: ApiCaller, wxid: string) {
      const account = await onlineAccountFor(caller, wxid);
      return { list: await provider.listContacts(ref(account)) };
    },

    async contacts(caller: ApiCaller, wxid: string, ids: string[]) {
      const account = await onlineAccountFor(caller, wxid);
      return { list: await provider.getContacts(ref(account), [...new Set(ids)]) };
    },

    async roomMembers(caller: ApiCaller, wxid: string, roomId: string) {
      const account = await onlineAccountFor(caller, wxid);
      const room = await provider.getRoom(ref(account), roomId);
      if (!room) throw new AppError('NOT_FOUND', '群不存在或不在该账号的通讯录中');
      return room;
    },

    async history(
      caller: ApiCaller,
      input: { wxid: string; peer?: string | undefined; beforeMsgId?: string | undefined; limit: number },
    ) {
      const account = await accountFor(caller, input.wxid);
      let beforeSeq: number | undefined;
      if (input.beforeMsgId) {
        const before = await repo.findMessage(db, account.id, input.beforeMsgId);
        if (!before) throw new AppError('NOT_FOUND', '消息不存在');
        beforeSeq = before.seq;
      }
      const rows = await repo.history(db, account.id, { peer: input.peer, beforeSeq, limit: input.limit });
      return {
        list: rows.slice(0, input.limit).map((r) => toMessage(r, account.wxid)),
        hasMore: rows.length > input.limit,
      };
    },

    /** A link to download a message's picture or video. */
    async messageMedia(caller: ApiCaller, wxid: string, msgId: string, kind: 'image' | 'video') {
      const account = await accountFor(caller, wxid);
      const message = await repo.findMessage(db, account.id, msgId);
      if (!message) throw new AppError('NOT_FOUND', '消息不存在');
      const wanted = kind === 'image' ? 3 : 43;
      if (message.type !== wanted)
        throw new AppError('BAD_REQUEST', kind === 'image' ? '该消息不是图片' : '该消息不是视频');
      const m = message.media ? (JSON.parse(message.media) as Record<string, string | number>) : {};
      if (typeof m.mediaId === 'string') {
        const file = await files.find(m.mediaId);
        if (file?.kind !== 'media') throw new AppError('NOT_FOUND', '媒体文件已过期');
        const link = await files.link(file, MEDIA_LINK_TTL_MS);
        return { url: link.url, mime: file.mime, size: file.size, expiresAt: link.expiresAt! };
      }
      if (typeof m.url === 'string')
        return {
          url: m.url,
          mime: kind === 'image' ? 'image/*' : 'video/mp4',
          size: 0,
          expiresAt: Date.now() + MEDIA_LINK_TTL_MS,
        };
      throw new AppError('NOT_FOUND', '该消息没有可下载的媒体');
    },

    /** The account behind a wxid for simulator controls, scoped like every call. */
    accountRef: async (caller: ApiCaller, wxid: string) => ref(await onlineAccountFor(caller, wxid)),

    // ---- for other modules (injected as narrow dependencies)

    /** Messaging accounts online per sub-account of a company (api-accounts: the slots in use). */
    onlineBySubAccount: (companyId: string) => repo.onlineBySubAccount(db, companyId),
    /** An account ever logged in, a message ever sent (onboarding). */
    progressOf: (companyId: string) => repo.progressOf(db, companyId),
    /** A few online accounts (the simulator's group chatter). */
    async someOnlineAccounts(limit: number) {
      return (await repo.someOnlineAccounts(db, limit)).map(ref);
    },
  };
}

export type GatewayReads = ReturnType<typeof createGatewayReads>;
