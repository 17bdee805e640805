import { randomUUID } from 'node:crypto';
import type { TestApp } from './helpers.js';

/** Bytes that sniff as PNG / JPEG (the service checks the content, not the name). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('fake png body'),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('fake jpeg body')]);

export interface Part {
  field: string;
  fileName?: string;
  data: Buffer | string;
  type?: string;
}

/** A multipart/form-data body built by hand, so tests can send what no browser would. */
export function multipart(parts: Part[]) {
  const boundary = `----wxc${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      p.fileName === undefined
        ? `form-data; name="${p.field}"`
        : `form-data; name="${p.field}"; filename="${p.fileName}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${
          p.fileName === undefined ? '' : `Content-Type: ${p.type ?? 'image/png'}\r\n`
        }\r\n`,
      ),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(t: TestApp, url: string, token: string | undefined, parts: Part[]) {
  const { payload, contentType } = multipart(parts);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, ...(token ? { authorization: token } : {}) },
    payload,
  });
  const body = res.json();
  return {
    status: res.statusCode,
    code: body.code as string,
    message: body.message as string,
    data: body.data,
  };
}

export const bothImages = (social: Buffer = PNG, licence: Buffer = JPEG): Part[] => [
  { field: 'imgs', fileName: '社保记录.png', data: social },
  { field: 'imgs', fileName: '营业执照.jpg', data: licence, type: 'image/jpeg' },
];
