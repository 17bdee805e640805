import type { Contact } from '@wxc/contract';

/**
 * The one seam between the gateway and a messaging network (like wechaty's puppet). The gateway
 * owns the records (accounts, logins, messages, callbacks); a provider owns the network: QR login,
 * contacts, delivery. The built-in provider is the simulator; a real one plugs in here.
 */

/** A logged-in account as the provider sees it. */
export interface AccountRef {
  accountId: string;
  companyId: string;
  wxid: string;
  deviceId: string;
}

export interface LoginProfile {
  wxid: string;
  nickname: string;
  avatar: string;
  alias: string;
}

export interface RoomInfo {
  roomId: string;
  name: string;
  owner: string;
  avatar: string;
  members: { wxid: string; nickname: string; displayName: string; inviter: string; avatar: string }[];
}

/** A message for the network. `type`/`appType` follow the raw message types (1 text, 3 image, …). */
export interface OutgoingMessage {
  msgId: string;
  peer: string;
  type: number;
  appType: number | null;
  content: string;
  media: Record<string, string | number> | null;
}

/** A message from the network to a logged-in account. */
export interface IncomingMessage {
  peer: string;
  sender: string;
  type: number;
  appType: number | null;
  content: string;
  media: Record<string, string | number> | null;
}

export interface AddressList {
  friends: string[];
  chatrooms: string[];
  ghs: string[];
}

export interface ConfirmOptions {
  /**
   * Only a scanned login may be confirmed, not one waiting for its verification code (the phone's
   * confirm button; its verify button, and a network's confirmation, take either).
   */
  scannedOnly?: boolean;
}

/** What a provider reports; the gateway turns each into records, callbacks and live events. */
export interface ProviderEvents {
  scanned(loginId: string, scanner: { nickname: string; avatar: string }): Promise<void>;
  needVerify(loginId: string): Promise<void>;
  /** The login confirmed on the phone; refused (AppError) when it no longer waited for that. */
  confirmed(loginId: string, profile: LoginProfile, opts?: ConfirmOptions): Promise<void>;
  cancelled(loginId: string): Promise<void>;
  /** The network dropped the QR code (timed out or replaced): the customer asks for a new one. */
  expired(loginId: string): Promise<void>;
  loggedOut(account: AccountRef, reason: string): Promise<void>;
  /**
   * The network connection of a logged-in account broke; the provider is restoring it. The account
   * is offline meanwhile (sends refused, queued ones failed, a logout callback), its login still open.
   */
  connectionLost(account: AccountRef, reason: string): Promise<void>;
  /**
   * The connection is back with the same network session: the account is online again (a login
   * callback). False when that session ended meanwhile (logged out, or logged in on another device):
   * the provider then lets the connection go.
   */
  connectionRestored(account: AccountRef): Promise<boolean>;
  message(account: AccountRef, message: IncomingMessage): Promise<void>;
  contactChanged(account: AccountRef, ids: string[]): Promise<void>;
  /**
   * Not an event but a question: the accounts the records say are online now (a provider whose
   * sessions live in processes takes over those of a process that died).
   */
  onlineAccounts(): Promise<AccountRef[]>;
}

export type SendOutcome = { ok: true } | { ok: false; error: string };

export interface MessagingProvider {
  readonly name: string;
  attach(events: ProviderEvents): void;
  /** Starts a QR login; returns what the QR code encodes. */
  startLogin(req: { loginId: string; deviceId: string; proxy: string }): Promise<{ qrContent: string }>;
  /** A QR login ended without an account (expired, cancelled, refused): what waited on it can go. */
  loginEnded(loginId: string, deviceId: string): void;
  /**
   * Once, as the service starts, with the accounts the records say are online. A provider whose
   * sessions live outside this process reconnects them (or reports them lost), without waiting for
   * them; the simulator's live in the database already.
   */
  start(onlineAccounts: AccountRef[]): Promise<void>;
  /** Called once an account is online (a login confirmed), so the provider can set up its session. */
  accountOnline(account: AccountRef): Promise<void>;
  logout(account: AccountRef): Promise<void>;
  syncAddressList(account: AccountRef): Promise<AddressList>;
  listContacts(account: AccountRef): Promise<Contact[]>;
  getContacts(account: AccountRef, ids: string[]): Promise<Contact[]>;
  hasContact(account: AccountRef, peer: string): Promise<boolean>;
  getRoom(account: AccountRef, roomId: string): Promise<RoomInfo | null>;
  send(account: AccountRef, message: OutgoingMessage): Promise<SendOutcome>;
  proxies(): { code: string; name: string; region: string }[];
  stop(): Promise<void>;
}
