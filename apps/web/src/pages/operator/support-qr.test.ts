import { describe, expect, it } from 'vitest';
import { supportQrProblem } from './support-qr';

describe('support QR upload check', () => {
  it('takes PNG and JPEG up to 2 MB, and says what is wrong otherwise', () => {
    expect(supportQrProblem({ name: 'qr.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(supportQrProblem({ name: 'QR.JPG', type: 'image/jpeg', size: 2 * 1024 * 1024 })).toBeNull();
    expect(supportQrProblem({ name: 'qr.gif', type: 'image/gif', size: 10 })).toBe('请上传 PNG 或 JPG 图片');
    expect(supportQrProblem({ name: 'qr.png', type: 'image/png', size: 2 * 1024 * 1024 + 1 })).toBe(
      '图片不能超过 2 MB',
    );
    expect(supportQrProblem({ name: 'qr.png', type: 'image/png', size: 0 })).toBe('图片是空的');
  });
});
