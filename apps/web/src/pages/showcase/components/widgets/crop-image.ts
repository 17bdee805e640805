import type { Area } from 'react-easy-crop';

/** The avatar's side, in pixels, at most (a smaller crop keeps its own size). */
const AVATAR_MAX = 512;

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('图片无法读取'));
    image.src = src;
  });
}

/**
 * The square `area` (image pixels, from react-easy-crop) of the image at `src`, drawn on a canvas
 * and encoded: JPEG for a JPEG source (smaller), PNG otherwise (keeps transparency).
 */
export async function cropToBlob(
  src: string,
  area: Area,
  sourceType: string,
): Promise<{ blob: Blob; name: string }> {
  const image = await loadImage(src);
  const side = Math.max(1, Math.min(AVATAR_MAX, Math.round(area.width)));
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('浏览器不支持画布，无法裁剪');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, side, side);
  const jpeg = sourceType === 'image/jpeg';
  const type = jpeg ? 'image/jpeg' : 'image/png';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.92));
  if (!blob) throw new Error('裁剪失败，请换一张图片');
  return { blob, name: jpeg ? 'avatar.jpg' : 'avatar.png' };
}
