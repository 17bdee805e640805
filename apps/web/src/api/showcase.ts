import type { CallDef } from '@wxc/contract/call';
import {
  type ShowcaseCallDef,
  type ShowcaseFile,
  type ShowcaseRequest,
  type ShowcaseResponse,
  upload as showcaseUpload,
} from '@wxc/contract/calls/showcase';
import { OK_CODE } from '@wxc/contract/errors';
import { call } from './client';
import type { CallOptions } from './request';
import { type OnProgress, xhrFetch } from './upload';

/**
 * The showcase's client: `showcaseCall(def, input, params)` with a call of
 * `@wxc/contract/calls/showcase` (`/vue-element-admin/*`, the template's protocol).
 *
 * It is the console's own requester (api/client.ts) with one difference on the wire: the answer's
 * envelope is translated from the template's `{ code: 20000, data }` / `{ code: 50008, message }` to
 * the product's (`"200"`, `"50008"`) before the requester reads it. So a showcase call has everything
 * a product call has — the session's `Authorization`, the 50 s timeout, cancellation, the toast of a
 * failure, the answer checked against the contract — and the template's 50008 / 50012 / 50014 reach
 * the console's one "您已被登出" confirm (spec §8), exactly like the product's codes of the same numbers.
 */

const SHOWCASE_OK = 20000;

/** The template's envelope as the product's: the numeric code becomes text, 20000 becomes "200". */
export function toProductEnvelope(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('code' in body)) return body;
  const { code, ...rest } = body as { code: unknown };
  if (code === SHOWCASE_OK) return { ...rest, code: OK_CODE };
  return { ...rest, code: String(code) };
}

/** `/vue-element-admin/role/:key` with its parameters filled in (each one URL-encoded). */
export function fillPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`缺少路径参数 ${name}`);
    return encodeURIComponent(value);
  });
}

/** `base` (fetch by default), then the envelope translated; a DELETE sends its (empty) input in no body. */
const translated =
  (base: typeof fetch = (i, init) => fetch(i, init)): typeof fetch =>
  async (input, init) => {
    const sent = { ...init };
    if (sent.method === 'DELETE') {
      delete sent.body;
      const headers = { ...(sent.headers as Record<string, string>) };
      delete headers['Content-Type'];
      sent.headers = headers;
    }
    const response = await base(input, sent);
    const body: unknown = await response.json().catch(() => undefined);
    return new Response(body === undefined ? 'null' : JSON.stringify(toProductEnvelope(body)), {
      status: response.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };

export function showcaseCall<C extends ShowcaseCallDef>(
  def: C,
  input: ShowcaseRequest<C>,
  options: Omit<CallOptions, 'transport'> & { params?: Record<string, string>; via?: typeof fetch } = {},
): Promise<ShowcaseResponse<C>> {
  const { params, via, ...rest } = options;
  // The requester sends GET input as the query and anything else as a JSON body, as the showcase
  // routes read it (DELETE: the query, which is empty for the one DELETE there is).
  const product = { ...def, path: fillPath(def.path, params) } as unknown as CallDef;
  return call(product, input as never, { ...rest, transport: translated(via) }) as Promise<
    ShowcaseResponse<C>
  >;
}

/**
 * POST /vue-element-admin/upload with the file in the field `file` (image or PDF, ≤ 5 MB, checked
 * by the service from the bytes), reporting progress; answers the stored file and its signed link.
 */
export function uploadShowcaseFile(
  file: Blob,
  name: string,
  onProgress: OnProgress = () => {},
  options: Omit<CallOptions, 'transport'> = {},
): Promise<ShowcaseFile> {
  const form = new FormData();
  form.append('file', file, name);
  return showcaseCall(showcaseUpload, {}, { ...options, via: xhrFetch(form, onProgress) });
}
