import type { Contact } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { DB, SimContactsTable } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import type { FileService } from '../files/service.js';
import type {
  AccountRef,
  ConfirmOptions,
  IncomingMessage,
  MessagingProvider,
  OutgoingMessage,
  ProviderEvents,
  RoomInfo,
} from '../messaging/provider.js';
import { createContactCopies, localSimContactChanges, type SimContactChanges } from './contact-copies.js';
import { networkForDevice, personForDevice, pictureSvg, replyTo, seededRandom } from './network.js';
import * as repo from './repo.js';

export interface SimulatorOptions {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** Where the pictures and files contacts send are stored (kind `media`). */
  files: Pick<FileService, 'save'>;
  /** A few online accounts, most recent first (the gateway's; for group chatter). */
  onlineAccounts(limit: number): Promise<AccountRef[]>;
  publicUrl: string;
  /** How long a virtual contact takes to answer (0: at once). */
  replyDelayMs: number;
  /** How often some group somewhere says something (0: never). */
  chatterIntervalMs: number;
  /** How changes to contacts reach every process's copies (the bus; default: this process only). */
  contactChanges?: SimContactChanges;
}

const PROXIES = [
  { code: 'sh', name: '上海电信', region: '上海' },
  { code: 'bj', name: '北京联通', region: '北京' },
  { code: 'gz', name: '广州移动', region: '广东' },
  { code: 'sz', name: '深圳电信', region: '广东' },
  { code: 'hz', name: '杭州电信', region: '浙江' },
  { code: 'cd', name: '成都联通', region: '四川' },
];

const CHATTER = [
  '大家早上好',
  '今天的会议改到下午三点',
  '收到',
  '👍',
  '周末有人一起吗？',
  '链接发群里了',
  '辛苦啦',
  '哈哈哈哈',
];

/**
 * The built-in provider: a virtual network stored in the database. The "phone" is the confirm page
 * at /sim/scan/<loginId> (or the same actions through the API); virtual contacts answer, send
 * pictures and files, and groups chat, so incoming messages and callbacks can be exercised.
 */
