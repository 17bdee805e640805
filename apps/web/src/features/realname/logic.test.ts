import { IMAGE_MAX_BYTES } from '@wxc/contract/constants';
import { describe, expect, it } from 'vitest';
import {
  BOTH_NEEDED,
  canSubmit,
  checkImageFile,
  hasChanges,
  maySubmit,
  planSubmission,
  type Slots,
  WRONG_TYPE,
} from './logic';

const empty = { kind: 'empty' } as const;
const existing = (id: string) => ({ kind: 'existing', id, url: `/realname/image/${id}` }) as const;
const fresh = (name: string) => ({ kind: 'new', file: name, preview: `blob:${name}` }) as const;

describe('checkImageFile (spec §5)', () => {
  it('accepts png, jpeg and jpg up to exactly 2 MB', () => {
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: 10 })).toBeNull();
    expect(checkImageFile({ name: 'a.JPG', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(checkImageFile({ name: 'a.jpeg', type: '', size: IMAGE_MAX_BYTES })).toBeNull();
  });
  it('warns 上传文件最大为2M above 2 MB', () => {
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: IMAGE_MAX_BYTES + 1 })).toBe(
      '上传文件最大为2M',
    );
  });
  it('refuses other types, by name and by the browser’s type', () => {
    expect(checkImageFile({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe(WRONG_TYPE);
    expect(checkImageFile({ name: 'a.pdf', type: 'application/pdf', size: 10 })).toBe(WRONG_TYPE);
    expect(checkImageFile({ name: 'png', type: '', size: 10 })).toBe(WRONG_TYPE);
    expect(checkImageFile({ name: 'a.png', type: 'text/plain', size: 10 })).toBe(WRONG_TYPE);
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: 0 })).toMatch(/为空/);
  });
});

describe('canSubmit / hasChanges', () => {
  it('OK is disabled until at least one image is there', () => {
    expect(canSubmit({ social: empty, licence: empty })).toBe(false);
    expect(canSubmit({ social: fresh('a'), licence: empty })).toBe(true);
    expect(canSubmit({ social: existing('x'), licence: existing('y') })).toBe(true);
    expect(hasChanges({ social: existing('x'), licence: existing('y') })).toBe(false);
    expect(hasChanges({ social: existing('x'), licence: fresh('b') })).toBe(true);
  });
});

describe('planSubmission (spec §4)', () => {
  it('both new: one uploadRealNameSource with social first', () => {
    expect(planSubmission<string>({ social: fresh('s'), licence: fresh('l') })).toEqual({
      kind: 'source',
      files: ['s', 'l'],
    });
  });
  it('unchanged images: only the existing ids are re-submitted', () => {
    expect(planSubmission<string>({ social: existing('x'), licence: existing('y') })).toEqual({
      kind: 'update',
      uploads: [],
      keep: { social: 'x', licence: 'y' },
    });
  });
  it('one image replaced: upload it alone, keep the other', () => {
    expect(planSubmission<string>({ social: existing('x'), licence: fresh('l2') })).toEqual({
      kind: 'update',
      uploads: [{ slot: 'licence', file: 'l2' }],
      keep: { social: 'x' },
    });
  });
  it('a missing slot is named, nothing is sent', () => {
    const plan = planSubmission<string>({ social: fresh('s'), licence: empty } as Slots<string>);
    expect(plan).toMatchObject({ kind: 'missing', slot: 'licence' });
    expect(plan.kind === 'missing' && plan.message).toContain(BOTH_NEEDED);
    expect(plan.kind === 'missing' && plan.message).toContain('营业执照');
  });
  it('verified users only look', () => {
    expect([0, 1, 2, 3, 7].map(maySubmit)).toEqual([true, false, true, true, true]);
  });
});
