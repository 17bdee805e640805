import { type LiveEvent, liveEventSchema } from '@wxc/contract/calls/events';

/**
 * A Server-Sent Events parser for streams read with fetch (the console authorises `/api/events` by
 * its `Authorization` header, which EventSource cannot send). Feed it decoded text as it arrives;
 * it returns the events completed by that text. Follows the HTML spec's rules: lines end with LF,
 * CR or CRLF; `data` lines join with LF; comments (`:`) are skipped; a blank line dispatches.
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  feed(text: string): SseEvent[];
  /** The last `retry:` the server asked for, in ms (undefined when none). */
  retryMs(): number | undefined;
}

export function createSseParser(): SseParser {
  let buffer = '';
  let pendingCr = false;
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;

  function line(text: string, out: SseEvent[]) {
    if (text === '') {
      if (data.length > 0) {
        out.push({
          event: eventName || 'message',
          data: data.join('\n'),
          ...(id !== undefined ? { id } : {}),
        });
      }
      eventName = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventName = value;
        break;
      case 'data':
        data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
        break;
    }
  }

  return {
    feed(text) {
      const out: SseEvent[] = [];
      let chunk = text;
      // A CR at the end of the previous chunk may be the first half of a CRLF.
      if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c === '\n' || c === '\r') {
          line(buffer.slice(start, i), out);
          if (c === '\r') {
            if (i + 1 < buffer.length) {
              if (buffer[i + 1] === '\n') i++;
            } else {
              pendingCr = true;
            }
          }
          start = i + 1;
        }
      }
      buffer = buffer.slice(start);
      return out;
    },
    retryMs: () => retry,
  };
}

export type { LiveEvent };

/**
 * Turns a parsed SSE event into a typed live event, checked with the contract's schema (the event
 * name is its kind); unknown or malformed events give null.
 */
export function toLiveEvent(e: SseEvent): LiveEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const parsed = liveEventSchema.safeParse({ ...data, kind: e.event });
  return parsed.success ? parsed.data : null;
}

/** Reconnect delay: doubling from `baseMs` up to `maxMs`, with up to 20 % jitter (random in [0,1)). */
export function backoffMs(attempt: number, baseMs = 1000, maxMs = 30_000, random = Math.random()): number {
  const plain = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(plain * (1 + 0.2 * random));
}
