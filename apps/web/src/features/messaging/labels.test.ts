import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatSeconds,
  hasRoom,
  isInlineMedia,
  messageKind,
  messagePreview,
  nextLoginStep,
  qrView,
  shiftMonth,
  slotText,
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
    expect(qrView('waiting').text).toContain('下方链接');
    expect(qrView('waiting', { simulated: false }).text).toContain('扫一扫');
    expect(qrView('waiting', { simulated: false }).text).not.toContain('链接');
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

describe('logging an account in: which sub-accounts can, and the next step when none', () => {
  it('offers only sub-accounts with a slot to spare, saying why the others cannot', () => {
    expect(hasRoom({ availableNum: 2, usedNum: 1 })).toBe(true);
    expect(hasRoom({ availableNum: 0, usedNum: 0 })).toBe(false);
    expect(hasRoom({ availableNum: 1, usedNum: 1 })).toBe(false);
    expect(slotText({ availableNum: 0, usedNum: 0 })).toBe('未分配额度，不能登录');
    expect(slotText({ availableNum: 1, usedNum: 1 })).toBe('额度已用完：在线 1 / 额度 1');
    expect(slotText({ availableNum: 3, usedNum: 1 })).toBe('在线 1 / 额度 3');
  });
  it('points to the package, a new sub-account, an allocation or more slots, in that order', () => {
    expect(nextLoginStep({ hasPackage: false, freeSlots: 0, subAccounts: 0 })).toMatchObject({
      action: '去购买套餐',
      to: '/purchaseRecords/index',
    });
    expect(nextLoginStep({ hasPackage: true, freeSlots: 5, subAccounts: 0 })).toMatchObject({
      action: '新建子账号',
      to: '/accountList/index?open=1',
    });
    expect(nextLoginStep({ hasPackage: true, freeSlots: 5, subAccounts: 1 })).toMatchObject({
      action: '去分配额度',
      to: '/accountList/index',
    });
    expect(nextLoginStep({ hasPackage: true, freeSlots: 0, subAccounts: 1 })).toMatchObject({
      title: '账号额度已用完',
      to: '/purchaseRecords/index',
    });
  });
});
