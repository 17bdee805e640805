import { IMAGE_MAX_BYTES } from '@wxc/contract/constants';

/** What an operator may upload as the support QR (the service checks the bytes too). */
export function supportQrProblem(file: { name: string; type: string; size: number }): string | null {
  if (!/\.(png|jpe?g)$/i.test(file.name) || !/^image\/(png|jpeg)$/.test(file.type))
    return '请上传 PNG 或 JPG 图片';
  if (file.size > IMAGE_MAX_BYTES) return `图片不能超过 ${IMAGE_MAX_BYTES / 1024 / 1024} MB`;
  if (file.size === 0) return '图片是空的';
  return null;
}
