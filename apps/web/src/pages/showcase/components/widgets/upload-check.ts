import { SHOWCASE_UPLOAD_MAX_BYTES, SHOWCASE_UPLOAD_MIMES } from '@wxc/contract/calls/showcase';

/** What the showcase's upload takes, checked before sending (the service checks the bytes again). */
export const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const MAX_MB = SHOWCASE_UPLOAD_MAX_BYTES / 1024 / 1024;
/** For a file input's `accept`: the extensions as well, for browsers that match on them. */
export const UPLOAD_ACCEPT: Record<string, string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'application/pdf': ['.pdf'],
};

/** `1536` → `1.5 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KB`;
  return `${trim(bytes / 1024 / 1024)} MB`;
}
const trim = (n: number) => String(Number(n.toFixed(1)));

/**
 * Why this file may not be sent, in words for the customer, or null when it may.
 * `images` limits it to the image types (the avatar); otherwise a PDF is fine too.
 */
export function uploadProblem(file: { type: string; size: number }, images = false): string | null {
  const allowed: readonly string[] = images ? IMAGE_MIMES : SHOWCASE_UPLOAD_MIMES;
  if (!allowed.includes(file.type)) {
    return images
      ? '不支持的文件类型：请选择 PNG、JPEG、GIF 或 WebP 图片'
      : '不支持的文件类型：仅支持 PNG、JPEG、GIF、WebP 图片或 PDF';
  }
  if (file.size === 0) return '文件是空的';
  if (file.size > SHOWCASE_UPLOAD_MAX_BYTES) {
    return `文件过大（${formatBytes(file.size)}），不能超过 ${MAX_MB} MB`;
  }
  return null;
}
