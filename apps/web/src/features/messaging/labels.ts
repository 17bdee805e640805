import type { Message, QrState } from '@wxc/contract/calls/messaging';

/**
 * Labels and small pure helpers of the messaging screens: message kinds and previews, states of
 * QR codes, login records and callback deliveries.
 */
export type MessageKind =
  | 'text'
  | 'image'
  | 'voice'
  | 'card'
  | 'video'
  | 'emoji'
  | 'location'
  | 'link'
  | 'file'
  | 'app'
  | 'system'
  | 'other';

/** Raw message type (and the app message's inner type) → what it is. */
export function messageKind(type: number, appType: number | null | undefined): MessageKind {
  switch (type) {
    case 1:
      return 'text';
    case 3:
      return 'image';
    case 34:
      return 'voice';
    case 42:
      return 'card';
    case 43:
      return 'video';
    case 47:
      return 'emoji';
    case 48:
      return 'location';
    case 49:
      return appType === 5 ? 'link' : appType === 6 ? 'file' : appType === 33 ? 'app' : 'other';
    case 10000:
    case 10002:
      return 'system';
    default:
      return 'other';
  }
}

export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  text: '文本',
  image: '图片',
  voice: '语音',
  card: '名片',
  video: '视频',
  emoji: '表情',
  location: '位置',
  link: '链接',
  file: '文件',
  app: '小程序',
  system: '系统消息',
  other: '其他消息',
};

type MessageLike = Pick<Message, 'type' | 'appType' | 'content' | 'media'>;

