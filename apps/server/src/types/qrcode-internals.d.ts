// The parts of qrcode (1.5) that modules/messaging/qr-image.ts uses directly; @types/qrcode types
// only the package's entry point.
declare module 'qrcode/lib/core/error-correction-level.js' {
  /** Error correction M (15 %), as the format bits encode it. */
  export const M: { bit: number };
}

declare module 'qrcode/lib/core/format-info.js' {
  /** The 15 format bits of an error correction level and a mask. */
  export function getEncodedBits(errorCorrectionLevel: { bit: number }, mask: number): number;
}

declare module 'qrcode/lib/renderer/svg-tag.js' {
  import type { QRCode, QRCodeToStringOptions } from 'qrcode';
  /** The symbol as an SVG document (what QRCode.toString answers for type 'svg'). */
  export function render(qrData: QRCode, options?: Omit<QRCodeToStringOptions, 'type'>): string;
}
