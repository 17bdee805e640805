import { describe, expect, it, vi } from 'vitest';
import { formFetch } from './upload';

describe('formFetch', () => {
  it('sends the form instead of the JSON body, without the JSON content type, keeping the rest', async () => {
    const base = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{}'));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await formFetch(form, base)('/api/tools/getSourceUrl', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'tok', Accept: 'application/json' },
      body: '{}',
    });
    const init = base.mock.calls[0]?.[1] as unknown as RequestInit;
    const headers = init.headers as Headers;
    expect(init.body).toBe(form);
    expect(headers.get('content-type')).toBeNull();
    expect(headers.get('authorization')).toBe('tok');
    expect(init.method).toBe('POST');
  });
});
