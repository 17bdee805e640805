import { MEDIA_MAX_BYTES, msgCalls } from '@wxc/contract';
import { AppError } from '../../lib/errors.js';
import type { Route } from '../../lib/http.js';
import type { MediaService } from '../media/service.js';
import type { Gateway } from './service.js';

/** The /api/msg/* calls and /api/tools/getSourceUrl. Handlers only parse and delegate. */
export function registerMessagingRoutes(route: Route, gateway: Gateway, media: MediaService) {
  route(msgCalls.getQrCode, ({ input, auth }) => gateway.getQrCode(auth, input));
  route(msgCalls.checkQrCode, ({ input, auth }) => gateway.checkQrCode(auth, input.instanceId));
  route(msgCalls.checkQrCodeLoop, ({ input, auth }) =>
    gateway.checkQrCodeLoop(auth, input.instanceId, input.lastState, input.waitSeconds),
  );
  route(msgCalls.getAuth, ({ input, auth }) => gateway.getAuth(auth, input.wxid));
  route(msgCalls.logout, ({ input, auth }) => gateway.logout(auth, input.wxid));
  route(msgCalls.proxyList, async () => gateway.proxyList());

  route(msgCalls.sendMsgText, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'text', ...m }),
  );
  route(msgCalls.sendMsgImg, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'image', ...m }),
  );
  route(msgCalls.sendMsgVideo, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'video', ...m }),
  );
  route(msgCalls.sendMsgFile, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'file', ...m }),
  );
  route(msgCalls.sendMsgLink, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'link', ...m }),
  );
  route(msgCalls.sendMsgApp, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'app', ...m }),
  );
  route(msgCalls.sendMsgEmoji, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'emoji', ...m }),
  );
  route(msgCalls.sendMsgVoice, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'voice', ...m }),
  );

  route(msgCalls.syncInitAddressList, ({ input, auth }) => gateway.syncAddressList(auth, input.wxid));
  route(msgCalls.getInitAddressListRes, ({ input, auth }) => gateway.addressListResult(auth, input.wxid));
  route(msgCalls.getAddressList, ({ input, auth }) => gateway.addressList(auth, input.wxid));
  route(msgCalls.getContact, ({ input, auth }) => gateway.contacts(auth, input.wxid, input.ids));
  route(msgCalls.getChatRoomMember, ({ input, auth }) => gateway.roomMembers(auth, input.wxid, input.roomId));
  route(msgCalls.showMsgConsole, ({ input, auth }) => gateway.history(auth, input));
  route(msgCalls.getMsgImg, ({ input, auth }) =>
    gateway.messageMedia(auth, input.wxid, input.msgId, 'image'),
  );
  route(msgCalls.getMsgVideo, ({ input, auth }) =>
    gateway.messageMedia(auth, input.wxid, input.msgId, 'video'),
  );

  route(msgCalls.getSourceUrl, async ({ req, auth }) => {
    if (!req.isMultipart())
      throw new AppError('BAD_REQUEST', '请以 multipart/form-data 上传，文件字段名为 file');
    const part = await req.file({ limits: { fileSize: MEDIA_MAX_BYTES, files: 1 } });
    if (part?.fieldname !== 'file') throw new AppError('BAD_REQUEST', '缺少文件：字段名应为 file');
    const data = await part.toBuffer().catch((err: { code?: string }) => {
      throw err.code === 'FST_REQ_FILE_TOO_LARGE'
        ? new AppError('BAD_REQUEST', `文件不能超过 ${MEDIA_MAX_BYTES / 1024 / 1024} MB`)
        : new AppError('BAD_REQUEST', '上传内容不完整或格式错误，请重新上传');
    });
    if (part.file.truncated)
      throw new AppError('BAD_REQUEST', `文件不能超过 ${MEDIA_MAX_BYTES / 1024 / 1024} MB`);
    if (data.length === 0) throw new AppError('BAD_REQUEST', '文件为空');
    // Only the base name is kept, and only as a label; storage names are random.
    const fileName = baseName(part.filename);
    const stored = await media.save(auth.companyId, 'upload', data, fileName);
    const { url } = await media.signedUrl(stored.mediaId);
    return { url, ...stored };
  });
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
