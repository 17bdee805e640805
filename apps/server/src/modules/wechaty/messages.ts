import type { FastifyBaseLogger } from 'fastify';
import type { FileBoxInterface } from 'file-box';
import type { payloads } from 'wechaty-puppet';
import type { FileService } from '../files/service.js';
import type { AccountRef, IncomingMessage, OutgoingMessage, SendOutcome } from '../messaging/provider.js';
import { describe, type FileBoxClass, type Puppet, PuppetMessageType } from './puppet.js';

/** The largest received file kept (bigger ones are stored as a text saying so). */
const MAX_MEDIA_BYTES = 25 * 1024 * 1024;
export const UNSUPPORTED = '当前消息通道不支持此类消息';

/**
 * Messages between the gateway's raw types (1 text, 3 image, 34 voice, 43 video, 47 emoticon,
 * 49/5 link, 49/6 file, 49/33 mini program) and a puppet's: what a contact sends is stored (its
 * files as media), what the account sends goes out through the matching puppet call.
 */
export function createMessageMapping(deps: {
  log: FastifyBaseLogger;
  files: Pick<FileService, 'save'>;
  FileBox: FileBoxClass;
}) {
  const { log, files, FileBox } = deps;

  /** Keeps a received file as stored media; null when it is too big or cannot be fetched. */
  async function saveMedia(account: AccountRef, box: FileBoxInterface, fallbackName: string) {
    if (box.size > MAX_MEDIA_BYTES) return null;
    const data = await box.toBuffer();
    if (data.length > MAX_MEDIA_BYTES) return null;
    const fileName = box.name || fallbackName;
    const stored = await files.save('media', {
      companyId: account.companyId,
      origin: 'received',
      data,
      fileName,
      ...(box.mediaType && box.mediaType !== 'application/octet-stream' ? { mime: box.mediaType } : {}),
    });
    return { mediaId: stored.id, mime: stored.mime, size: stored.size, fileName };
  }

  /** A puppet's message as the gateway stores it (raw types: 1 text, 3 image, 49/6 file, …). */
  async function incoming(
    account: AccountRef,
    puppet: Puppet,
    m: payloads.Message,
  ): Promise<IncomingMessage> {
    const peer = m.roomId || m.talkerId;
    const base = { peer, sender: m.talkerId, appType: null, media: null };
    const withFile = async (type: number, appType: number | null, label: string, fallbackName: string) => {
      try {
        const media = await saveMedia(account, await puppet.messageFile(m.id), fallbackName);
        if (!media) return { ...base, type: 1, content: `${label}（文件过大，未保存）` };
        return { ...base, type, appType, content: appType === 6 ? media.fileName : label, media };
      } catch (err) {
        log.warn({ err: describe(err), messageId: m.id }, 'wechaty: could not fetch a received file');
        return { ...base, type: 1, content: `${label}（未能获取）` };
      }
    };
    switch (m.type) {
      case PuppetMessageType.Text:
        return { ...base, type: 1, content: m.text ?? '' };
      case PuppetMessageType.Image:
        return withFile(3, null, '[图片]', 'image.jpg');
      case PuppetMessageType.Video:
        return withFile(43, null, '[视频]', 'video.mp4');
      case PuppetMessageType.Audio:
        return withFile(34, null, '[语音]', 'voice.sil');
      case PuppetMessageType.Emoticon:
        return withFile(47, null, '[表情]', 'emoticon.gif');
      case PuppetMessageType.Attachment:
        return withFile(49, 6, '[文件]', m.filename || 'file');
      case PuppetMessageType.Url: {
        const link = await puppet.messageUrl(m.id);
        return {
          ...base,
          type: 49,
          appType: 5,
          content: link.title,
          media: {
            title: link.title,
            description: link.description ?? '',
            url: link.url,
            ...(link.thumbnailUrl ? { thumbUrl: link.thumbnailUrl } : {}),
          },
        };
      }
      case PuppetMessageType.MiniProgram: {
        const app = await puppet.messageMiniProgram(m.id);
        return {
          ...base,
          type: 49,
          appType: 33,
          content: app.title ?? '[小程序]',
          media: {
            appId: app.appid ?? '',
            username: app.username ?? '',
            title: app.title ?? '',
            coverUrl: app.thumbUrl ?? '',
            pagePath: app.pagePath ?? '',
            displayName: app.description ?? '',
          },
        };
      }
      case PuppetMessageType.Contact:
        return { ...base, type: 42, content: '[名片]' };
      case PuppetMessageType.Location:
        return { ...base, type: 48, content: m.text || '[位置]' };
      case PuppetMessageType.Recalled:
        return { ...base, type: 10002, content: m.text || '[撤回了一条消息]' };
      default:
        return { ...base, type: 1, content: '[暂不支持的消息类型]' };
    }
  }

  /** A URL's last path segment as a file name (FileBox names the file after it). */
  const nameFromUrl = (url: string, fallback: string) => {
    try {
      const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
      return last.includes('.') ? last : fallback;
    } catch {
      return fallback;
    }
  };

  async function sendOne(puppet: Puppet, message: OutgoingMessage): Promise<SendOutcome> {
    const media = message.media ?? {};
    const str = (key: string) => (media[key] === undefined ? '' : String(media[key]));
    // Media is fetched by the network from its URL (the customer's), never through this service.
    const file = (name: string) => FileBox.fromUrl(str('url'), { name });
    switch (message.type) {
      case 1: {
        const at = str('at');
        await puppet.messageSendText(message.peer, message.content, at ? at.split(',') : undefined);
        return { ok: true };
      }
      case 3:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'image.jpg')));
        return { ok: true };
      case 43:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'video.mp4')));
        return { ok: true };
      case 34:
        await puppet.messageSendFile(message.peer, file(nameFromUrl(str('url'), 'voice.sil')));
        return { ok: true };
      case 47:
        // The puppet API sends files, not emoticons by md5.
        return { ok: false, error: '当前消息通道不支持发送表情' };
      case 49:
        if (message.appType === 6) {
          await puppet.messageSendFile(
            message.peer,
            file(str('fileName') || nameFromUrl(str('url'), 'file')),
          );
          return { ok: true };
        }
        if (message.appType === 5) {
          await puppet.messageSendUrl(message.peer, {
            title: str('title'),
            url: str('url'),
            description: str('description'),
            ...(str('thumbUrl') ? { thumbnailUrl: str('thumbUrl') } : {}),
          });
          return { ok: true };
        }
        if (message.appType === 33) {
          await puppet.messageSendMiniProgram(message.peer, {
            appid: str('appId'),
            username: str('username'),
            title: str('title'),
            pagePath: str('pagePath'),
            thumbUrl: str('coverUrl'),
            description: str('displayName'),
          });
          return { ok: true };
        }
        return { ok: false, error: UNSUPPORTED };
      default:
        return { ok: false, error: UNSUPPORTED };
    }
  }

  return { incoming, send: sendOne };
}
