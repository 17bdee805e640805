import { IMAGE_MAX_BYTES, MEDIA_MAX_BYTES, realNameCalls } from '@wxc/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { sniffMime } from './sniff.js';

/**
 * Reading uploads from multipart requests, checked before anything is stored: images (real-name
 * material, the support QR) and media for sending (getSourceUrl).
 */

const { REAL_NAME_EXTENSIONS, REAL_NAME_TOO_LARGE } = realNameCalls;

export interface ImageUpload {
  fileName: string;
  mime: 'image/png' | 'image/jpeg';
  data: Buffer;
}

const WRONG_TYPE = '只能上传 png、jpeg、jpg 格式的图片';

/**
 * Checks one uploaded file; throws a clear 400 otherwise. The name is a label only: a name with a
 * path or control characters is refused (never cleaned up silently), the extension must be an
 * image's, and the bytes must really be a PNG or JPEG.
 */
export function checkImage(fileName: string, data: Buffer): ImageUpload {
  const name = fileName.trim();
  if (!name) throw new AppError('BAD_REQUEST', '文件名不能为空');
  if (/[\\/]/.test(name) || name.includes('..') || [...name].some((ch) => ch.charCodeAt(0) < 32)) {
    throw new AppError('BAD_REQUEST', '文件名不能包含路径或控制字符');
  }
  if (name.length > 128) throw new AppError('BAD_REQUEST', '文件名不能超过 128 个字符');
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!(REAL_NAME_EXTENSIONS as readonly string[]).includes(ext))
    throw new AppError('BAD_REQUEST', WRONG_TYPE);
  if (data.length === 0) throw new AppError('BAD_REQUEST', `图片「${name}」是空文件`);
  if (data.length > IMAGE_MAX_BYTES) throw new AppError('BAD_REQUEST', REAL_NAME_TOO_LARGE);
  const mime = sniffMime(data.subarray(0, 16));
  if (mime !== 'image/png' && mime !== 'image/jpeg') {
    throw new AppError('BAD_REQUEST', `${WRONG_TYPE}（「${name}」的内容不是 png 或 jpeg 图片）`);
  }
  return { fileName: name, mime, data };
}

/**
 * Reads every part of a multipart request into memory (at most `count` images of 2 MB) and checks
 * them all before anything is stored: a bad file refuses the whole request.
 */
export async function readImages(req: FastifyRequest, field: string, count: number): Promise<ImageUpload[]> {
  if (!req.isMultipart()) {
    throw new AppError('BAD_REQUEST', `请以 multipart/form-data 上传，图片字段名为 ${field}`);
  }
  const files: { fileName: string; data: Buffer }[] = [];
  try {
    const parts = req.parts({
      // preservePath: busboy would strip a path silently; a name with a path is refused instead.
      preservePath: true,
      limits: { fileSize: IMAGE_MAX_BYTES, files: count + 1, fields: 4, parts: count + 5 },
    });
    for await (const part of parts) {
      if (part.type !== 'file')
        throw new AppError('BAD_REQUEST', `不支持的字段：${part.fieldname.slice(0, 30)}`);
      if (part.fieldname !== field) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', `图片字段名应为 ${field}`);
      }
      const data = await part.toBuffer();
      if (part.file.truncated) throw new AppError('BAD_REQUEST', REAL_NAME_TOO_LARGE);
      files.push({ fileName: part.filename ?? '', data });
      if (files.length > count) break;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('BAD_REQUEST', REAL_NAME_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT') throw tooMany(field, count);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError('BAD_REQUEST', '上传内容包含过多字段');
    }
    throw new AppError('BAD_REQUEST', '上传内容无法解析，请重新选择图片');
  }
  if (files.length === 0) throw new AppError('BAD_REQUEST', `请选择要上传的图片（字段 ${field}）`);
  if (files.length > count) throw tooMany(field, count);
  if (files.length < count) throw tooMany(field, count);
  return files.map((f) => checkImage(f.fileName, f.data));
}

const tooMany = (field: string, count: number) =>
  new AppError(
    'BAD_REQUEST',
    count === 1
      ? `每次只能上传一张图片（字段 ${field}）`
      : `需要恰好 ${count} 张图片：社保记录和营业执照（字段 ${field}）`,
  );

/** One file for sending (getSourceUrl, field `file`, up to 20 MB), read whole. */
export const readMediaUpload = (req: FastifyRequest) => readFileField(req, MEDIA_MAX_BYTES);

/** The one file of a multipart request's field `file`, up to `maxBytes`, read whole; never empty. */
export async function readFileField(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ fileName: string; data: Buffer }> {
  const tooLarge = `文件不能超过 ${maxBytes / 1024 / 1024} MB`;
  if (!req.isMultipart())
    throw new AppError('BAD_REQUEST', '请以 multipart/form-data 上传，文件字段名为 file');
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (part?.fieldname !== 'file') throw new AppError('BAD_REQUEST', '缺少文件：字段名应为 file');
  const data = await part.toBuffer().catch((err: { code?: string }) => {
    throw err.code === 'FST_REQ_FILE_TOO_LARGE'
      ? new AppError('BAD_REQUEST', tooLarge)
      : new AppError('BAD_REQUEST', '上传内容不完整或格式错误，请重新上传');
  });
  if (part.file.truncated) throw new AppError('BAD_REQUEST', tooLarge);
  if (data.length === 0) throw new AppError('BAD_REQUEST', '文件为空');
  // Only the base name is kept, and only as a label; storage names are random.
  return { fileName: baseName(part.filename), data };
}

/** The last path segment of a client's file name, without control characters: a label only. */
function baseName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  return (
    [...last]
      .filter((ch) => ch.charCodeAt(0) >= 32)
      .join('')
      .slice(0, 128) || 'file'
  );
}
