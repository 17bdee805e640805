import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { CONTACT_BATCH_MAX, QR_LONG_POLL_MAX_SECONDS, TEXT_MAX_BYTES } from '../constants.js';
import { epochMsField, httpUrlField, idField, subAccountIdField, textField } from '../fields.js';

/**
 * The messaging gateway (/api/msg/*, server module `messaging`): what customers' programs call with
 * their sub-account credentials, and what the console's online tester calls with the console session.
 * Message ids are strings (newMsgId is 64-bit); message times are unix seconds.
 */
const TAG_LOGIN = '消息网关·登录';
const TAG_SEND = '消息网关·发送消息';
const TAG_CONTACTS = '消息网关·通讯录';
const TAG_MEDIA = '消息网关·消息与媒体';

export const wxidField = z
  .string({ error: '请提供微信号 wxid' })
  .trim()
  .min(1, '请提供微信号 wxid')
  .max(64, 'wxid 不能超过 64 个字符')
  .regex(/^[\w@.-]+$/, 'wxid 只能包含字母、数字、_ - . @')
  .meta({ description: '已登录的微信号 wxid', example: 'wxid_sim_7k2m9q' });

const peerField = z
  .string({ error: '请提供接收方 toWxid' })
  .trim()
  .min(1, '请提供接收方 toWxid')
  .max(64, 'toWxid 不能超过 64 个字符')
  .regex(/^[\w@.-]+$/, 'toWxid 只能包含字母、数字、_ - . @')
  .meta({ description: '接收方：好友 wxid，或群 id（以 @chatroom 结尾）', example: 'wxid_friend_01' });

const mediaUrl = (label: string, example: string) =>
  httpUrlField.meta({
    description: `${label}地址（http/https；可先用 /api/tools/getSourceUrl 上传获得）`,
    example,
  });

export const qrStateSchema = z.enum([
  'waiting',
  'scanned',
  'need_verify',
  'confirmed',
  'cancelled',
  'expired',
]);
export type QrState = z.infer<typeof qrStateSchema>;
/** A QR code still waiting for its phone: it can be scanned, confirmed, cancelled or expire. */
export const ACTIVE_QR_STATES = ['waiting', 'scanned', 'need_verify'] as const satisfies readonly QrState[];
export const isActiveQrState = (state: QrState): boolean =>
  (ACTIVE_QR_STATES as readonly QrState[]).includes(state);

export const wxAccountSchema = z.object({
  wxid: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  alias: z.string(),
  subAccountId: z.string(),
  subAccountName: z.string(),
  deviceId: z.string(),
  status: z.enum(['online', 'offline']),
  onlineSince: epochMsField.nullable(),
  lastOfflineAt: epochMsField.nullable(),
  logoutReason: z.string().nullable(),
  remark: z.string(),
  expireAt: epochMsField.nullable(),
  firstLoginAt: epochMsField,
  lastLoginAt: epochMsField,
});
export type WxAccount = z.infer<typeof wxAccountSchema>;