export function createSimulator(opts: SimulatorOptions) {
  const { db, log, files } = opts;
  let events: ProviderEvents | undefined;
  const pending = new Set<NodeJS.Timeout>();
  let chatter: NodeJS.Timeout | undefined;
  const contactCopies = createContactCopies(opts.contactChanges ?? localSimContactChanges());
  /** A contact of the account's network: read once, then from its copy (sends look it up twice). */
  const contactOf = (account: AccountRef, wxid: string) =>
    contactCopies.contact(account.accountId, wxid, () =>
      fromNetwork(
        account,
        () => repo.contact(db, account.accountId, wxid),
        (row) => row !== undefined,
      ),
    );
  const contactsOf = (account: AccountRef) =>
    fromNetwork(
      account,
      () => repo.contacts(db, account.accountId),
      (rows) => rows.length > 0,
    );
  const avatarUrl = (name: string) => `${opts.publicUrl}/sim/avatar/${encodeURIComponent(name)}.svg`;
  /**
   * The device each QR code this process made is for, as a network knows its own codes: the phone's
   * scan needs it (which person scans) and nothing else of the login, so it needs no read. Dropped
   * when the code ends; bounded, oldest first, for codes that ended elsewhere (another process
   * confirmed or expired them). Immutable: a copy never goes stale, it can only be missing.
   */
  const qrDevices = new Map<string, string>();
  const QR_DEVICES_MAX = 20_000;

  const emit = () => {
    if (!events) throw new Error('simulator: no gateway attached');
    return events;
  };

  /** Runs `fn` later, keeping the timer so stop() can cancel it; failures are logged, not thrown. */
  function later(ms: number, fn: () => Promise<void>) {
    const timer = setTimeout(() => {
      pending.delete(timer);
      fn().catch((err) => log.warn({ err }, 'simulator: scheduled behaviour failed'));
    }, ms);
    timer.unref();
    pending.add(timer);
  }

  /**
   * An account's network is stored the first time a read finds nothing of it, not as it logs in: a
   * network (31 contacts, ~30 room members, made from seeded hashes) was ~30 % of a login's CPU
   * (bench/README.md, session 43), and most accounts a program logs in never look at their contacts.
   * It is made from the account's device, so it is the same whichever read stores it, and every
   * network has contacts, so finding none of an account's rows means none is stored yet (one read
   * says which). Two reads that find none at once both write it: the second one's rows are skipped.
   */
  async function fromNetwork<T>(account: AccountRef, read: () => Promise<T>, found: (result: T) => boolean) {
    const result = await read();
    if (found(result) || (await repo.hasNetwork(db, account.accountId))) return result;
    await storeNetwork(account);
    return read();
  }

  function storeNetwork(account: AccountRef) {
    const net = networkForDevice(account.deviceId);
    const base = { wx_account_id: account.accountId, country: 'CN', remark: '', unreachable: 0 };
    const contacts = [
      ...net.friends.map((p) => ({
        ...base,
        contact_wxid: p.wxid,
        kind: 'friend' as const,
        nickname: p.nickname,
        alias: p.alias,
        avatar: avatarUrl(p.nickname),
        sex: p.sex,
        signature: p.signature,
        province: p.province,
        city: p.city,
        owner: '',
      })),
      ...net.rooms.map((r) => ({
        ...base,
        contact_wxid: r.roomId,
        kind: 'chatroom' as const,
        nickname: r.name,
        alias: '',
        avatar: avatarUrl(r.name),
        sex: 0,
        signature: '',
        province: '',
        city: '',
        owner: r.owner,
      })),
      ...net.ghs.map((g) => ({
        ...base,
        contact_wxid: g.wxid,
        kind: 'gh' as const,
        nickname: g.nickname,
        alias: '',
        avatar: avatarUrl(g.nickname),
        sex: 0,
        signature: '',
        province: '',
        city: '',
        owner: '',
      })),
    ];
    const members = net.rooms.flatMap((r) =>
      [net.self, ...r.members].map((m, seq) => ({
        wx_account_id: account.accountId,
        room_id: r.roomId,
        member_wxid: m.wxid,
        seq,
        nickname: m.nickname,
        display_name:
          m === net.self
            ? ''
            : seededRandom(`${r.roomId}:${m.wxid}`)() < 0.3
              ? `${m.nickname}(${m.city})`
              : '',
        inviter: r.owner,
        avatar: avatarUrl(m.nickname),
      })),
    );
    return repo.insertNetwork(db, contacts, members);
  }

  function toContact(row: Selectable<SimContactsTable>): Contact {
    return {
      wxid: row.contact_wxid,
      nickname: row.nickname,
      remark: row.remark,
      alias: row.alias,
      avatar: row.avatar,
      sex: row.sex,
      signature: row.signature,
      country: row.country,
      province: row.province,
      city: row.city,
      kind: row.kind,
    };
  }

  async function receivePicture(
    account: AccountRef,
    peer: string,
    sender: string,
    caption: string,
  ): Promise<IncomingMessage> {
    const stored = await files.save('media', {
      companyId: account.companyId,
      origin: 'received',
      data: Buffer.from(pictureSvg(caption, newId())),
      fileName: 'picture.svg',
      mime: 'image/svg+xml',
    });
    return {
      peer,
      sender,
      type: 3,
      appType: null,
      content: caption,
      media: { mediaId: stored.id, mime: stored.mime, size: stored.size },
    };
  }

  async function receiveFile(
    account: AccountRef,
    peer: string,
    sender: string,
    name: string,
  ): Promise<IncomingMessage> {
    const body = Buffer.from(`%PDF-1.4\n% ${name} (模拟器生成的示例文件)\n%%EOF\n`);
    const stored = await files.save('media', {
      companyId: account.companyId,
      origin: 'received',
      data: body,
      fileName: name,
      mime: 'application/pdf',
    });
    return {
      peer,
      sender,
      type: 49,
      appType: 6,
      content: name,
      media: { mediaId: stored.id, mime: stored.mime, size: stored.size, fileName: name },
    };
  }

  /** What `peer` (the contact row the send found) does after receiving `message` from `account`. */
  async function react(account: AccountRef, message: OutgoingMessage, peer: Selectable<SimContactsTable>) {
    if (peer.kind === 'gh') return;
    let sender = peer.contact_wxid;
    if (peer.kind === 'chatroom') {
      const members = (await repo.roomMembers(db, account.accountId, peer.contact_wxid)).filter(
        (m) => m.member_wxid !== account.wxid,
      );
      if (members.length === 0) return;
      sender = members[Math.floor(Math.random() * members.length)]!.member_wxid;
    }
    let incoming: IncomingMessage;
    if (message.type === 1) {
      const reply = replyTo(message.content, new Date());
      incoming =
        reply.kind === 'image'
          ? await receivePicture(account, peer.contact_wxid, sender, reply.caption)
          : reply.kind === 'file'
            ? await receiveFile(account, peer.contact_wxid, sender, reply.name)
            : {
                peer: peer.contact_wxid,
                sender,
                type: 1,
                appType: null,
                content: reply.content,
                media: null,
              };
    } else {
      const what = { 3: '图片', 34: '语音', 43: '视频', 47: '表情' }[message.type] ?? '消息';
      incoming = {
        peer: peer.contact_wxid,
        sender,
        type: 1,
        appType: null,
        content: `收到你的${what}了`,
        media: null,
      };
    }
    await emit().message(account, incoming);
  }

  async function chatterTick() {
    for (const account of await opts.onlineAccounts(3)) {
      const rooms = (await contactsOf(account)).filter((c) => c.kind === 'chatroom');
      const room = rooms[Math.floor(Math.random() * rooms.length)];
      if (!room) continue;
      const members = (await repo.roomMembers(db, account.accountId, room.contact_wxid)).filter(
        (m) => m.member_wxid !== account.wxid,
      );
      const member = members[Math.floor(Math.random() * members.length)];
      if (!member) continue;
      const content = CHATTER[Math.floor(Math.random() * CHATTER.length)]!;
      await emit().message(account, {
        peer: room.contact_wxid,
        sender: member.member_wxid,
        type: 1,
        appType: null,
        content,
        media: null,
      });
    }
  }

  const provider: MessagingProvider = {
    name: 'simulator',

    attach(e) {
      events = e;
      if (opts.chatterIntervalMs > 0 && !chatter) {
        chatter = setInterval(
          () => void chatterTick().catch((err) => log.warn({ err }, 'simulator chatter failed')),
          opts.chatterIntervalMs,
        );
        chatter.unref();
      }
    },

    async startLogin({ loginId, deviceId }) {
      qrDevices.set(loginId, deviceId);
      if (qrDevices.size > QR_DEVICES_MAX) qrDevices.delete(qrDevices.keys().next().value!);
      return { qrContent: `${opts.publicUrl}/sim/scan/${loginId}` };
    },

    loginEnded(loginId) {
      qrDevices.delete(loginId);
    },

    // Its network lives in the database: nothing to reconnect after a restart.
    async start() {},

    // Nothing to set up: the network lives in the database, stored when first read (fromNetwork).
    async accountOnline() {},

    async logout() {},

    async syncAddressList(account) {
      const rows = await contactsOf(account);
      return {
        friends: rows.filter((r) => r.kind === 'friend').map((r) => r.contact_wxid),
        chatrooms: rows.filter((r) => r.kind === 'chatroom').map((r) => r.contact_wxid),
        ghs: rows.filter((r) => r.kind === 'gh').map((r) => r.contact_wxid),
      };
    },

    async listContacts(account) {
      return (await contactsOf(account)).map(toContact);
    },

    async getContacts(account, ids) {
      if (ids.length === 0) return [];
      const rows = await fromNetwork(
        account,
        () => repo.contactsByIds(db, account.accountId, ids),
        (found) => found.length > 0,
      );
      const byId = new Map(rows.map((r) => [r.contact_wxid, r]));
      return ids.flatMap((id) => (byId.has(id) ? [toContact(byId.get(id)!)] : []));
    },

    async hasContact(account, peer) {
      return (await contactOf(account, peer)) !== undefined;
    },

    async getRoom(account, roomId): Promise<RoomInfo | null> {
      const room = await contactOf(account, roomId);
      if (room?.kind !== 'chatroom') return null;
      const members = await repo.roomMembers(db, account.accountId, roomId);
      return {
        roomId,
        name: room.nickname,
        owner: room.owner,
        avatar: room.avatar,
        members: members.map((m) => ({
          wxid: m.member_wxid,
          nickname: m.nickname,
          displayName: m.display_name,
          inviter: m.inviter,
          avatar: m.avatar,
        })),
      };
    },

    async send(account, message) {
      const peer = await contactOf(account, message.peer);
      if (!peer) return { ok: false, error: '对方不在通讯录中' };
      if (peer.unreachable === 1) return { ok: false, error: '对方账号异常，消息发送失败' };
      if (peer.kind !== 'gh') {
        if (opts.replyDelayMs > 0) later(opts.replyDelayMs, () => react(account, message, peer));
        else
          queueMicrotask(
            () =>
              void react(account, message, peer).catch((err) => log.warn({ err }, 'simulator reply failed')),
          );
      }
      return { ok: true };
    },

    proxies: () => PROXIES,

    async stop() {
      contactCopies.close();
      if (chatter) clearInterval(chatter);
      chatter = undefined;
      for (const t of pending) clearTimeout(t);
      pending.clear();
    },
  };

  return {
    provider,
    /** The device a QR code made by this process is for; undefined when another one made it, or it ended. */
    deviceOfQr: (loginId: string): string | undefined => qrDevices.get(loginId),
    /** The person a device logs in as (shown on the scan page as the scanner). */
    personForDevice(deviceId: string) {
      const p = personForDevice(deviceId);
      return { ...p, avatar: avatarUrl(p.nickname) };
    },
    /** The phone's actions on the confirm page. */
    phone: {
      scan: (loginId: string, deviceId: string) => {
        const p = personForDevice(deviceId);
        return emit().scanned(loginId, { nickname: p.nickname, avatar: avatarUrl(p.nickname) });
      },
      async confirm(loginId: string, deviceId: string, opts?: ConfirmOptions) {
        const p = personForDevice(deviceId);
        await emit().confirmed(
          loginId,
          { wxid: p.wxid, nickname: p.nickname, avatar: avatarUrl(p.nickname), alias: p.alias },
          opts,
        );
        qrDevices.delete(loginId); // a confirmed code is never scanned again
      },
      requireVerify: (loginId: string) => emit().needVerify(loginId),
      cancel: (loginId: string) => emit().cancelled(loginId),
    },
    /** Faults and behaviours on demand (the /api/sim/* calls). */
    control: {
      kick: (account: AccountRef, reason: string) => emit().loggedOut(account, reason),
      async setUnreachable(account: AccountRef, contactWxid: string, unreachable: boolean) {
        const updated = await fromNetwork(
          account,
          () => repo.setUnreachable(db, account.accountId, contactWxid, unreachable),
          (found) => found,
        );
        // Every process's copy goes before the call answers: the next send sees the change.
        if (updated) await contactCopies.changed([account.accountId]);
        return updated;
      },
      async inject(account: AccountRef, from: string, content: string, roomId?: string) {
        await emit().message(account, {
          peer: roomId ?? from,
          sender: from,
          type: 1,
          appType: null,
          content,
          media: null,
        });
      },
      contact: (account: AccountRef, wxid: string) => contactOf(account, wxid),
      roomMembers: (account: AccountRef, roomId: string) =>
        fromNetwork(
          account,
          () => repo.roomMembers(db, account.accountId, roomId),
          (found) => found.length > 0,
        ),
    },
  };
}

export type Simulator = ReturnType<typeof createSimulator>;
