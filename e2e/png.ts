/** Real PNG images for upload tests, made here (no fixtures on disk). */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGB PNG of `width`×`height` whose pixel colour is `paint(x, y)`. */
export function png(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number],
): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) row.set(paint(x, y), 1 + x * 3);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Something that looks like a QR code: finder squares and a pseudo-random module grid. */
export function qrLikePng(size = 210): Buffer {
  const cell = Math.floor(size / 21);
  const finder = (cx: number, cy: number) => {
    for (const [fx, fy] of [
      [0, 0],
      [14, 0],
      [0, 14],
    ] as const) {
      const x = cx - fx;
      const y = cy - fy;
      if (x >= 0 && x < 7 && y >= 0 && y < 7) {
        const ring = Math.max(Math.abs(x - 3), Math.abs(y - 3));
        return ring !== 2;
      }
    }
    return null;
  };
  return png(size, size, (px, py) => {
    const cx = Math.floor(px / cell);
    const cy = Math.floor(py / cell);
    if (cx > 20 || cy > 20) return [255, 255, 255];
    const f = finder(cx, cy);
    const dark = f ?? (cx * 7 + cy * 13 + cx * cy) % 5 < 2;
    return dark ? [17, 17, 17] : [255, 255, 255];
  });
}

/** A scanned-document look: a coloured band over ruled lines of uneven length. */
export function documentPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  return png(width, height, (x, y) => {
    if (y < height * 0.22) return rgb;
    const end = width * (0.5 + ((y * 7) % 40) / 100);
    if (y % 14 < 3 && x > width * 0.1 && x < end) return [150, 150, 150];
    return [250, 250, 246];
  });
}