export const messageSchema = z.object({
  msgId: z.string(),
  newMsgId: z.string(),
  /** Unix seconds. */
  createTime: z.number().int(),
  /** 1 text, 3 image, 34 voice, 42 card, 43 video, 47 emoji, 49 app (appType 5 link, 6 file, 33 mini-app), 10000 system. */
  type: z.number().int(),
  appType: z.number().int().nullable(),
  direction: z.enum(['in', 'out']),
  wxid: z.string(),
  /** The conversation: a contact's wxid or a group id. */
  peer: z.string(),
  /** Who wrote it (in a group, the member). */
  sender: z.string(),
  content: z.string(),
  media: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  status: z.enum(['queued', 'sent', 'failed']),
  error: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const sendResultSchema = z.object({
  msgId: z.string(),
  newMsgId: z.string(),
  createTime: z.number().int(),
  type: z.number().int(),
  /** queued: accepted into the account's paced send queue; the final state arrives as a callback. */
  status: z.enum(['queued', 'sent', 'failed']),
});

export const contactSchema = z.object({
  wxid: z.string(),
  nickname: z.string(),
  remark: z.string(),
  alias: z.string(),
  avatar: z.string(),
  sex: z.number().int(),
  signature: z.string(),
  country: z.string(),
  province: z.string(),
  city: z.string(),
  /** friend | chatroom | gh (official account) */
  kind: z.enum(['friend', 'chatroom', 'gh']),
});
export type Contact = z.infer<typeof contactSchema>;

// ---- login
export const getQrCode = defineCall({
  id: 'msg.getQrCode',
  method: 'POST',
  path: '/api/msg/getQrCode',
  audience: 'customerOrApi',
  tag: TAG_LOGIN,
  summary: '获取登录二维码',
  description:
    '为新登录生成二维码。传入已知设备的 deviceId 即在该设备上重新登录（同一设备登录可降低风控）。需子账号有空余额度且公司套餐有效。返回 instanceId 用于查询扫码状态。模拟器中二维码内容为一个确认页面链接，可用手机或另一个浏览器标签打开。',
  request: z.strictObject({
    subAccountId: subAccountIdField.optional(),
    deviceId: idField('设备编号').meta({ description: '重新登录时传入已有设备编号' }).optional(),
    proxy: z.string().max(32).meta({ description: '登录地区代码，见 proxyList', example: 'sh' }).optional(),
  }),
  response: z.object({
    instanceId: z.string(),
    deviceId: z.string(),
    qrUrl: z.string(),
    qrImage: z.string(),
    expiresIn: z.number().int(),
  }),
});

const qrStatusSchema = z.object({
  instanceId: z.string(),
  state: qrStateSchema,
  expiresIn: z.number().int(),
  scanner: z.object({ nickname: z.string(), avatar: z.string() }).nullable(),
  account: wxAccountSchema.nullable(),
  /** Why the attempt ended without a login (refused for quota or package, …); null otherwise. */
  reason: z.string().nullable(),
});

export const checkQrCode = defineCall({
  id: 'msg.checkQrCode',
  method: 'POST',
  path: '/api/msg/checkQrCode',
  audience: 'customerOrApi',
  tag: TAG_LOGIN,
  summary: '查询扫码状态',
  description:
    'state：waiting 等待扫码，scanned 已扫码待确认，need_verify 需在手机上完成验证，confirmed 已登录（account 为登录的账号），cancelled 已取消，expired 已过期。建议每 1-5 秒查询一次，或使用 checkQrCodeLoop。',
  request: z.strictObject({ instanceId: idField('instanceId') }),
  response: qrStatusSchema,
});

export const checkQrCodeLoop = defineCall({
  id: 'msg.checkQrCodeLoop',
  method: 'POST',
  path: '/api/msg/checkQrCodeLoop',
  audience: 'customerOrApi',
  tag: TAG_LOGIN,
  summary: '长轮询扫码状态',
  description: `状态与 lastState 不同时立即返回，否则最多等待 waitSeconds 秒（1-${QR_LONG_POLL_MAX_SECONDS}，默认 25）后返回当前状态。`,
  request: z.strictObject({
    instanceId: idField('instanceId'),
    lastState: qrStateSchema.optional(),
    waitSeconds: z
      .number()
      .int()
      .min(1, `waitSeconds 须为 1-${QR_LONG_POLL_MAX_SECONDS}`)
      .max(QR_LONG_POLL_MAX_SECONDS, `waitSeconds 须为 1-${QR_LONG_POLL_MAX_SECONDS}`)
      .optional()
      .default(25),
  }),
  response: qrStatusSchema,
});

export const getAuth = defineCall({
  id: 'msg.getAuth',
  method: 'POST',
  path: '/api/msg/getAuth',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_LOGIN,
  summary: '查询账号登录状态',
  description: '返回账号资料、在线状态、登录设备、所属子账号与到期时间。',
  request: z.strictObject({ wxid: wxidField }),
  response: wxAccountSchema,
});

export const logout = defineCall({
  id: 'msg.logout',
  method: 'POST',
  path: '/api/msg/logout',
  audience: 'customerOrApi',
  tag: TAG_LOGIN,
  summary: '退出登录',
  description: '账号下线并释放子账号额度；之后可用同一设备重新登录。',
  request: z.strictObject({ wxid: wxidField }),
  response: wxAccountSchema,
});

export const proxyList = defineCall({
  id: 'msg.proxyList',
  method: 'POST',
  path: '/api/msg/proxyList',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_LOGIN,
  summary: '登录地区（代理线路）列表',
  request: emptyRequest,
  response: z.object({ list: z.array(z.object({ code: z.string(), name: z.string(), region: z.string() })) }),
});

// ---- sending
const sendBase = { wxid: wxidField, toWxid: peerField };

/** What every send call shares: paced, queued, answered with the message ids. */
const SEND = {
  method: 'POST',
  audience: 'customerOrApi',
  tag: TAG_SEND,
  response: sendResultSchema,
} as const;
const queued = (note = '') =>
  `${note}消息进入该账号的发送队列（按节奏发送以避免风控），立即返回消息编号；发送结果以回调通知。`;

const textContent = z
  .string({ error: '请输入消息内容' })
  .min(1, '请输入消息内容')
  .refine(
    (v) => new TextEncoder().encode(v).length <= TEXT_MAX_BYTES,
    `消息内容不能超过 ${TEXT_MAX_BYTES} 字节（UTF-8）`,
  )
  .meta({ description: '文本内容', example: '你好，这是一条测试消息' });

export const sendMsgText = defineCall({
  ...SEND,
  id: 'msg.sendMsgText',
  path: '/api/msg/sendMsgText',
  summary: '发送文本消息',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    content: textContent,
    at: z
      .array(z.string().max(64))
      .max(50, '最多 @ 50 人')
      .optional()
      .meta({ description: '群聊中要 @ 的成员 wxid；["notify@all"] 为 @所有人' }),
  }),
});

