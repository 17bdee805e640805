/**
 * @deprecated The gateway's calls are in `calls/messaging.ts` (`messagingCalls`), named after its
 * server module; resetCallbackUrl moved to `calls/callbacks.ts`, getSourceUrl to `calls/files.ts`.
 * This file keeps the old names until the console switches.
 */

export { resetCallbackUrl } from './callbacks.js';
export { getSourceUrl } from './files.js';
export * from './messaging.js';
