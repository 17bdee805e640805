import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrSvg } from './qr-image.js';

/** Fixed inputs that look random (a failure can be run again as it was). */
const text = (seed: string, length: number) => {
  let out = '';
  for (let i = 0; out.length < length; i++)
    out += createHash('sha256').update(`${seed}:${i}`).digest('base64');
  return out.slice(0, length);
};
const hex = (seed: string) => createHash('sha256').update(seed).digest('hex').slice(0, 32);

/** The library's own image, its own search of the eight masks included. */
const librarySvg = (content: string) =>
  QRCode.toString([{ data: Buffer.from(content), mode: 'byte' }], {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
  });

describe('qrSvg', () => {
  it('draws the same symbol as the library, mask choice included, for login links', async () => {
    for (let i = 0; i < 300; i++) {
      const content = `http://127.0.0.1:3000/sim/scan/${hex(`login ${i}`)}`;
      expect(qrSvg(content)).toBe(await librarySvg(content));
    }
  });

  it('and across sizes (1 to 500 bytes: versions 1 to 21), every mask chosen at least once', async () => {
    const masks = new Set<number>();
    for (let length = 1; length <= 500; length += 3) {
      const content = text(`size ${length}`, length);
      expect(qrSvg(content)).toBe(await librarySvg(content));
      masks.add(
        QRCode.create([{ data: Buffer.from(content), mode: 'byte' }], { errorCorrectionLevel: 'M' })
          .maskPattern ?? -1,
      );
    }
    for (const content of [
      'https://console.test/sim/scan/登录',
      '中文二维码内容'.repeat(9),
      'a',
      '0'.repeat(300),
    ]) {
      expect(qrSvg(content)).toBe(await librarySvg(content));
    }
    // The inputs made the library choose every mask at least once: each mask's flips were compared.
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
