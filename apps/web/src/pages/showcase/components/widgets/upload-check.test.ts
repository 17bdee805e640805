import { describe, expect, it } from 'vitest';
import { formatBytes, uploadProblem } from './upload-check';

const MB = 1024 * 1024;

describe('upload check', () => {
  it('takes images and PDFs up to 5 MB', () => {
    expect(uploadProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(uploadProblem({ type: 'application/pdf', size: 5 * MB })).toBeNull();
    expect(uploadProblem({ type: 'image/webp', size: 10 }, true)).toBeNull();
  });

  it('refuses other types, PDFs for the avatar, empty and too large files, in Chinese', () => {
    expect(uploadProblem({ type: 'text/plain', size: 10 })).toMatch(/不支持的文件类型/);
    expect(uploadProblem({ type: '', size: 10 })).toMatch(/不支持的文件类型/);
    expect(uploadProblem({ type: 'application/pdf', size: 10 }, true)).toMatch(/请选择 PNG/);
    expect(uploadProblem({ type: 'image/png', size: 0 })).toBe('文件是空的');
    expect(uploadProblem({ type: 'image/png', size: 5 * MB + 1 })).toBe('文件过大（5 MB），不能超过 5 MB');
    expect(uploadProblem({ type: 'image/png', size: 6 * MB })).toBe('文件过大（6 MB），不能超过 5 MB');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2 * MB)).toBe('2 MB');
  });
});
