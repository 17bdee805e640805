import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { IMAGE_MAX_BYTES } from '../constants.js';
import { epochMsField, idField, pageFields, pageOf, textField } from '../fields.js';

const TAG = '实名认证';
const TAG_OPS = '运营';

/** The two slots of a real-name submission, in the order of `imgs` everywhere. */
export const REAL_NAME_SLOTS = ['social', 'licence'] as const;
export type RealNameSlot = (typeof REAL_NAME_SLOTS)[number];
export const REAL_NAME_SLOT_LABELS: Record<RealNameSlot, string> = {
  social: '社保记录',
  licence: '营业执照',
};
/** File names the dialog and the service accept (the bytes are checked as well). */
export const REAL_NAME_EXTENSIONS = ['png', 'jpeg', 'jpg'] as const;
export const REAL_NAME_TOO_LARGE = '上传文件最大为2M';
/** Signed image links live this long: enough to look, too short to pass around. */
export const REAL_NAME_LINK_TTL_SECONDS = 600;
export const REFUSE_REASON_MAX = 200;

export const realNameImageSchema = z.object({
  /** Stable id of the stored image (re-submit it with updateRealNameImgs). */
  id: z.string(),
  slot: z.enum(REAL_NAME_SLOTS),
  /** Short-lived signed link, issued only to the owner and operators. */
  url: z.string(),
  mime: z.string(),
  size: z.number().int(),
});

export const realNameInfoSchema = z.object({
  /** 0 unverified, 1 verified, 2 under review, 3 refused. */
  status: z.number().int(),
  /** The latest submission's links: [社保记录, 营业执照] (empty before the first submission). */
  imgs: z.array(z.string()),
  images: z.array(realNameImageSchema),
  /** Why the latest review was refused (only while the status is 3). */
  refuseReason: z.string().nullable(),
  submittedAt: epochMsField.nullable(),
  decidedAt: epochMsField.nullable(),
});
export type RealNameInfo = z.infer<typeof realNameInfoSchema>;

const multipartNote = `multipart/form-data。只接受 png、jpeg、jpg（按文件内容判断，改扩展名无效），每张不超过 ${IMAGE_MAX_BYTES / 1024 / 1024} MB；文件名只作标签，不能含路径。`;

export const uploadRealNameSource = defineCall({
  id: 'realName.uploadRealNameSource',
  method: 'POST',
  path: '/api/uploadRealNameSource',
  audience: 'customer',
  tag: TAG,
  summary: '提交实名认证资料（两张图片）',
  description: `${multipartNote}字段 imgs 恰好两个文件，依次为社保记录、营业执照。提交后状态变为审核中（2）；已认证（1）的公司不能再提交。任一文件不合格则整次提交被拒绝，不保存任何文件。`,
  request: z.strictObject({}).optional().default({}),
  response: realNameInfoSchema,
});

export const uploadImg = defineCall({
  id: 'realName.uploadImg',
  method: 'POST',
  path: '/api/uploadImg',
  audience: 'customer',
  tag: TAG,
  summary: '上传一张实名认证图片',
  description: `${multipartNote}字段 img 一个文件。返回图片编号和短时链接，随后用 updateRealNameImgs 提交；未提交的图片一天后清理。`,
  request: z.strictObject({}).optional().default({}),
  response: z.object({ id: z.string(), url: z.string(), mime: z.string(), size: z.number().int() }),
});

const imageRef = z.string({ error: '请提供图片' }).trim().min(1, '请提供图片').max(500, '图片地址无效');

export const updateRealNameImgs = defineCall({
  id: 'realName.updateRealNameImgs',
  method: 'POST',
  path: '/api/updateRealNameImgs',
  audience: 'customer',
  tag: TAG,
  summary: '重新提交实名认证图片',
  description:
    'imgs 为两项：社保记录、营业执照，每项是本公司已上传图片的编号或本服务发出的图片链接（getRealNameImgs / uploadImg 返回的）。图片未变时直接提交原链接即可。提交后状态变为审核中（2）。',
  request: z.strictObject({
    imgs: z
      .array(imageRef, { error: 'imgs 须为两项：社保记录、营业执照' })
      .length(2, 'imgs 须为两项：社保记录、营业执照'),
  }),
  response: realNameInfoSchema,
});

