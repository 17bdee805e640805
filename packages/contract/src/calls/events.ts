import { z } from 'zod';
import { qrStateSchema } from './messaging.js';

/**
 * The live events of `GET /api/events` (server module `events`): Server-Sent Events of the caller's
 * company, thin on purpose (they name what changed; details are read with the calls). Each event is
 * written as `event: <kind>` with `data:` this object as JSON. The server publishes through this
 * schema and the console can validate with it.
 */
export const LIVE_EVENTS_PATH = '/api/events';

export const liveEventSchema = z.discriminatedUnion('kind', [
  /** A QR code changed state (checkQrCode answers the details). */
  z.object({ kind: z.literal('qr'), instanceId: z.string(), state: qrStateSchema }),
  /** A messaging account went online or offline. */
  z.object({ kind: z.literal('account'), wxid: z.string(), status: z.enum(['online', 'offline']) }),
  /** A message arrived or an outgoing one changed state. */
  z.object({
    kind: z.literal('message'),
    wxid: z.string(),
    msgId: z.string(),
    direction: z.enum(['in', 'out']),
    status: z.enum(['queued', 'sent', 'failed']),
  }),
  /** A callback delivery changed state. */
  z.object({
    kind: z.literal('callback'),
    eventId: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
  }),
  /** The company's real-name status changed (users.real_name_status). */
  z.object({ kind: z.literal('realname'), status: z.number().int() }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
export type LiveEventKind = LiveEvent['kind'];
