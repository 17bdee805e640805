import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountRef, MessagingProvider } from '../messaging/provider.js';
import * as repo from './repo.js';
import { callPeer, PeerUnreachable, type RouteServer, startRouteServer } from './routing.js';
import { createSessions, HeldElsewhere, type WechatyProviderOptions } from './sessions.js';

export { LEASE_MS } from './sessions.js';

export interface WechatyRouting {
  /** Where this process's route server listens (WECHATY_ROUTE_HOST / _PORT; 0: a free port). */
  host: string;
  port: number;
}

/** A routed call waits this long for the other process (a QR code takes up to startTimeoutMs). */
const ROUTE_TIMEOUT_MS = 75_000;
/** A device claimed by another process a moment ago may not be published yet: looked up again. */
const OWNER_LOOKUPS = 3;

/**
 * MESSAGING_PROVIDER=wechaty, in one process or several. Each device's puppet runs in the process
 * holding its lease (sessions.ts); every call about a device is answered there: here when this
 * process runs it (or nobody does, for a QR login: then it starts here), else routed to the holder
 * over routing.ts. A holder that cannot be reached is stopping or dead: the call answers "switching,
 * try again" and the holder's lease lapses, so the device is taken over (sessions.ts `tick`).
 */
export function createWechatyProvider(
  opts: WechatyProviderOptions & { routing?: WechatyRouting },
): MessagingProvider {
  const { db, log } = opts;
  const self: repo.ProcessInfo = {
    id: randomUUID(),
    address: '',
    routeKey: randomBytes(32).toString('base64url'),
    pid: process.pid,
  };
  const local = createSessions({ ...opts, owner: self.id });
  const routing = opts.routing ?? { host: '127.0.0.1', port: 0 };
  let server: RouteServer | undefined;

  /** Calls another process may route here, each to this process's own sessions. */
  const routable: Record<string, (...args: never[]) => unknown> = {
    startLogin: local.startLogin,
    loginEnded: local.loginEnded,
    accountOnline: local.accountOnline,
    logout: local.logout,
    syncAddressList: local.syncAddressList,
    listContacts: local.listContacts,
    getContacts: local.getContacts,
    hasContact: local.hasContact,
    getRoom: local.getRoom,
    send: local.send,
  };

  /** The process that answers for the device: null for this one. */
  async function holderOf(deviceId: string): Promise<repo.Peer | null> {
    if (local.runs(deviceId)) return null;
    const holder = await repo.deviceOwner(db, deviceId, Date.now());
    return holder && holder.id !== self.id ? holder : null;
  }

  /** Runs `method` where the device's puppet is: here, or in the process holding it. */
  async function onDevice<T>(
    deviceId: string,
    method: keyof typeof routable,
    args: unknown[],
    here: () => Promise<T>,
  ) {
    const holder = await holderOf(deviceId);
    if (!holder) return here();
    return (await callPeer(holder, method, args, ROUTE_TIMEOUT_MS)) as T;
  }

  const onAccount = <T>(
    account: AccountRef,
    method: keyof typeof routable,
    args: unknown[],
    here: () => Promise<T>,
  ) => onDevice(account.deviceId, method, [account, ...args], here);

  return {
    name: 'wechaty',
    attach: (events) => local.attach(events),

    async start(onlineAccounts) {
      server = await startRouteServer({
        host: routing.host,
        port: routing.port,
        routeKey: self.routeKey,
        log,
        handle: async (method, args) => {
          const fn = Object.hasOwn(routable, method) ? routable[method] : undefined;
          if (!fn) throw new Error(`wechaty: no routed call ${method}`);
          return (fn as (...a: unknown[]) => unknown)(...args);
        },
      });
      self.address = server.address;
      await repo.registerProcess(db, self, Date.now());
      log.info({ process: self.id, address: self.address }, 'wechaty: route server listening');
      local.startLeases(self);
      local.resume(onlineAccounts);
    },

    async startLogin(req) {
      // Nobody runs the device: it starts here, unless another process claims it first (then there).
      for (let attempt = 1; ; attempt++) {
        const holder = await holderOf(req.deviceId);
        if (holder)
          return (await callPeer(holder, 'startLogin', [req], ROUTE_TIMEOUT_MS)) as { qrContent: string };
        try {
          return await local.startLogin(req);
        } catch (err) {
          if (!(err instanceof HeldElsewhere) || attempt >= OWNER_LOOKUPS) throw unreachableIfHeld(err);
        }
      }
    },

    loginEnded(loginId, deviceId) {
      void onDevice(deviceId, 'loginEnded', [loginId], async () => local.loginEnded(loginId)).catch((err) =>
        log.warn({ err, deviceId }, 'wechaty: an ended QR login could not reach its puppet'),
      );
    },

    accountOnline: (account) => onAccount(account, 'accountOnline', [], () => local.accountOnline(account)),
    logout: (account) => onAccount(account, 'logout', [], () => local.logout(account)),
    syncAddressList: (account) =>
      onAccount(account, 'syncAddressList', [], () => local.syncAddressList(account)),
    listContacts: (account) => onAccount(account, 'listContacts', [], () => local.listContacts(account)),
    getContacts: (account, ids) =>
      onAccount(account, 'getContacts', [ids], () => local.getContacts(account, ids)),
    hasContact: (account, peer) =>
      onAccount(account, 'hasContact', [peer], () => local.hasContact(account, peer)),
    getRoom: (account, roomId) =>
      onAccount(account, 'getRoom', [roomId], () => local.getRoom(account, roomId)),

    async send(account, message) {
      try {
        return await onAccount(account, 'send', [message], () => local.send(account, message));
      } catch (err) {
        if (!(err instanceof PeerUnreachable)) throw err;
        log.warn(
          { err: err.reason, msgId: message.msgId },
          'wechaty: the process running the account is unreachable',
        );
        return { ok: false, error: err.message };
      }
    },

    proxies: () => local.proxies(),

    async stop() {
      await local.stop();
      await server?.close();
      await repo
        .unregisterProcess(db, self.id)
        .catch((err) => log.warn({ err }, 'wechaty: process not unregistered'));
    },
  };
}

/** A device another process claimed but did not publish in time: answered as a busy channel. */
function unreachableIfHeld(err: unknown) {
  return err instanceof HeldElsewhere ? new PeerUnreachable(err) : err;
}
