import {
  REAL_NAME_EXTENSIONS,
  REAL_NAME_SLOT_LABELS,
  REAL_NAME_SLOTS,
  REAL_NAME_TOO_LARGE,
  type RealNameSlot,
} from '@wxc/contract/calls/realname';
import { IMAGE_MAX_BYTES } from '@wxc/contract/constants';

/** What a slot of the dialog holds: nothing, the image already submitted, or a newly chosen file. */
export type SlotValue<F = File> =
  | { kind: 'empty' }
  | { kind: 'existing'; id: string; url: string }
  | { kind: 'new'; file: F; preview: string };

export type Slots<F = File> = Record<RealNameSlot, SlotValue<F>>;

export const WRONG_TYPE = '只能上传 png、jpeg、jpg 格式的图片';
export const BOTH_NEEDED = '请上传社保记录和营业执照两张图片';
export const ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** Spec §5: png, jpeg or jpg only; at most 2 MB (warning 上传文件最大为2M). null when fine. */
export function checkImageFile(file: { name: string; type: string; size: number }): string | null {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!(REAL_NAME_EXTENSIONS as readonly string[]).includes(ext)) return WRONG_TYPE;
  if (file.type && file.type !== 'image/png' && file.type !== 'image/jpeg') return WRONG_TYPE;
  if (file.size > IMAGE_MAX_BYTES) return REAL_NAME_TOO_LARGE;
  if (file.size === 0) return '图片文件为空';
  return null;
}

/** Spec §5: the OK button is enabled once at least one image is there. */
export const canSubmit = (slots: Slots<unknown>): boolean =>
  REAL_NAME_SLOTS.some((s) => slots[s].kind !== 'empty');

/** Something was chosen since the dialog opened (so closing would lose it). */
export const hasChanges = (slots: Slots<unknown>): boolean =>
  REAL_NAME_SLOTS.some((s) => slots[s].kind === 'new');

export type Plan<F = File> =
  | { kind: 'missing'; message: string; slot: RealNameSlot }
  /** Both images are new: /api/uploadRealNameSource with both in `imgs`. */
  | { kind: 'source'; files: [F, F] }
  /**
   * Some image is kept: upload the new ones one by one (/api/uploadImg), then re-submit all by id
   * (/api/updateRealNameImgs). With nothing new, only the existing images are re-submitted (spec §4).
   */
  | {
      kind: 'update';
      uploads: { slot: RealNameSlot; file: F }[];
      keep: Partial<Record<RealNameSlot, string>>;
    };

export function planSubmission<F>(slots: Slots<F>): Plan<F> {
  for (const slot of REAL_NAME_SLOTS) {
    if (slots[slot].kind === 'empty') {
      return { kind: 'missing', slot, message: `${BOTH_NEEDED}（缺少${REAL_NAME_SLOT_LABELS[slot]}）` };
    }
  }
  const { social, licence } = slots;
  if (social.kind === 'new' && licence.kind === 'new')
    return { kind: 'source', files: [social.file, licence.file] };
  const uploads: { slot: RealNameSlot; file: F }[] = [];
  const keep: Partial<Record<RealNameSlot, string>> = {};
  for (const slot of REAL_NAME_SLOTS) {
    const v = slots[slot];
    if (v.kind === 'new') uploads.push({ slot, file: v.file });
    if (v.kind === 'existing') keep[slot] = v.id;
  }
  return { kind: 'update', uploads, keep };
}

/** Spec §4: unverified, under review and refused users may (re-)submit; verified ones only look. */
export const maySubmit = (status: number): boolean => status !== 1;