export const sendMsgImg = defineCall({
  ...SEND,
  id: 'msg.sendMsgImg',
  path: '/api/msg/sendMsgImg',
  summary: '发送图片',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    imageUrl: mediaUrl('图片', 'https://example.com/pic.jpg'),
  }),
});

export const sendMsgVideo = defineCall({
  ...SEND,
  id: 'msg.sendMsgVideo',
  path: '/api/msg/sendMsgVideo',
  summary: '发送视频',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    videoUrl: mediaUrl('视频', 'https://example.com/clip.mp4'),
    thumbUrl: mediaUrl('封面图', 'https://example.com/clip.jpg'),
    duration: z
      .number()
      .int()
      .min(1, 'duration 为视频秒数')
      .max(3600, '视频不能超过 3600 秒')
      .meta({ description: '时长（秒）', example: 12 }),
  }),
});

export const sendMsgFile = defineCall({
  ...SEND,
  id: 'msg.sendMsgFile',
  path: '/api/msg/sendMsgFile',
  summary: '发送文件',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    fileUrl: mediaUrl('文件', 'https://example.com/report.pdf'),
    fileName: textField('文件名', { max: 128 })
      .regex(/^[^/\\]+$/, '文件名不能包含路径')
      .meta({ description: '显示的文件名', example: '报告.pdf' }),
  }),
});

export const sendMsgLink = defineCall({
  ...SEND,
  id: 'msg.sendMsgLink',
  path: '/api/msg/sendMsgLink',
  summary: '发送链接卡片',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    title: textField('标题', { max: 50 }).meta({ example: '产品介绍' }),
    description: textField('描述', { min: 0, max: 100 })
      .optional()
      .default('')
      .meta({ example: '三分钟了解我们的服务' }),
    url: httpUrlField.meta({ description: '点击卡片打开的地址', example: 'https://example.com/intro' }),
    thumbUrl: mediaUrl('缩略图', 'https://example.com/thumb.jpg').optional(),
  }),
});

