import type { Contact } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { FileBoxInterface } from 'file-box';
import type { payloads } from 'wechaty-puppet';
import { AppError } from '../../lib/errors.js';
import type { FileService } from '../files/service.js';
import type {
  AccountRef,
  IncomingMessage,
  MessagingProvider,
  OutgoingMessage,
  ProviderEvents,
  RoomInfo,
  SendOutcome,
} from '../messaging/provider.js';
import {
  ContactType,
  type FileBoxClass,
  type Puppet,
  type PuppetFactory,
  PuppetMessageType,
  ScanStatus,
} from './puppet.js';

export interface WechatyProviderOptions {
  log: FastifyBaseLogger;
  /** Where received pictures, videos, voice and files are stored (kind `media`). */
  files: Pick<FileService, 'save'>;
  createPuppet: PuppetFactory;
  FileBox: FileBoxClass;
  /** Network credentials, one per logged-in account; empty: the puppet module needs none. */
  tokens: string[];
  /** How long a starting puppet may take to show its first QR code. */
  startTimeoutMs?: number;
  /** How often a logged-in puppet is asked for a sign of life (puppet-service resets a silent one). */
  dingIntervalMs?: number;
}

/** The largest received file kept (bigger ones are stored as a text saying so). */
const MAX_MEDIA_BYTES = 25 * 1024 * 1024;
const UNSUPPORTED = '当前消息通道不支持此类消息';

/** One puppet: a device's connection to the network, from its QR code to its logout. */
interface Session {
  deviceId: string;
  puppet: Puppet;
  token: string | undefined;
  /** The QR login it answers now (getQrCode on the same device hands the puppet to a new one). */
  loginId: string | null;
  /** The newest QR code the network showed, while waiting for a scan. */
  qr: string | null;
  scanned: boolean;
  account: AccountRef | null;
  /** Set when we stop it: its own logout is not news. */
  stopping: boolean;
  ended: boolean;
  /** Its events, handled one after another (a scan before the login it leads to). */
  chain: Promise<void>;
  firstQr: { resolve(qr: string): void; reject(err: Error): void } | null;
  ding: NodeJS.Timeout | null;
}

/**
 * A real messaging network through wechaty (MESSAGING_PROVIDER=wechaty): one puppet per device.
 * getQrCode starts the device's puppet and shows the network's QR code; its scan and login events
 * drive the QR life cycle; its messages, contacts and logout reach the gateway like the simulator's.
 * Puppets live in this process (ARCHITECTURE "Messaging providers" says what multi-process needs).
 */
