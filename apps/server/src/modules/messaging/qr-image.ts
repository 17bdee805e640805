import QRCode from 'qrcode';
// The library's own parts (it has no exports map, so its files can be imported; the lockfile holds
// 1.5.4): its error correction levels, the format bits of a mask, and the SVG renderer
// `QRCode.toString` uses. An update that moves or changes them fails qr-image.test.ts, which checks
// every image against the library's own, byte for byte.
import ErrorCorrection from 'qrcode/lib/core/error-correction-level.js';
import FormatInfo from 'qrcode/lib/core/format-info.js';
import SvgTag from 'qrcode/lib/renderer/svg-tag.js';

/** Error correction M: a QR code on a screen, scanned by a phone. */
const LEVEL = 'M';
const MASKS = 8;

/** Whether mask `p` flips the module at (row i, column j) (ISO/IEC 18004, as qrcode's getMaskAt). */
function maskAt(p: number, i: number, j: number): boolean {
  switch (p) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

/** The format bits' cells, 15 in two places each, in bit order (qrcode's setupFormatInfo), as indexes. */
function formatCells(size: number): { vertical: number[]; horizontal: number[] } {
  const at = (row: number, col: number) => row * size + col;
  const vertical: number[] = [];
  const horizontal: number[] = [];
  for (let i = 0; i < 15; i++) {
    vertical.push(i < 6 ? at(i, 8) : i < 8 ? at(i + 1, 8) : at(size - 15 + i, 8));
    horizontal.push(i < 8 ? at(8, size - i - 1) : i < 9 ? at(8, 15 - i) : at(8, 15 - i - 1));
  }
  return { vertical, horizontal };
}

/**
 * Per symbol size (one per version): what turns a code made with mask 0 into the same code with
 * mask p (the data modules to flip), and where the format bits go.
 */
interface SizeTables {
  flips: Uint8Array[];
  format: { vertical: number[]; horizontal: number[] };
}
const tablesBySize = new Map<number, SizeTables>();

function tablesFor(size: number, reserved: Uint8Array): SizeTables {
  let tables = tablesBySize.get(size);
  if (!tables) {
    const flips = Array.from({ length: MASKS }, (_, p) => {
      const flip = new Uint8Array(size * size);
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const i = row * size + col;
          // Reserved modules (finder, timing, alignment, format and version info) are never masked.
          if (!reserved[i] && maskAt(0, row, col) !== maskAt(p, row, col)) flip[i] = 1;
        }
      }
      return flip;
    });
    tables = { flips, format: formatCells(size) };
    tablesBySize.set(size, tables);
  }
  return tables;
}

/** N2's test of a 2×2 block by its number of dark modules: all light or all dark. */
const SAME_BLOCK = Uint8Array.of(1, 0, 0, 0, 1);

/**
 * The penalty of a masked symbol, exactly as qrcode's getBestMask scores it (N1 runs of five or
 * more, N2 2×2 blocks, N3 finder-like 1:1:3:1:1 patterns, N4 the dark share), over plain indexes.
 */
function penalty(m: Uint8Array, size: number): number {
  let n1 = 0;
  let n2 = 0;
  let n3 = 0;
  let dark = 0;
  for (let a = 0; a < size; a++) {
    const row = a * size;
    // Runs of one colour along row a and down column a; a run of five or more ends: 3 + (length - 5).
    let lastRow = m[row]!;
    let lastCol = m[a]!;
    let runRow = 1;
    let runCol = 1;
    let bitsRow = lastRow;
    let bitsCol = lastCol;
    dark += lastRow;
    for (let b = 1; b < size; b++) {
      const inRow = m[row + b]!;
      const inCol = m[b * size + a]!;
      dark += inRow;
      const sameRow = 1 - (inRow ^ lastRow);
      const sameCol = 1 - (inCol ^ lastCol);
      if (sameRow === 0 && runRow >= 5) n1 += runRow - 2;
      if (sameCol === 0 && runCol >= 5) n1 += runCol - 2;
      runRow = runRow * sameRow + 1;
      runCol = runCol * sameCol + 1;
      lastRow = inRow;
      lastCol = inCol;
      bitsRow = ((bitsRow << 1) & 0x7ff) | inRow;
      bitsCol = ((bitsCol << 1) & 0x7ff) | inCol;
      if (b >= 10) {
        if (bitsRow === 0x5d0 || bitsRow === 0x05d) n3++;
        if (bitsCol === 0x5d0 || bitsCol === 0x05d) n3++;
      }
    }
    if (runRow >= 5) n1 += runRow - 2;
    if (runCol >= 5) n1 += runCol - 2;
    if (a < size - 1) {
      // The 2×2 blocks whose top left module is on this row.
      const below = row + size;
      for (let b = 0; b < size - 1; b++) {
        n2 += SAME_BLOCK[m[row + b]! + m[row + b + 1]! + m[below + b]! + m[below + b + 1]!]!;
      }
    }
  }
  const n4 = Math.abs(Math.ceil((dark * 100) / m.length / 5) - 10);
  return n1 + n2 * 3 + n3 * 40 + n4 * 10;
}

/**
 * The QR code of `content` as an SVG document: the same bytes as `QRCode.toString(…, { type: 'svg',
 * margin: 1, errorCorrectionLevel: 'M' })`, in about half the time.
 * - One byte-mode segment: the library's own search for the shortest mix of encoding modes (a graph
 *   of every split of the text) was 60 % of a code's time (0.8 → 0.3 ms).
 * - The library then scores the eight masks through a method call per module (440 of the remaining
 *   540 µs, bench/README.md session 34). This makes the code once with mask 0, scores the eight
 *   masks over plain arrays, and keeps the library's choice (the lowest penalty, the first of
 *   equals), so scanners see the very symbol the library would draw.
 */
export function qrSvg(content: string): string {
  const qr = QRCode.create([{ data: Buffer.from(content), mode: 'byte' }], {
    errorCorrectionLevel: LEVEL,
    maskPattern: 0,
  });
  const { size, data, reservedBit } = qr.modules as unknown as {
    size: number;
    data: Uint8Array;
    reservedBit: Uint8Array;
  };
  const { flips, format } = tablesFor(size, reservedBit);
  /** `target` := the symbol with mask p (the modules of mask 0 flipped as p needs, p's format bits). */
  const withMask = (target: Uint8Array, p: number) => {
    const flip = flips[p]!;
    for (let i = 0; i < data.length; i++) target[i] = data[i]! ^ flip[i]!;
    const bits = FormatInfo.getEncodedBits(ErrorCorrection.M, p);
    for (let i = 0; i < 15; i++) {
      const bit = (bits >> i) & 1;
      target[format.vertical[i]!] = bit;
      target[format.horizontal[i]!] = bit;
    }
  };
  const candidate = new Uint8Array(data.length);
  let bestPattern = 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (let p = 0; p < MASKS; p++) {
    withMask(candidate, p);
    const score = penalty(candidate, size);
    if (score < lowest) {
      lowest = score;
      bestPattern = p;
    }
  }
  withMask(data, bestPattern);
  qr.maskPattern = bestPattern as typeof qr.maskPattern;
  return SvgTag.render(qr, { margin: 1, errorCorrectionLevel: LEVEL });
}
