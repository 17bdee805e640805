/**
 * The content type of a file, from its first bytes (never from its name or the client's word).
 * Unknown content is `application/octet-stream`, served only as a download.
 */
export function sniffMime(head: Buffer): string {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const ascii = (offset: number, text: string) =>
    head.subarray(offset, offset + text.length).toString('latin1') === text;
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(4, 'ftyp')) return 'video/mp4';
  if (ascii(0, '#!SILK_V3') || (head[0] === 0x02 && ascii(1, '#!SILK_V3'))) return 'audio/silk';
  if (ascii(0, '#!AMR')) return 'audio/amr';
  if (ascii(0, 'ID3') || starts(0xff, 0xfb)) return 'audio/mpeg';
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip';
  return 'application/octet-stream';
}

export const isImage = (mime: string) =>
  ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(mime);