export const sendMsgApp = defineCall({
  ...SEND,
  id: 'msg.sendMsgApp',
  path: '/api/msg/sendMsgApp',
  summary: '发送小程序卡片',
  description: queued(),
  request: z.strictObject({
    ...sendBase,
    appId: z
      .string({ error: '请提供 appId' })
      .trim()
      .regex(/^wx[0-9a-f]{16}$/, 'appId 格式为 wx 加 16 位十六进制')
      .meta({ example: 'wx1234567890abcdef' }),
    username: z
      .string({ error: '请提供小程序原始 id' })
      .trim()
      .regex(/^gh_[0-9a-f]{12}@app$/, 'username 格式为 gh_ 加 12 位十六进制再加 @app')
      .meta({ description: '小程序原始 id', example: 'gh_0123456789ab@app' }),
    title: textField('标题', { max: 50 }).meta({ example: '查看订单' }),
    coverUrl: mediaUrl('封面', 'https://example.com/cover.jpg'),
    pagePath: z
      .string({ error: '请提供页面路径' })
      .trim()
      .min(1, '请提供页面路径')
      .max(200)
      .meta({ example: 'pages/index/index.html' }),
    displayName: textField('小程序名称', { max: 30 }).meta({ example: '示例商城' }),
  }),
});

export const sendMsgEmoji = defineCall({
  ...SEND,
  id: 'msg.sendMsgEmoji',
  path: '/api/msg/sendMsgEmoji',
  summary: '发送表情',
  description: queued('表情须为平台已有的表情（md5 和大小取自收到的表情消息）。'),
  request: z.strictObject({
    ...sendBase,
    md5: z
      .string({ error: '请提供表情 md5' })
      .regex(/^[0-9a-f]{32}$/, 'md5 为 32 位十六进制')
      .meta({ example: '4cc7540a85b5b6cf4ba14e9f4ae08b7c' }),
    size: z
      .number()
      .int()
      .min(1)
      .max(10 * 1024 * 1024)
      .meta({ description: '表情文件大小（字节）', example: 102357 }),
  }),
});

export const sendMsgVoice = defineCall({
  ...SEND,
  id: 'msg.sendMsgVoice',
  path: '/api/msg/sendMsgVoice',
  summary: '发送语音',
  description: queued('语音文件须为 SILK 格式。'),
  request: z.strictObject({
    ...sendBase,
    voiceUrl: mediaUrl('语音（.silk）', 'https://example.com/voice.silk'),
    duration: z
      .number()
      .int()
      .min(1, 'duration 为毫秒数')
      .max(60_000, '语音不能超过 60 秒')
      .meta({ description: '时长（毫秒）', example: 3000 }),
  }),
});

// ---- contacts
export const syncInitAddressList = defineCall({
  id: 'msg.syncInitAddressList',
  method: 'POST',
  path: '/api/msg/syncInitAddressList',
  audience: 'customerOrApi',
  tag: TAG_CONTACTS,
  summary: '开始同步通讯录（异步）',
  description: '通讯录较大时拉取较慢，因此为异步：调用后用 getInitAddressListRes 查询结果。',
  request: z.strictObject({ wxid: wxidField }),
  response: z.object({ jobId: z.string(), status: z.enum(['running', 'done', 'failed']) }),
});

