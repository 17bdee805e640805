import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatSeconds,
  isInlineMedia,
  messageKind,
  messagePreview,
  qrView,
  shiftMonth,
} from './labels';

describe('message kinds and previews', () => {
  it('maps raw types and app inner types', () => {
    expect(messageKind(1, null)).toBe('text');
    expect(messageKind(3, null)).toBe('image');
    expect(messageKind(34, null)).toBe('voice');
    expect(messageKind(43, null)).toBe('video');
    expect(messageKind(47, null)).toBe('emoji');
    expect(messageKind(49, 5)).toBe('link');
    expect(messageKind(49, 6)).toBe('file');
    expect(messageKind(49, 33)).toBe('app');
    expect(messageKind(49, 99)).toBe('other');
    expect(messageKind(10000, null)).toBe('system');
  });

  it('previews text as it is (shortened) and media by label', () => {
    expect(messagePreview({ type: 1, appType: null, content: '你好\n世界', media: null })).toBe('你好 世界');
    expect(messagePreview({ type: 1, appType: null, content: 'x'.repeat(50), media: null }, 10)).toBe(
      `${'x'.repeat(9)}…`,
    );
    expect(messagePreview({ type: 3, appType: null, content: '[图片]', media: { url: 'u' } })).toBe('[图片]');
    expect(
      messagePreview({ type: 49, appType: 6, content: 'a.pdf', media: { fileName: '报告.pdf', url: 'u' } }),
    ).toBe('[文件] 报告.pdf');
    expect(messagePreview({ type: 49, appType: 5, content: 't', media: { title: '产品介绍' } })).toBe(
      '[链接] 产品介绍',
    );
    expect(messagePreview({ type: 49, appType: 33, content: '查看订单', media: null })).toBe(
      '[小程序] 查看订单',
    );
  });

  it('formats sizes and durations', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatSeconds(3)).toBe('3″');
    expect(formatSeconds(65)).toBe('1′05″');
  });

  it('shows media inline only from the console origin (its CSP) or data:/blob:', () => {
    const origin = 'http://127.0.0.1:8080';
    expect(isInlineMedia('http://127.0.0.1:8080/media/x?sig=1', origin)).toBe(true);
    expect(isInlineMedia('/media/x', origin)).toBe(true);
    expect(isInlineMedia('data:image/svg+xml;base64,AA', origin)).toBe(true);
    expect(isInlineMedia('https://example.com/pic.jpg', origin)).toBe(false);
    expect(isInlineMedia('http://[bad', origin)).toBe(false);
  });
});

describe('qrView', () => {
  it('names the scanner, the reason of a cancel, and which states are final', () => {
    expect(qrView('scanned', { scanner: '小王' }).text).toContain('「小王」已扫码');
    expect(qrView('cancelled', { reason: '可用账号额度不足' }).text).toBe('原因：可用账号额度不足');
    expect(qrView('waiting').final).toBe(false);
    expect(qrView('need_verify').tone).toBe('warning');
    expect(qrView('expired').final).toBe(true);
    expect(qrView('confirmed')).toMatchObject({ final: true, tone: 'success' });
  });
});

describe('shiftMonth', () => {
  it('moves across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-05', 0)).toBe('2026-05');
  });
});
