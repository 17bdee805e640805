import type { CallDef, CallResponse } from '@wxc/contract/call';
import { call } from '../../api/client';
import type { CallOptions } from '../../api/request';
import { type OnProgress, xhrFetch } from '../../api/upload';

export type { OnProgress } from '../../api/upload';

/** Posts `form` to a multipart call, through the console's request rules, reporting progress. */
export function uploadForm<C extends CallDef>(
  def: C,
  form: FormData,
  onProgress: OnProgress,
  options: CallOptions = {},
): Promise<CallResponse<C>> {
  // The console's one requester: one re-login dialog, toasts shown once, for uploads too.
  return call(def, {} as never, { ...options, transport: xhrFetch(form, onProgress) });
}
