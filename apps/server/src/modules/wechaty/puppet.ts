import type { FastifyBaseLogger } from 'fastify';
import type { FileBox, FileBoxInterface } from 'file-box';
import type { payloads } from 'wechaty-puppet';
import { ConfigError } from '../../config.js';

/**
 * The part of a wechaty puppet (wechaty-puppet's PuppetInterface) the provider uses. Every puppet
 * module implements it (wechaty-puppet-service for hosted networks, wechaty-puppet-mock in tests);
 * naming only what we call keeps the provider readable and lets a test hand in any puppet.
 */
export interface Puppet {
  start(): Promise<void>;
  stop(): Promise<void>;
  logout(reason?: string): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: puppet events carry one payload object each (see PuppetEvent)
  on(event: string, listener: (payload: any) => void): unknown;
  removeAllListeners(event?: string): unknown;
  readonly isLoggedIn: boolean;
  readonly currentUserId: string;
  /** Asks the network for a `dong` (a sign of life; puppet-service's watchdog feeds on it). */
  ding(data?: string): void;
  contactList(): Promise<string[]>;
  contactPayload(id: string): Promise<payloads.Contact>;
  roomList(): Promise<string[]>;
  roomPayload(id: string): Promise<payloads.Room>;
  roomMemberPayload(roomId: string, memberId: string): Promise<payloads.RoomMember>;
  messagePayload(id: string): Promise<payloads.Message>;
  friendshipPayload(id: string): Promise<payloads.Friendship>;
  messageFile(id: string): Promise<FileBoxInterface>;
  messageUrl(id: string): Promise<payloads.UrlLink>;
  messageMiniProgram(id: string): Promise<payloads.MiniProgram>;
  messageSendText(conversationId: string, text: string, mentionIdList?: string[]): Promise<unknown>;
  messageSendFile(conversationId: string, file: FileBoxInterface): Promise<unknown>;
  messageSendUrl(conversationId: string, link: payloads.UrlLink): Promise<unknown>;
  messageSendMiniProgram(conversationId: string, app: payloads.MiniProgram): Promise<unknown>;
}

/**
 * Stops a puppet here without stopping the network's side of it, so the account's session lives on
 * for the next connection with the same token (another process taking the device over, or this
 * service after a restart). wechaty-puppet-service's stop() would also ask the puppet server to stop
 * its puppet (a StopRequest), which ends the session on networks that do not log back in by
 * themselves: its gRPC client (internals of the pinned 1.19.x: `_grpcManager`, tested by
 * wechaty-processes.test.ts) is told to skip that one call. A puppet with no server side stops as usual.
 */
export async function detach(puppet: Puppet): Promise<void> {
  type Callback = (err: Error | null, response?: unknown) => void;
  const manager = (
    puppet as {
      _grpcManager?: {
        _client?: { stop?: (req: unknown, cb: Callback) => void };
        eventStream?: { cancel?: () => void };
      };
    }
  )._grpcManager;
  const client = manager?._client;
  if (client && typeof client.stop === 'function') client.stop = (_req, cb) => cb(null);
  // The server serves one event stream per puppet: cancelled on the wire now (its own stop() only
  // destroys it here, and the server would refuse the next connection's stream until it noticed).
  manager?.eventStream?.cancel?.();
  await puppet.stop();
}

/** Makes the puppet for one device; `token` is the network credential it holds (one account each). */
export type PuppetFactory = (slot: { deviceId: string; token: string | undefined }) => Puppet;

/** The FileBox class (file-box), loaded with the provider rather than at every start. */
export type FileBoxClass = typeof FileBox;

// Protocol values of wechaty-puppet's enums, written out so that this module and its callers load no
// puppet code unless the wechaty provider is chosen (the enums are runtime objects).
export const ScanStatus = {
  Unknown: 0,
  Cancel: 1,
  Waiting: 2,
  Scanned: 3,
  Confirmed: 4,
  Timeout: 5,
} as const;
export const PuppetMessageType = {
  Unknown: 0,
  Attachment: 1,
  Audio: 2,
  Contact: 3,
  Emoticon: 5,
  Image: 6,
  Text: 7,
  Location: 8,
  MiniProgram: 9,
  Recalled: 13,
  Url: 14,
  Video: 15,
} as const;
export const ContactType = { Unknown: 0, Individual: 1, Official: 2, Corporation: 3 } as const;

/** What a puppet module's settings are (config.ts `wechaty`). */
export interface PuppetSettings {
  /** The npm module that exports the puppet class (default export or `PuppetXxx`). */
  module: string;
  endpoint: string | undefined;
  /** Network credentials; each logged-in account holds one. Empty: the module needs none. */
  tokens: string[];
  tls: { enabled: boolean; caCert: string | undefined; serverName: string | undefined };
}

/** A puppet module that is not installed, or exports no puppet: said at start, with the fix. */
export class PuppetModuleError extends ConfigError {}

/**
 * Loads the configured puppet module and file-box, and returns the factory that makes one puppet per
 * device. Called once at start when MESSAGING_PROVIDER=wechaty.
 */
export async function loadPuppetModule(settings: PuppetSettings): Promise<{
  createPuppet: PuppetFactory;
  FileBox: FileBoxClass;
  /** Sends the puppets' own log lines (warnings and errors) to the service's logger. */
  forwardLogs(log: FastifyBaseLogger): void;
}> {
  // biome-ignore lint/suspicious/noExplicitAny: a puppet module is whatever the operator installed
  let mod: any;
  try {
    mod = await import(settings.module);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new PuppetModuleError(
        `WECHATY_PUPPET=${settings.module}: the module is not installed; run \`npm install ${settings.module}\` in apps/server`,
      );
    }
    throw err;
  }
  const Ctor =
    typeof mod.default === 'function'
      ? mod.default
      : Object.entries(mod).find(([name, v]) => /^Puppet[A-Z]/.test(name) && typeof v === 'function')?.[1];
  if (typeof Ctor !== 'function') {
    throw new PuppetModuleError(`WECHATY_PUPPET=${settings.module}: the module exports no puppet class`);
  }
  const { FileBox } = await import('file-box');
  // brolog (the puppets' logger) prints text to the console and, at verbose, options with the token:
  // warnings and errors only, as JSON lines of our logger.
  const { log: brolog } = await import('wechaty-puppet');
  brolog.level('warn');
  const forwardLogs = (log: FastifyBaseLogger) => {
    brolog.enableLogging((title: string, text?: string) => {
      if (title === 'ERR') log.error({ source: 'wechaty' }, text ?? '');
      else log.warn({ source: 'wechaty' }, text ?? '');
    });
  };
  const isService = settings.module === 'wechaty-puppet-service';
  const createPuppet: PuppetFactory = ({ token }) =>
    new Ctor({
      ...(token ? { token } : {}),
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(isService
        ? {
            tls: {
              ...(settings.tls.enabled ? {} : { disable: true }),
              ...(settings.tls.caCert ? { caCert: settings.tls.caCert } : {}),
              ...(settings.tls.serverName ? { serverName: settings.tls.serverName } : {}),
            },
          }
        : {}),
    });
  return { createPuppet, FileBox, forwardLogs };
}

/** An error as one line for the log; puppets throw strings, Errors and gRPC statuses alike. */
export function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
