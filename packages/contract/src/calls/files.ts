import { z } from 'zod';
import { defineCall } from '../call.js';

/** Files (server module `files`): uploads for sending, served back through signed, expiring links. */
export const getSourceUrl = defineCall({
  id: 'tools.getSourceUrl',
  method: 'POST',
  path: '/api/tools/getSourceUrl',
  audience: 'customerOrApi',
  tag: '消息网关·消息与媒体',
  summary: '上传媒体文件，获得发送用地址',
  description:
    'multipart/form-data，字段 file。图片、视频、语音、文件均可，最大 20 MB。返回的地址可用于各发送接口。',
  request: z.strictObject({}).optional().default({}),
  response: z.object({
    url: z.string(),
    mediaId: z.string(),
    mime: z.string(),
    size: z.number().int(),
    fileName: z.string(),
  }),
});