export const getInitAddressListRes = defineCall({
  id: 'msg.getInitAddressListRes',
  method: 'POST',
  path: '/api/msg/getInitAddressListRes',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_CONTACTS,
  summary: '查询通讯录同步结果',
  description: 'status 为 done 时返回好友、群聊、公众号的 id 列表；未保存到通讯录的群只有在有人发言后出现。',
  request: z.strictObject({ wxid: wxidField }),
  response: z.object({
    jobId: z.string().nullable(),
    status: z.enum(['none', 'running', 'done', 'failed']),
    friends: z.array(z.string()),
    chatrooms: z.array(z.string()),
    ghs: z.array(z.string()),
    finishedAt: epochMsField.nullable(),
  }),
});

export const getAddressList = defineCall({
  id: 'msg.getAddressList',
  method: 'POST',
  path: '/api/msg/getAddressList',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_CONTACTS,
  summary: '通讯录（已同步的联系人资料）',
  description: '返回最近一次同步得到的联系人及其资料；从未同步过时先同步一次。',
  request: z.strictObject({ wxid: wxidField }),
  response: z.object({ list: z.array(contactSchema) }),
});

export const getContact = defineCall({
  id: 'msg.getContact',
  method: 'POST',
  path: '/api/msg/getContact',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_CONTACTS,
  summary: '联系人详情（批量）',
  description: `一次最多 ${CONTACT_BATCH_MAX} 个；不存在的 id 不返回。`,
  request: z.strictObject({
    wxid: wxidField,
    ids: z
      .array(peerField)
      .min(1, '请提供要查询的 id')
      .max(CONTACT_BATCH_MAX, `一次最多查询 ${CONTACT_BATCH_MAX} 个联系人`)
      .meta({ example: ['wxid_friend_01'] }),
  }),
  response: z.object({ list: z.array(contactSchema) }),
});

export const getChatRoomMember = defineCall({
  id: 'msg.getChatRoomMember',
  method: 'POST',
  path: '/api/msg/getChatRoomMember',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_CONTACTS,
  summary: '群成员',
  request: z.strictObject({
    wxid: wxidField,
    roomId: z
      .string({ error: '请提供群 id' })
      .regex(/^[\w.-]+@chatroom$/, '群 id 以 @chatroom 结尾')
      .meta({ example: '1234567890@chatroom' }),
  }),
  response: z.object({
    roomId: z.string(),
    name: z.string(),
    owner: z.string(),
    avatar: z.string(),
    members: z.array(
      z.object({
        wxid: z.string(),
        nickname: z.string(),
        displayName: z.string(),
        inviter: z.string(),
        avatar: z.string(),
      }),
    ),
  }),
});

// ---- messages and media
export const showMsgConsole = defineCall({
  id: 'msg.showMsgConsole',
  method: 'POST',
  path: '/api/msg/showMsgConsole',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_MEDIA,
  summary: '消息记录',
  description: '该账号收发的消息，按时间倒序；可按会话（peer）筛选，用 beforeMsgId 向前翻页。',
  request: z.strictObject({
    wxid: wxidField,
    peer: peerField.optional(),
    beforeMsgId: z.string().max(32).optional(),
    limit: z.number().int().min(1).max(100).optional().default(30),
  }),
  response: z.object({ list: z.array(messageSchema), hasMore: z.boolean() }),
});

export const getMsgImg = defineCall({
  id: 'msg.getMsgImg',
  method: 'POST',
  path: '/api/msg/getMsgImg',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_MEDIA,
  summary: '下载收到的图片',
  description: '回调中的图片消息只带编号，用本接口换取可下载的地址（地址 1 小时内有效）。',
  request: z.strictObject({ wxid: wxidField, msgId: z.string({ error: '请提供 msgId' }).min(1).max(32) }),
  response: z.object({ url: z.string(), mime: z.string(), size: z.number().int(), expiresAt: epochMsField }),
});

export const getMsgVideo = defineCall({
  id: 'msg.getMsgVideo',
  method: 'POST',
  path: '/api/msg/getMsgVideo',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG_MEDIA,
  summary: '下载收到的视频',
  request: getMsgImg.request,
  response: getMsgImg.response,
});