export function createWechatyProvider(opts: WechatyProviderOptions): MessagingProvider {
  const { log, files, FileBox } = opts;
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  const dingIntervalMs = opts.dingIntervalMs ?? 15_000;
  let events: ProviderEvents | undefined;
  const byDevice = new Map<string, Session>();
  const byAccount = new Map<string, Session>();
  const freeTokens = [...opts.tokens];

  const emit = () => {
    if (!events) throw new Error('wechaty provider: no gateway attached');
    return events;
  };

  /** Runs a puppet event's handler after the session's earlier ones; failures are logged. */
  function handle(session: Session, what: string, fn: () => Promise<void>) {
    session.chain = session.chain.then(fn).catch((err) => {
      log.warn(
        { err: describe(err), deviceId: session.deviceId, event: what },
        'wechaty: event handling failed',
      );
    });
  }

  /** Stops the puppet and gives its token back; once per session, whoever asks first. */
  async function endSession(session: Session) {
    if (session.ended) return;
    session.ended = true;
    session.stopping = true;
    if (session.ding) clearInterval(session.ding);
    session.firstQr?.reject(new AppError('SERVICE_BUSY', '消息通道已停止'));
    session.firstQr = null;
    if (byDevice.get(session.deviceId) === session) byDevice.delete(session.deviceId);
    if (session.account && byAccount.get(session.account.accountId) === session)
      byAccount.delete(session.account.accountId);
    try {
      await session.puppet.stop();
    } catch (err) {
      log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: puppet stop failed');
    }
    session.puppet.removeAllListeners();
    if (session.token !== undefined) freeTokens.push(session.token);
    session.token = undefined;
  }

  async function profileOf(puppet: Puppet, contactId: string) {
    const p = await puppet.contactPayload(contactId);
    return {
      wxid: p.id,
      nickname: p.name,
      avatar: p.avatar ?? '',
      alias: p.alias ?? p.handle ?? p.weixin ?? '',
    };
  }

  function listen(session: Session) {
    const { puppet } = session;
    puppet.on('error', (e: payloads.EventError) => {
      log.warn({ deviceId: session.deviceId, error: e?.data ?? e?.gerror }, 'wechaty: puppet error');
    });
    puppet.on('scan', (e: payloads.EventScan) =>
      handle(session, 'scan', async () => {
        if (e.status === ScanStatus.Waiting && e.qrcode) {
          const previous = session.qr;
          session.qr = e.qrcode;
          session.scanned = false;
          if (session.firstQr) {
            session.firstQr.resolve(e.qrcode);
            session.firstQr = null;
          } else if (previous !== e.qrcode && session.loginId) {
            // The network replaced its QR code: the one on the customer's screen is dead, and the
            // customer's next getQrCode starts afresh (loginEnded ends this puppet).
            await emit().expired(session.loginId);
          }
          return;
        }
        const loginId = session.loginId;
        if (!loginId) return;
        if (e.status === ScanStatus.Scanned && !session.scanned) {
          session.scanned = true;
          await emit().scanned(loginId, { nickname: '', avatar: '' });
        } else if (e.status === ScanStatus.Cancel) {
          await emit().cancelled(loginId);
        } else if (e.status === ScanStatus.Timeout) {
          await emit().expired(loginId);
        }
      }),
    );
    puppet.on('login', (e: payloads.EventLogin) =>
      handle(session, 'login', async () => {
        const loginId = session.loginId;
        if (!loginId) {
          // Logged in without a QR code we show (a puppet resuming on its own): nobody asked for it.
          log.warn({ deviceId: session.deviceId }, 'wechaty: login without a pending QR code; logging out');
          await endSession(session);
          return;
        }
        session.loginId = null;
        session.qr = null;
        const profile = await profileOf(puppet, e.contactId);
        try {
          // Some networks never report the scan on its own.
          if (!session.scanned)
            await emit().scanned(loginId, { nickname: profile.nickname, avatar: profile.avatar });
          session.scanned = true;
          await emit().confirmed(loginId, profile);
        } catch (err) {
          // Refused (quota, package, the QR code expired meanwhile): the network session ends too.
          log.info(
            { deviceId: session.deviceId, reason: describe(err) },
            'wechaty: login refused; logging out',
          );
          if (!session.ended) await puppet.logout('login refused').catch(() => undefined);
          await endSession(session);
        }
      }),
    );
    puppet.on('logout', (e: payloads.EventLogout) =>
      handle(session, 'logout', async () => {
        if (session.stopping) return;
        const account = session.account;
        if (!account) return endSession(session);
        await emit().loggedOut(account, e.data?.trim() ? `微信已退出：${e.data}` : '微信已退出登录');
        await endSession(session);
      }),
    );
    puppet.on('message', (e: payloads.EventMessage) =>
      handle(session, 'message', async () => {
        const account = session.account;
        if (!account) return;
        const m = await puppet.messagePayload(e.messageId);
        // What the account itself sent (here or on its phone) is not a message to it.
        if (m.talkerId === puppet.currentUserId) return;
        await emit().message(account, await incoming(account, puppet, m));
      }),
    );
    const changed = (ids: (string | undefined)[]) => {
      const account = session.account;
      if (!account) return Promise.resolve();
      return emit().contactChanged(account, [...new Set(ids.filter((id): id is string => !!id))]);
    };
    puppet.on('friendship', (e: payloads.EventFriendship) =>
      handle(session, 'friendship', () => changed([e.friendshipId])),
    );
    puppet.on('room-join', (e: payloads.EventRoomJoin) =>
      handle(session, 'room-join', () => changed([e.roomId, ...e.inviteeIdList])),
    );
    puppet.on('room-leave', (e: payloads.EventRoomLeave) =>
      handle(session, 'room-leave', () => changed([e.roomId, ...e.removeeIdList])),
    );
    puppet.on('room-topic', (e: payloads.EventRoomTopic) =>
      handle(session, 'room-topic', () => changed([e.roomId])),
    );
  }

  /** Keeps a received file as stored media; null when it is too big or cannot be fetched. */
  async function saveMedia(account: AccountRef, box: FileBoxInterface, fallbackName: string) {
    if (box.size > MAX_MEDIA_BYTES) return null;
    const data = await box.toBuffer();
    if (data.length > MAX_MEDIA_BYTES) return null;
    const fileName = box.name || fallbackName;
    const stored = await files.save('media', {
      companyId: account.companyId,
      origin: 'received',
      data,
      fileName,
      ...(box.mediaType && box.mediaType !== 'application/octet-stream' ? { mime: box.mediaType } : {}),
    });
    return { mediaId: stored.id, mime: stored.mime, size: stored.size, fileName };
  }

  /** A puppet's message as the gateway stores it (raw types: 1 text, 3 image, 49/6 file, …). */
  async function incoming(
    account: AccountRef,
    puppet: Puppet,
    m: payloads.Message,
  ): Promise<IncomingMessage> {
    const peer = m.roomId || m.talkerId;
    const base = { peer, sender: m.talkerId, appType: null, media: null };
    const withFile = async (type: number, appType: number | null, label: string, fallbackName: string) => {
      try {
        const media = await saveMedia(account, await puppet.messageFile(m.id), fallbackName);
        if (!media) return { ...base, type: 1, content: `${label}（文件过大，未保存）` };
        return { ...base, type, appType, content: appType === 6 ? media.fileName : label, media };
      } catch (err) {
        log.warn({ err: describe(err), messageId: m.id }, 'wechaty: could not fetch a received file');
        return { ...base, type: 1, content: `${label}（未能获取）` };
      }
    };
    switch (m.type) {
      case PuppetMessageType.Text:
        return { ...base, type: 1, content: m.text ?? '' };
      case PuppetMessageType.Image:
        return withFile(3, null, '[图片]', 'image.jpg');
      case PuppetMessageType.Video:
        return withFile(43, null, '[视频]', 'video.mp4');
      case PuppetMessageType.Audio:
        return withFile(34, null, '[语音]', 'voice.sil');
      case PuppetMessageType.Emoticon:
        return withFile(47, null, '[表情]', 'emoticon.gif');
      case PuppetMessageType.Attachment:
        return withFile(49, 6, '[文件]', m.filename || 'file');
      case PuppetMessageType.Url: {
        const link = await puppet.messageUrl(m.id);
        return {
          ...base,
          type: 49,
          appType: 5,
          content: link.title,
          media: {
            title: link.title,
            description: link.description ?? '',
            url: link.url,
            ...(link.thumbnailUrl ? { thumbUrl: link.thumbnailUrl } : {}),
          },
        };
      }
      case PuppetMessageType.MiniProgram: {
        const app = await puppet.messageMiniProgram(m.id);
        return {
          ...base,
          type: 49,
          appType: 33,
          content: app.title ?? '[小程序]',
          media: {
            appId: app.appid ?? '',
            username: app.username ?? '',
            title: app.title ?? '',
            coverUrl: app.thumbUrl ?? '',
            pagePath: app.pagePath ?? '',
            displayName: app.description ?? '',
          },
        };
      }
      case PuppetMessageType.Contact:
        return { ...base, type: 42, content: '[名片]' };
      case PuppetMessageType.Location:
        return { ...base, type: 48, content: m.text || '[位置]' };
      case PuppetMessageType.Recalled:
        return { ...base, type: 10002, content: m.text || '[撤回了一条消息]' };
      default:
        return { ...base, type: 1, content: '[暂不支持的消息类型]' };
    }
  }

  function sessionOf(account: AccountRef) {
    const session = byAccount.get(account.accountId);
    if (!session?.puppet.isLoggedIn) throw new AppError('ACCOUNT_OFFLINE');
    return session;
  }

  /** A URL's last path segment as a file name (FileBox names the file after it). */
  const nameFromUrl = (url: string, fallback: string) => {
    try {
      const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
      return last.includes('.') ? last : fallback;
    } catch {
      return fallback;
    }
  };

  async function sendOne(puppet: Puppet, message: OutgoingMessage): Promise<SendOutcome> {
    const media = message.media ?? {};
    const str = (key: string) => (media[key] === undefined ? '' : String(media[key]));
    // Media is fetched by the network from its URL (the customer's), never through this service.
    const file = (name: string) => FileBox.fromUrl(str('url'), { name });
    switch (message.type) {
      case 1: {
        const at = str('at');
        await puppet.messageSendText(message.peer, message.content, at ? at.split(',') : undefined);
        return { ok: true };
      }
      case 3:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'image.jpg')));
        return { ok: true };
      case 43:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'video.mp4')));
        return { ok: true };
      case 34:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'voice.sil')));
        return { ok: true };
      case 47:
        // The puppet API sends files, not emoticons by md5.
        return { ok: false, error: '当前消息通道不支持发送表情' };
      case 49:
        if (message.appType === 6) {
          await puppet.messageSendFile(
            message.peer,
            file(str('fileName') || nameFromUrl(str('url'), 'file')),
          );
          return { ok: true };
        }
        if (message.appType === 5) {
          await puppet.messageSendUrl(message.peer, {
            title: str('title'),
            url: str('url'),
            description: str('description'),
            ...(str('thumbUrl') ? { thumbnailUrl: str('thumbUrl') } : {}),
          });
          return { ok: true };
        }
        if (message.appType === 33) {
          await puppet.messageSendMiniProgram(message.peer, {
            appid: str('appId'),
            username: str('username'),
            title: str('title'),
            pagePath: str('pagePath'),
            thumbUrl: str('coverUrl'),
            description: str('displayName'),
          });
          return { ok: true };
        }
        return { ok: false, error: UNSUPPORTED };
      default:
        return { ok: false, error: UNSUPPORTED };
    }
  }

  async function startPuppet(deviceId: string, loginId: string): Promise<string> {
    if (opts.tokens.length > 0 && freeTokens.length === 0) {
      throw new AppError('SERVICE_BUSY', '消息通道的登录名额已用完，请稍后再试或联系客服增加名额');
    }
    const token = opts.tokens.length > 0 ? freeTokens.shift() : undefined;
    let puppet: Puppet;
    try {
      puppet = opts.createPuppet({ deviceId, token });
    } catch (err) {
      if (token !== undefined) freeTokens.push(token);
      throw err;
    }
    const session: Session = {
      deviceId,
      puppet,
      token,
      loginId,
      qr: null,
      scanned: false,
      account: null,
      stopping: false,
      ended: false,
      chain: Promise.resolve(),
      firstQr: null,
      ding: null,
    };
    byDevice.set(deviceId, session);
    const firstQr = new Promise<string>((resolve, reject) => {
      session.firstQr = { resolve, reject };
    });
    listen(session);
    let timer: NodeJS.Timeout | undefined;
    try {
      await puppet.start();
      return await Promise.race([
        firstQr,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new AppError('SERVICE_BUSY', '消息通道未能及时给出二维码，请稍后再试')),
            startTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      await endSession(session);
      if (err instanceof AppError) throw err;
      log.warn({ err: describe(err), deviceId }, 'wechaty: puppet did not start');
      throw new AppError('SERVICE_BUSY', '消息通道暂时不可用，请稍后再试');
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    name: 'wechaty',

    attach(e) {
      events = e;
    },

    async startLogin({ loginId, deviceId }) {
      const running = byDevice.get(deviceId);
      if (running && !running.puppet.isLoggedIn && running.qr) {
        // The device's puppet still waits for a scan: the new QR login takes it over.
        running.loginId = loginId;
        running.scanned = false;
        return { qrContent: running.qr };
      }
      if (running) await endSession(running);
      return { qrContent: await startPuppet(deviceId, loginId) };
    },

    loginEnded(loginId) {
      for (const session of byDevice.values()) {
        // Only a puppet still waiting on that very login: one logged in, or handed to a newer
        // login on the same device, lives on.
        if (session.loginId === loginId && !session.account) void endSession(session);
      }
    },

    async accountOnline(account) {
      const session = byDevice.get(account.deviceId);
      if (!session) throw new Error(`wechaty: no puppet for device ${account.deviceId}`);
      const before = byAccount.get(account.accountId);
      if (before && before !== session) await endSession(before);
      session.account = account;
      byAccount.set(account.accountId, session);
      if (dingIntervalMs > 0 && !session.ding) {
        session.ding = setInterval(() => {
          try {
            session.puppet.ding('keepalive');
          } catch {
            // not connected right now; the puppet's own error event says why
          }
        }, dingIntervalMs);
        session.ding.unref();
      }
    },

    async logout(account) {
      const session = byAccount.get(account.accountId);
      if (!session) return;
      session.stopping = true;
      if (session.puppet.isLoggedIn) {
        await session.puppet.logout('主动退出登录').catch((err) => {
          log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: puppet logout failed');
        });
      }
      await endSession(session);
    },

    async syncAddressList(account) {
      const { puppet } = sessionOf(account);
      const self = puppet.currentUserId;
      const friends: string[] = [];
      const ghs: string[] = [];
      for (const p of await contactPayloads(puppet, await puppet.contactList())) {
        if (p.id === self || p.friend === false) continue;
        if (p.type === ContactType.Official) ghs.push(p.id);
        else if (p.type === ContactType.Individual || p.type === ContactType.Corporation) friends.push(p.id);
      }
      return { friends, chatrooms: await puppet.roomList(), ghs };
    },

    async listContacts(account) {
      const { puppet } = sessionOf(account);
      const self = puppet.currentUserId;
      const people = (await contactPayloads(puppet, await puppet.contactList()))
        .filter((p) => p.id !== self && p.friend !== false)
        .map(toContact);
      const rooms = await roomPayloads(puppet, await puppet.roomList());
      return [...people, ...rooms.map(roomToContact)];
    },

    async getContacts(account, ids) {
      const { puppet } = sessionOf(account);
      const found = await Promise.all(
        ids.map(async (id) => {
          try {
            return isRoomId(id)
              ? roomToContact(await puppet.roomPayload(id))
              : toContact(await puppet.contactPayload(id));
          } catch {
            return null;
          }
        }),
      );
      return found.filter((c): c is Contact => c !== null);
    },

    async hasContact(account, peer) {
      const { puppet } = sessionOf(account);
      try {
        if (isRoomId(peer)) await puppet.roomPayload(peer);
        else await puppet.contactPayload(peer);
        return true;
      } catch {
        return false;
      }
    },

    async getRoom(account, roomId): Promise<RoomInfo | null> {
      const { puppet } = sessionOf(account);
      let room: payloads.Room;
      try {
        room = await puppet.roomPayload(roomId);
      } catch {
        return null;
      }
      const members = await mapLimit(room.memberIdList, 8, async (id) => {
        const m = await puppet.roomMemberPayload(roomId, id).catch(() => null);
        return {
          wxid: id,
          nickname: m?.name ?? '',
          displayName: m?.roomAlias ?? '',
          inviter: m?.inviterId ?? '',
          avatar: m?.avatar ?? '',
        };
      });
      return { roomId, name: room.topic, owner: room.ownerId ?? '', avatar: room.avatar ?? '', members };
    },

    async send(account, message) {
      const session = byAccount.get(account.accountId);
      if (!session?.puppet.isLoggedIn) return { ok: false, error: '账号已下线，消息未发送' };
      try {
        return await sendOne(session.puppet, message);
      } catch (err) {
        const text = describe(err);
        if (/unsupported|unimplemented/i.test(text)) return { ok: false, error: UNSUPPORTED };
        log.warn({ err: text, msgId: message.msgId }, 'wechaty: send failed');
        return { ok: false, error: '消息通道发送失败，请稍后重试' };
      }
    },

    proxies: () => [{ code: 'default', name: '默认线路', region: '消息通道' }],

    async stop() {
      await Promise.all([...byDevice.values()].map((s) => endSession(s)));
    },
  };
}

/** Puppets' room ids end with @chatroom (wechaty's convention; the mock follows it). */
const isRoomId = (id: string) => id.endsWith('@chatroom');

function toContact(p: payloads.Contact): Contact {
  return {
    wxid: p.id,
    nickname: p.name,
    remark: '',
    alias: p.alias ?? '',
    avatar: p.avatar ?? '',
    sex: p.gender ?? 0,
    signature: p.signature ?? '',
    country: '',
    province: p.province ?? '',
    city: p.city ?? '',
    kind: p.type === ContactType.Official ? 'gh' : 'friend',
  };
}

function roomToContact(r: payloads.Room): Contact {
  return {
    wxid: r.id,
    nickname: r.topic,
    remark: '',
    alias: '',
    avatar: r.avatar ?? '',
    sex: 0,
    signature: '',
    country: '',
    province: '',
    city: '',
    kind: 'chatroom',
  };
}

/** Payloads of many contacts, a few at a time (a hosted puppet answers each over the network). */
async function contactPayloads(puppet: Puppet, ids: string[]) {
  const found = await mapLimit(ids, 8, (id) => puppet.contactPayload(id).catch(() => null));
  return found.filter((p): p is payloads.Contact => p !== null);
}

async function roomPayloads(puppet: Puppet, ids: string[]) {
  const found = await mapLimit(ids, 8, (id) => puppet.roomPayload(id).catch(() => null));
  return found.filter((p): p is payloads.Room => p !== null);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** An error as one line for the log; puppets throw strings, Errors and gRPC statuses alike. */
function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