const mediaText = (m: MessageLike, key: string): string => {
  const v = m.media?.[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
};

/** One line for a conversation list or a notification: text as it is, others as "[图片]" etc. */
export function messagePreview(m: MessageLike, max = 40): string {
  const kind = messageKind(m.type, m.appType);
  let text: string;
  switch (kind) {
    case 'text':
    case 'system':
      text = m.content;
      break;
    case 'link':
    case 'app':
      text = `[${MESSAGE_KIND_LABELS[kind]}] ${mediaText(m, 'title') || m.content}`;
      break;
    case 'file':
      text = `[文件] ${mediaText(m, 'fileName') || m.content}`;
      break;
    default:
      text = `[${MESSAGE_KIND_LABELS[kind]}]`;
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "1.2 KB", "3.4 MB": sizes in bytes as people read them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Voice durations arrive in ms, video durations in s: "3″", "1′05″". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s}″` : `${Math.floor(s / 60)}′${String(s % 60).padStart(2, '0')}″`;
}

/**
 * Whether a media link may be shown inline: the console's CSP allows images from its own origin
 * (and data:/blob:) only, so other addresses are shown as links instead of broken images.
 */
export function isInlineMedia(url: string, origin: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}

/** A group id ends with @chatroom. */
export const isChatroom = (id: string) => id.endsWith('@chatroom');

// ---- QR codes

export interface QrView {
  title: string;
  text: string;
  tone: 'info' | 'success' | 'warning' | 'error';
  /** The state is final: no more polling; expired and cancelled offer a new code. */
  final: boolean;
}

export function qrView(
  state: QrState,
  extra: { scanner?: string | null; reason?: string | null; simulated?: boolean } = {},
): QrView {
  switch (state) {
    case 'waiting':
      return {
        title: '等待扫码',
        // The simulator's code is its phone page's link; a real network's is for WeChat on a phone.
        text:
          extra.simulated === false
            ? '请在该微信账号所在的手机上打开微信「扫一扫」扫描二维码，并在手机上确认登录。'
            : '请用手机扫描二维码，或在手机/另一个浏览器标签中打开下方链接。',
        tone: 'info',
        final: false,
      };
    case 'scanned':
      return {
        title: '已扫码，等待确认',
        text: `${extra.scanner ? `「${extra.scanner}」` : '对方'}已扫码，请在手机上点击「确认登录」。`,
        tone: 'info',
        final: false,
      };
    case 'need_verify':
      return {
        title: '需要验证',
        text: '新设备登录需要验证：请在手机上输入显示的验证码完成验证。',
        tone: 'warning',
        final: false,
      };
    case 'confirmed':
      return { title: '登录成功', text: '账号已上线，可以收发消息了。', tone: 'success', final: true };
    case 'expired':
      return {
        title: '二维码已过期',
        text: '没有人在有效期内确认登录，请刷新二维码。',
        tone: 'error',
        final: true,
      };
    case 'cancelled':
      return {
        title: '已取消登录',
        text: extra.reason ? `原因：${extra.reason}` : '手机上取消了登录，可以刷新二维码重试。',
        tone: 'error',
        final: true,
      };
  }
}

// ---- records and deliveries

export const LOGIN_RESULT_LABELS: Record<string, { text: string; color: string }> = {
  pending: { text: '进行中', color: 'processing' },
  success: { text: '登录成功', color: 'success' },
  cancelled: { text: '已取消', color: 'default' },
  expired: { text: '已过期', color: 'warning' },
  refused: { text: '被拒绝', color: 'error' },
};

export const DELIVERY_STATUS_LABELS: Record<string, { text: string; color: string }> = {
  pending: { text: '投递中', color: 'processing' },
  delivered: { text: '已送达', color: 'success' },
  failed: { text: '失败', color: 'error' },
};

export const CALLBACK_TYPE_LABELS: Record<string, string> = {
  message: '收到消息',
  message_status: '发送结果',
  login: '登录',
  logout: '下线',
  qr_state: '扫码状态',
  contact_change: '通讯录变化',
  test: '测试事件',
};

export const ACCOUNT_STATUS_LABELS: Record<'online' | 'offline', { text: string; color: string }> = {
  online: { text: '在线', color: 'success' },
  offline: { text: '离线', color: 'default' },
};

export const SEND_STATUS_LABELS: Record<string, string> = {
  queued: '发送中',
  sent: '已发送',
  failed: '发送失败',
};

/** "2026-11" for a date; month arithmetic for the chart's switcher. */
export function monthOf(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(y, m - 1 + delta, 1);
  return monthOf(d);
}

// ---- logging an account in

/** A sub-account can log one more account in. */
export const hasRoom = (a: { availableNum: number; usedNum: number }) => a.availableNum > a.usedNum;

/** "在线 1 / 额度 2", or why it cannot log another account in. */
export function slotText(a: { availableNum: number; usedNum: number }): string {
  if (a.availableNum <= 0) return '未分配额度，不能登录';
  if (a.usedNum >= a.availableNum) return `额度已用完：在线 ${a.usedNum} / 额度 ${a.availableNum}`;
  return `在线 ${a.usedNum} / 额度 ${a.availableNum}`;
}

/**
 * Why no sub-account can log an account in, and the one thing to do next: buy a package, open a
 * sub-account, or give one a slot (or buy more when every slot is taken).
 */
export function nextLoginStep(state: { hasPackage: boolean; freeSlots: number; subAccounts: number }): {
  title: string;
  text: string;
  action: string;
  to: string;
} {
  if (!state.hasPackage)
    return {
      title: '还没有有效套餐',
      text: '登录微信账号需要套餐的账号额度：先购买套餐，再新建子账号并分配额度。',
      action: '去购买套餐',
      to: '/purchaseRecords/index',
    };
  if (state.subAccounts === 0)
    return {
      title: '还没有子账号',
      text: '微信账号登录在子账号名下：新建一个子账号，把套餐的额度分配给它。',
      action: '新建子账号',
      to: '/accountList/index?open=1',
    };
  if (state.freeSlots > 0)
    return {
      title: '子账号的额度都已用完',
      text: `每个子账号最多同时登录其额度个数的微信账号。公司还有 ${state.freeSlots} 个额度未分配，分配给子账号后即可登录。`,
      action: '去分配额度',
      to: '/accountList/index',
    };
  return {
    title: '账号额度已用完',
    text: '套餐的额度都已分配且在使用中：让一个账号下线，或购买更多套餐后再登录。',
    action: '去购买套餐',
    to: '/purchaseRecords/index',
  };
}