export const getRealNameImgs = defineCall({
  id: 'realName.getRealNameImgs',
  method: 'POST',
  path: '/api/getRealNameImgs',
  audience: 'user',
  tag: TAG,
  summary: '实名认证资料与驳回原因',
  description:
    '不传 userId 或传自己的编号：本公司的资料。运营可查看任一公司；客户查看其他公司会被拒绝（40300）。',
  request: z.strictObject({ userId: idField('用户编号').optional() }),
  response: realNameInfoSchema,
});

export const passRealNameAuth = defineCall({
  id: 'realName.passRealNameAuth',
  method: 'POST',
  path: '/api/passRealNameAuth',
  audience: 'operator',
  tag: TAG_OPS,
  summary: '通过实名认证（运营）',
  description: '只能审核状态为审核中（2）的公司。',
  request: z.strictObject({ userId: idField('用户编号') }),
  response: realNameInfoSchema,
});

export const refuseRealNameAuth = defineCall({
  id: 'realName.refuseRealNameAuth',
  method: 'POST',
  path: '/api/refuseRealNameAuth',
  audience: 'operator',
  tag: TAG_OPS,
  summary: '驳回实名认证（运营）',
  description: '只能审核状态为审核中（2）的公司；驳回原因必填，客户在实名认证对话框中可见。',
  request: z.strictObject({
    userId: idField('用户编号'),
    reason: textField('驳回原因', { min: 2, max: REFUSE_REASON_MAX, multiline: true }),
  }),
  response: realNameInfoSchema,
});

export const isOpenRealName = defineCall({
  id: 'realName.isOpenRealName',
  method: 'POST',
  path: '/api/isOpenRealName',
  audience: 'user',
  tag: TAG,
  summary: '是否要求实名认证',
  description: '开启时，未通过实名认证的公司不能购买或续费套餐、不能开通 API 或新建子账号（40303）。',
  request: emptyRequest,
  response: z.object({ open: z.boolean() }),
});

export const openRealName = defineCall({
  id: 'realName.openRealName',
  method: 'POST',
  path: '/api/openRealName',
  audience: 'operator',
  tag: TAG_OPS,
  summary: '开关实名认证要求（运营）',
  request: z.strictObject({ open: z.boolean({ error: 'open 须为 true 或 false' }) }),
  response: z.object({ open: z.boolean() }),
});

export const reviewStateSchema = z.enum(['pending', 'passed', 'refused', 'superseded']);
export type ReviewState = z.infer<typeof reviewStateSchema>;
export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  pending: '待审核',
  passed: '已通过',
  refused: '已驳回',
  superseded: '已重新提交',
};

export const reviewSchema = z.object({
  id: z.string(),
  userId: z.string(),
  companyName: z.string(),
  companyAccount: z.string(),
  /** The company's status now (the review may be an older one). */
  realNameStatus: z.number().int(),
  state: reviewStateSchema,
  images: z.array(realNameImageSchema),
  refuseReason: z.string().nullable(),
  submittedAt: epochMsField,
  decidedAt: epochMsField.nullable(),
  decidedBy: z.string().nullable(),
});
export type RealNameReview = z.infer<typeof reviewSchema>;

export const adminReviewList = defineCall({
  id: 'admin.realNameList',
  method: 'POST',
  path: '/api/admin/realname/list',
  audience: 'operator',
  tag: TAG_OPS,
  summary: '实名审核队列与历史（运营）',
  description:
    '每次提交一条。state=pending 为待审核队列（最早提交在前）；其他状态或不传为历史（最新在前）。可按公司名称、账号或编号筛选。',
  request: z.strictObject({
    ...pageFields,
    state: reviewStateSchema.optional(),
    keyword: z.string().trim().max(50).optional(),
    userId: idField('用户编号').optional(),
  }),
  response: pageOf(reviewSchema),
});
