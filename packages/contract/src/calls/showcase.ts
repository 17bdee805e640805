import { z } from 'zod';
import { emptyRequest } from '../call.js';
import { textField } from '../fields.js';

/**
 * The template showcase's backend (server module `showcase`; spec "Mock endpoints", DESIGN.md §10):
 * `/vue-element-admin/*`, real and persisted, in the **template's protocol**, not the product's:
 *
 * - success is `{ code: 20000, data }` — a number, where the product answers the string "200";
 * - a failure is `{ code, message }` with a numeric code from SHOWCASE_CODES below (the template's
 *   60204 / 50008 / 50012 / 50014, and 4xxxx / 5xxxx codes of ours for bad input, missing rows,
 *   conflicts); the HTTP status matches the class, as for the product (read the body either way);
 * - every call needs the console's own session (`Authorization`, customer or operator, like a
 *   `user` call of the product); rows belong to the caller's company (a customer: its own id; an
 *   operator: its own id), so no company sees another's articles, roles or tokens;
 * - the showcase identities (`admin`, `editor`: `user/login` → a token, `user/info?token=`) exist
 *   only here: their tokens are random, stored hashed, scoped to the company, and no product call
 *   accepts them. They grant nothing outside the showcase.
 * - with SHOWCASE off every `/vue-element-admin/*` address answers 404.
 *
 * These calls are not in `allCalls` (the product's API: the online tester's catalogue, the audience
 * and fuzz sweeps, all in the product's envelope); they are `allShowcaseCalls` (`showcaseCalls.*` from the package index), swept the same way in
 * apps/server/test/showcase.test.ts. The OpenAPI document lists them (from the routes).
 */

/** The template's codes (numbers), each with its HTTP status and message. */
export const SHOWCASE_CODES = {
  OK: { code: 20000, status: 200, message: 'success' },
  /** The request does not match the call's schema; the message names the field. */
  BAD_INPUT: { code: 40000, status: 400, message: '请求参数错误' },
  NOT_FOUND: { code: 40400, status: 404, message: '请求的资源不存在' },
  /** A rule of the showcase refuses the change (a built-in role, a limit reached). */
  CONFLICT: { code: 40900, status: 409, message: '操作冲突，请刷新后重试' },
  TOO_MANY_REQUESTS: { code: 42900, status: 429, message: '请求过于频繁，请稍后再试' },
  INTERNAL: { code: 50000, status: 500, message: '服务器开小差了，请稍后再试' },
  BUSY: { code: 50300, status: 503, message: '服务繁忙，请稍后再试' },
  /** Template: illegal token (unknown, logged out, another company's). */
  ILLEGAL_TOKEN: { code: 50008, status: 401, message: 'Login failed, unable to get user details.' },
  /** Template: other clients logged in (a newer login of the same showcase user replaced this token). */
  OTHER_CLIENT: {
    code: 50012,
    status: 401,
    message: 'You have been logged out: this showcase user logged in elsewhere.',
  },
  /** Template: token expired (the showcase token's, or the console session's own). */
  TOKEN_EXPIRED: { code: 50014, status: 401, message: 'Token expired, please log in again.' },
  /** Template: the login was refused. */
  BAD_CREDENTIALS: { code: 60204, status: 401, message: 'Account and password are incorrect.' },
} as const;
export type ShowcaseCodeName = keyof typeof SHOWCASE_CODES;

/** The codes after which the console shows spec §8's "You have been logged out" confirm. */
export const SHOWCASE_LOGGED_OUT_CODES: readonly number[] = [50008, 50012, 50014];

/** Every showcase answer: success `{ code: 20000, data }`, failure `{ code, message }`. */
export function showcaseEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(SHOWCASE_CODES.OK.code), data });
}
export type ShowcaseEnvelope<T> = { code: 20000; data: T } | { code: number; message: string };

/** One showcase call: like a product CallDef, plus PUT/DELETE and path parameters. */
export interface ShowcaseCallDef<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** Stable operation id, `showcase.<name>`. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The full path, a literal (`/vue-element-admin/role/:key`: Fastify's parameter syntax). */
  path: string;
  /** Always a logged-in console user (the product session); see the file's comment. */
  audience: 'user';
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters (`:key`). */
  params?: Params;
  /** Query for GET and DELETE, body for POST and PUT. */
  request: Req;
  /** The `data` of a successful answer. */
  response: Res;
}

export function defineShowcaseCall<
  Req extends z.ZodType,
  Res extends z.ZodType,
  Params extends z.ZodType | undefined = undefined,
>(def: ShowcaseCallDef<Req, Res, Params>): ShowcaseCallDef<Req, Res, Params> {
  return def;
}

export type ShowcaseRequest<C> = C extends ShowcaseCallDef<infer Req, z.ZodType> ? z.input<Req> : never;
export type ShowcaseResponse<C> = C extends ShowcaseCallDef<z.ZodType, infer Res> ? z.output<Res> : never;

const TAG = '模板展示';

// ---- fields

/** A query parameter holding a whole number (query values arrive as text). */
function queryInt(name: string, min: number, max: number) {
  const rule = `${name} 须为 ${min}-${max} 的整数`;
  return z
    .string({ error: rule })
    .regex(/^[0-9]{1,10}$/, rule)
    .transform(Number)
    .pipe(z.number().int().min(min, rule).max(max, rule));
}

/** Showcase role keys: the built-ins (`admin`, `editor`, `visitor`) and generated numbers 300–5000. */
export const SHOWCASE_ROLE_KEY_MIN = 300;
export const SHOWCASE_ROLE_KEY_MAX = 5000;
export const SHOWCASE_BUILTIN_ROLES = ['admin', 'editor', 'visitor'] as const;
export const SHOWCASE_USERS = ['admin', 'editor'] as const;
export type ShowcaseUser = (typeof SHOWCASE_USERS)[number];

const roleKeyField = z
  .string({ error: '请提供角色 key' })
  .regex(/^[A-Za-z0-9]{1,20}$/, '角色 key 只能是 1-20 位字母或数字');

export const ARTICLE_TYPES = ['CN', 'US', 'JP', 'EU'] as const;
export const ARTICLE_STATUSES = ['published', 'draft', 'deleted'] as const;
export const ARTICLE_PLATFORMS = ['a-platform', 'b-platform', 'c-platform'] as const;
/** The article list's page size when the request names none (spec §9: mock page size 20). */
export const SHOWCASE_PAGE_SIZE = 20;
/** Most characters of an article's rich text, before sanitising. */
export const ARTICLE_CONTENT_MAX = 100_000;

/** An http(s) address or nothing (an image or source link the console renders). */
const linkField = (label: string) =>
  z
    .string({ error: `${label}须为字符串` })
    .trim()
    .max(500, `${label}不能超过 500 个字符`)
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), `${label}须以 http:// 或 https:// 开头`);

// ---- the route table (data: GET routes, and the route trees of roles)

const routeMetaSchema = z.strictObject({
  title: textField('路由标题', { max: 50 }),
  icon: z.string().max(50, 'icon 不能超过 50 个字符').optional(),
  roles: z.array(roleKeyField).max(20, 'roles 最多 20 个').optional(),
  affix: z.boolean().optional(),
  noCache: z.boolean().optional(),
  breadcrumb: z.boolean().optional(),
});

const routeFields = {
  path: z.string({ error: '请提供路由 path' }).max(200, 'path 不能超过 200 个字符'),
  component: z.string().max(100, 'component 不能超过 100 个字符').optional(),
  name: z.string().max(100, 'name 不能超过 100 个字符').optional(),
  redirect: z.string().max(200, 'redirect 不能超过 200 个字符').optional(),
  hidden: z.boolean().optional(),
  alwaysShow: z.boolean().optional(),
  meta: routeMetaSchema.optional(),
};
const children = <T extends z.ZodType>(item: T) => z.array(item).max(50, '每层最多 50 个子路由').optional();
// Five levels at most (the deepest template route, /nested/menu1/menu1-2/menu1-2-1, uses four),
// written out rather than recursive: the schema (and its JSON Schema) stays finite.
const route5 = z.strictObject(routeFields);
const route4 = z.strictObject({ ...routeFields, children: children(route5) });
const route3 = z.strictObject({ ...routeFields, children: children(route4) });
const route2 = z.strictObject({ ...routeFields, children: children(route3) });
/** A route entry (spec §3 "Route entry"): path, component, name, redirect, hidden, alwaysShow, meta, children. */
export const showcaseRouteSchema = z.strictObject({ ...routeFields, children: children(route2) });
export type ShowcaseRoute = z.output<typeof showcaseRouteSchema>;

/** Most characters of a role's route tree as JSON. */
export const ROLE_ROUTES_MAX_CHARS = 64_000;
const routeTreeField = z
  .array(showcaseRouteSchema, { error: 'routes 须为路由数组' })
  .max(100, 'routes 最多 100 个')
  .refine(
    (r) => JSON.stringify(r).length <= ROLE_ROUTES_MAX_CHARS,
    `routes 过大（最多 ${ROLE_ROUTES_MAX_CHARS} 个字符）`,
  );

const layout = 'layout/Layout';
const page = (path: string, component: string, name: string, meta: z.input<typeof routeMetaSchema>) => ({
  path,
  component,
  name,
  meta,
});

/**
 * The showcase's routes (spec "Template demo routes"), with the template's meta: what `GET routes`
 * answers and what the built-in roles' trees are cut from. The dashboard is the product's own home
 * (the visitor role's tree); the catch-all to /404 belongs to the console's router, not to this list.
 */
export const SHOWCASE_ROUTES: ShowcaseRoute[] = [
  {
    path: '',
    component: layout,
    redirect: 'dashboard',
    children: [
      page('dashboard', 'views/dashboard/index', 'Dashboard', {
        title: '用户中心',
        icon: 'dashboard',
        affix: true,
      }),
    ],
  },
  {
    path: '/documentation',
    component: layout,
    children: [
      page('index', 'views/documentation/index', 'Documentation', {
        title: 'Documentation',
        icon: 'documentation',
        affix: true,
      }),
    ],
  },
  {
    path: '/guide',
    component: layout,
    redirect: '/guide/index',
    children: [page('index', 'views/guide/index', 'Guide', { title: 'Guide', icon: 'guide', noCache: true })],
  },
  {
    path: '/permission',
    component: layout,
    redirect: '/permission/page',
    alwaysShow: true,
    name: 'Permission',
    meta: { title: 'Permission', icon: 'lock', roles: ['admin', 'editor'] },
    children: [
      page('page', 'views/permission/page', 'PagePermission', { title: 'Page Permission', roles: ['admin'] }),
      page('directive', 'views/permission/directive', 'DirectivePermission', {
        title: 'Directive Permission',
      }),
      page('role', 'views/permission/role', 'RolePermission', { title: 'Role Permission', roles: ['admin'] }),
    ],
  },
  {
    path: '/icon',
    component: layout,
    children: [page('index', 'views/icons/index', 'Icons', { title: 'Icons', icon: 'icon', noCache: true })],
  },
  {
    path: '/components',
    component: layout,
    redirect: 'noRedirect',
    name: 'ComponentDemo',
    meta: { title: 'Components', icon: 'component' },
    children: [
      ['tinymce', 'Tinymce', 'Tinymce'],
      ['markdown', 'Markdown', 'Markdown'],
      ['json-editor', 'JsonEditor', 'JSON Editor'],
      ['split-pane', 'SplitPane', 'Split Pane'],
      ['avatar-upload', 'AvatarUpload', 'Avatar Upload'],
      ['dropzone', 'Dropzone', 'Dropzone'],
      ['sticky', 'Sticky', 'Sticky'],
      ['count-to', 'CountTo', 'Count To'],
      ['mixin', 'ComponentMixin', 'Component Mixin'],
      ['back-to-top', 'BackToTop', 'Back To Top'],
      ['drag-dialog', 'DragDialog', 'Drag Dialog'],
      ['drag-select', 'DragSelect', 'Drag Select'],
      ['dnd-list', 'DndList', 'Drag List'],
      ['drag-kanban', 'DragKanban', 'Drag Kanban'],
    ].map(([path, name, title]) =>
      page(path as string, `views/components-demo/${path}`, `${name}Demo`, { title: title as string }),
    ),
  },
  {
    path: '/charts',
    component: layout,
    redirect: 'noRedirect',
    name: 'Charts',
    meta: { title: 'Charts', icon: 'chart' },
    children: [
      page('keyboard', 'views/charts/keyboard', 'KeyboardChart', { title: 'Keyboard Chart', noCache: true }),
      page('line', 'views/charts/line', 'LineChart', { title: 'Line Chart', noCache: true }),
      page('mixchart', 'views/charts/mix-chart', 'MixChart', { title: 'Mix Chart', noCache: true }),
    ],
  },
  {
    path: '/nested',
    component: layout,
    redirect: '/nested/menu1/menu1-1',
    name: 'Nested',
    meta: { title: 'Nested Routes', icon: 'nested' },
    children: [
      {
        path: 'menu1',
        component: 'views/nested/menu1/index',
        name: 'Menu1',
        redirect: '/nested/menu1/menu1-1',
        meta: { title: 'Menu 1' },
        children: [
          page('menu1-1', 'views/nested/menu1/menu1-1', 'Menu1-1', { title: 'Menu 1-1' }),
          {
            path: 'menu1-2',
            component: 'views/nested/menu1/menu1-2',
            name: 'Menu1-2',
            redirect: '/nested/menu1/menu1-2/menu1-2-1',
            meta: { title: 'Menu 1-2' },
            children: [
              page('menu1-2-1', 'views/nested/menu1/menu1-2/menu1-2-1', 'Menu1-2-1', { title: 'Menu 1-2-1' }),
              page('menu1-2-2', 'views/nested/menu1/menu1-2/menu1-2-2', 'Menu1-2-2', { title: 'Menu 1-2-2' }),
            ],
          },
          page('menu1-3', 'views/nested/menu1/menu1-3', 'Menu1-3', { title: 'Menu 1-3' }),
        ],
      },
      page('menu2', 'views/nested/menu2/index', 'Menu2', { title: 'Menu 2' }),
    ],
  },
  {
    path: '/example',
    component: layout,
    redirect: '/example/list',
    name: 'Example',
    meta: { title: 'Example', icon: 'example' },
    children: [
      page('create', 'views/example/create', 'CreateArticle', { title: 'Create Article', icon: 'edit' }),
      {
        ...page('edit/:id(\\d+)', 'views/example/edit', 'EditArticle', {
          title: 'Edit Article',
          noCache: true,
        }),
        hidden: true,
      },
      page('list', 'views/example/list', 'ArticleList', { title: 'Article List', icon: 'list' }),
    ],
  },
  {
    path: '/tab',
    component: layout,
    children: [page('index', 'views/tab/index', 'Tab', { title: 'Tab', icon: 'tab' })],
  },
  {
    path: '/error',
    component: layout,
    redirect: 'noRedirect',
    name: 'ErrorPages',
    meta: { title: 'Error Pages', icon: '404' },
    children: [
      page('401', 'views/error-page/401', 'Page401', { title: '401', noCache: true }),
      page('404', 'views/error-page/404', 'Page404', { title: '404', noCache: true }),
    ],
  },
  {
    path: '/error-log',
    component: layout,
    children: [page('log', 'views/error-log/index', 'ErrorLog', { title: 'Error Log', icon: 'bug' })],
  },
  {
    path: '/excel',
    component: layout,
    redirect: '/excel/export-excel',
    name: 'Excel',
    meta: { title: 'Excel', icon: 'excel' },
    children: [
      page('export-excel', 'views/excel/export-excel', 'ExportExcel', { title: 'Export Excel' }),
      page('export-selected-excel', 'views/excel/select-excel', 'SelectExcel', { title: 'Export Selected' }),
      page('export-merge-header', 'views/excel/merge-header', 'MergeHeader', { title: 'Merge Header' }),
      page('upload-excel', 'views/excel/upload-excel', 'UploadExcel', { title: 'Upload Excel' }),
    ],
  },
  {
    path: '/zip',
    component: layout,
    redirect: '/zip/download',
    alwaysShow: true,
    name: 'Zip',
    meta: { title: 'Zip', icon: 'zip' },
    children: [page('download', 'views/zip/index', 'ExportZip', { title: 'Export Zip' })],
  },
  {
    path: '/pdf',
    component: layout,
    redirect: '/pdf/index',
    children: [page('index', 'views/pdf/index', 'PDF', { title: 'PDF', icon: 'pdf' })],
  },
  { path: '/pdf/download', component: 'views/pdf/download', hidden: true },
  {
    path: '/theme',
    component: layout,
    children: [page('index', 'views/theme/index', 'Theme', { title: 'Theme', icon: 'theme' })],
  },
  {
    path: '/clipboard',
    component: layout,
    children: [
      page('index', 'views/clipboard/index', 'ClipboardDemo', { title: 'Clipboard', icon: 'clipboard' }),
    ],
  },
  {
    path: '/i18n',
    component: layout,
    children: [page('index', 'views/i18n-demo/index', 'I18n', { title: 'I18n', icon: 'international' })],
  },
  {
    path: 'external-link',
    component: layout,
    children: [
      {
        path: 'https://github.com/PanJiaChen/vue-element-admin',
        meta: { title: 'External Link', icon: 'link' },
      },
    ],
  },
];

// ---- schemas of the answers

export const showcaseUserInfoSchema = z.object({
  roles: z.array(z.string()),
  introduction: z.string(),
  avatar: z.string(),
  name: z.string(),
});

/** An article, with the template's field names (spec: the article-editing example). */
export const showcaseArticleSchema = z.object({
  /** A whole number, per company (the console's `/example/edit/:id` takes digits only). */
  id: z.number().int(),
  /** Epoch milliseconds (the article's display time). */
  timestamp: z.number().int(),
  /** `timestamp` as `YYYY-MM-DD HH:mm:ss`, Beijing time. */
  display_time: z.string(),
  author: z.string(),
  reviewer: z.string(),
  title: z.string(),
  content_short: z.string(),
  /** Rich text, sanitised by the server (an allow-list: no script, no event handlers, no javascript: links). */
  content: z.string(),
  forecast: z.number(),
  importance: z.number().int(),
  type: z.enum(ARTICLE_TYPES),
  status: z.enum(ARTICLE_STATUSES),
  comment_disabled: z.boolean(),
  pageviews: z.number().int(),
  image_uri: z.string(),
  source_uri: z.string(),
  platforms: z.array(z.enum(ARTICLE_PLATFORMS)),
});
export type ShowcaseArticle = z.output<typeof showcaseArticleSchema>;

export const showcaseRoleSchema = z.object({
  /** `admin`, `editor`, `visitor`, or a generated number (as text). */
  key: z.string(),
  name: z.string(),
  description: z.string(),
  routes: z.array(showcaseRouteSchema),
});
export type ShowcaseRole = z.output<typeof showcaseRoleSchema>;

const statusSuccess = z.object({ status: z.literal('success') });

// ---- the article fields a person edits

const articleFields = {
  title: textField('标题', { max: 100 }),
  content: z
    .string({ error: '正文须为字符串' })
    .max(ARTICLE_CONTENT_MAX, `正文不能超过 ${ARTICLE_CONTENT_MAX} 个字符`),
  content_short: textField('摘要', { min: 0, max: 500, multiline: true }),
  author: textField('作者', { min: 0, max: 50 }),
  reviewer: textField('审核人', { min: 0, max: 50 }),
  importance: z
    .number({ error: 'importance 须为 1-3 的整数' })
    .int('importance 须为 1-3 的整数')
    .min(1, 'importance 须为 1-3 的整数')
    .max(3, 'importance 须为 1-3 的整数'),
  type: z.enum(ARTICLE_TYPES, { error: `type 须为 ${ARTICLE_TYPES.join('、')} 之一` }),
  status: z.enum(ARTICLE_STATUSES, { error: `status 须为 ${ARTICLE_STATUSES.join('、')} 之一` }),
  timestamp: z
    .number({ error: 'timestamp 须为毫秒时间戳' })
    .int('timestamp 须为毫秒时间戳')
    .min(0, 'timestamp 须为毫秒时间戳')
    .max(4_102_444_800_000, 'timestamp 须早于 2100 年'),
  forecast: z
    .number({ error: 'forecast 须为 0-100 的数' })
    .min(0, 'forecast 须为 0-100 的数')
    .max(100, 'forecast 须为 0-100 的数'),
  comment_disabled: z.boolean({ error: 'comment_disabled 须为布尔值' }),
  image_uri: linkField('图片地址'),
  source_uri: linkField('来源地址'),
  platforms: z
    .array(z.enum(ARTICLE_PLATFORMS, { error: `platforms 只能包含 ${ARTICLE_PLATFORMS.join('、')}` }))
    .max(ARTICLE_PLATFORMS.length)
    .refine((p) => new Set(p).size === p.length, 'platforms 不能重复'),
};
const articleIdField = z
  .number({ error: 'id 须为正整数' })
  .int('id 须为正整数')
  .min(1, 'id 须为正整数')
  .max(2_147_483_647, 'id 须为正整数');

// ---- the calls

export const login = defineShowcaseCall({
  id: 'showcase.login',
  method: 'POST',
  path: '/vue-element-admin/user/login',
  audience: 'user',
  tag: TAG,
  summary: '登录展示账号（admin 或 editor），得到展示令牌',
  description:
    '只在模板展示内有效：令牌随机生成、哈希保存、属于当前公司，任何产品接口都不接受它。同一展示账号再次登录时，旧令牌失效（50012）。用户名不是 admin/editor 时答 60204。',
  request: z.strictObject({
    username: textField('用户名', { max: 50 }),
    password: z.string({ error: '请输入密码' }).min(6, '密码至少 6 个字符').max(64, '密码不能超过 64 个字符'),
  }),
  response: z.object({ token: z.string() }),
});

export const userInfo = defineShowcaseCall({
  id: 'showcase.userInfo',
  method: 'GET',
  path: '/vue-element-admin/user/info',
  audience: 'user',
  tag: TAG,
  summary: '展示账号信息（roles、introduction、avatar、name）',
  description: '令牌未知、已退出或属于其他公司：50008；被新的登录取代：50012；已过期：50014。',
  request: z.strictObject({
    token: z.string({ error: '请提供 token' }).min(1, '请提供 token').max(512, 'token 无效'),
  }),
  response: showcaseUserInfoSchema,
});

export const logout = defineShowcaseCall({
  id: 'showcase.logout',
  method: 'POST',
  path: '/vue-element-admin/user/logout',
  audience: 'user',
  tag: TAG,
  summary: '退出展示账号（令牌作废）',
  description: '令牌放在请求体 token 或请求头 X-Token（模板的做法）中；未知的令牌也答成功。',
  request: z
    .strictObject({ token: z.string().min(1, 'token 无效').max(512, 'token 无效').optional() })
    .optional()
    .default({}),
  response: z.literal('success'),
});

export const articleList = defineShowcaseCall({
  id: 'showcase.articleList',
  method: 'GET',
  path: '/vue-element-admin/article/list',
  audience: 'user',
  tag: TAG,
  summary: '文章列表（按 importance、type、title 筛选，按 id 排序，分页）',
  request: z.strictObject({
    importance: z
      .string()
      .regex(/^[1-3]?$/, 'importance 须为 1-3 的整数')
      .transform((v) => (v === '' ? undefined : Number(v)))
      .optional(),
    type: z
      .enum([...ARTICLE_TYPES, ''], { error: `type 须为 ${ARTICLE_TYPES.join('、')} 之一` })
      .transform((v) => (v === '' ? undefined : v))
      .optional(),
    title: textField('标题', { min: 0, max: 100 }).optional(),
    /** `+id` ascending (default), `-id` descending; a `+` sent unencoded arrives as a space. */
    sort: z
      .string()
      .regex(/^[+ -]id$/, 'sort 须为 +id 或 -id')
      .transform((v) => (v === '-id' ? ('-id' as const) : ('+id' as const)))
      .optional(),
    page: queryInt('page', 1, 100_000).optional(),
    limit: queryInt('limit', 1, 100).optional(),
  }),
  response: z.object({ total: z.number().int(), items: z.array(showcaseArticleSchema) }),
});

export const articleDetail = defineShowcaseCall({
  id: 'showcase.articleDetail',
  method: 'GET',
  path: '/vue-element-admin/article/detail',
  audience: 'user',
  tag: TAG,
  summary: '一篇文章',
  request: z.strictObject({ id: queryInt('id', 1, 2_147_483_647) }),
  response: showcaseArticleSchema,
});

export const articlePv = defineShowcaseCall({
  id: 'showcase.articlePv',
  method: 'GET',
  path: '/vue-element-admin/article/pv',
  audience: 'user',
  tag: TAG,
  summary: '浏览量按平台拆分（PC、mobile、ios、android）',
  description: '把给定的浏览量 pv 按固定比例拆到四个平台，各平台之和等于 pv。',
  request: z.strictObject({ pv: queryInt('pv', 0, 1_000_000_000) }),
  response: z.object({ pvData: z.array(z.object({ key: z.string(), pv: z.number().int() })) }),
});

export const articleCreate = defineShowcaseCall({
  id: 'showcase.articleCreate',
  method: 'POST',
  path: '/vue-element-admin/article/create',
  audience: 'user',
  tag: TAG,
  summary: '新建文章（正文经服务器按白名单清理），答新文章',
  request: z.strictObject({
    title: articleFields.title,
    content: articleFields.content.optional().default(''),
    content_short: articleFields.content_short.optional().default(''),
    author: articleFields.author.optional().default(''),
    reviewer: articleFields.reviewer.optional().default(''),
    importance: articleFields.importance.optional().default(1),
    type: articleFields.type.optional().default('CN'),
    status: articleFields.status.optional().default('draft'),
    timestamp: articleFields.timestamp.optional(),
    forecast: articleFields.forecast.optional().default(0),
    comment_disabled: articleFields.comment_disabled.optional().default(false),
    image_uri: articleFields.image_uri.optional().default(''),
    source_uri: articleFields.source_uri.optional().default(''),
    platforms: articleFields.platforms.optional().default(['a-platform']),
  }),
  response: showcaseArticleSchema,
});

export const articleUpdate = defineShowcaseCall({
  id: 'showcase.articleUpdate',
  method: 'POST',
  path: '/vue-element-admin/article/update',
  audience: 'user',
  tag: TAG,
  summary: '修改文章（只改给出的字段），答修改后的文章',
  request: z.strictObject({
    id: articleIdField,
    title: articleFields.title.optional(),
    content: articleFields.content.optional(),
    content_short: articleFields.content_short.optional(),
    author: articleFields.author.optional(),
    reviewer: articleFields.reviewer.optional(),
    importance: articleFields.importance.optional(),
    type: articleFields.type.optional(),
    status: articleFields.status.optional(),
    timestamp: articleFields.timestamp.optional(),
    forecast: articleFields.forecast.optional(),
    comment_disabled: articleFields.comment_disabled.optional(),
    image_uri: articleFields.image_uri.optional(),
    source_uri: articleFields.source_uri.optional(),
    platforms: articleFields.platforms.optional(),
  }),
  response: showcaseArticleSchema,
});

export const searchUser = defineShowcaseCall({
  id: 'showcase.searchUser',
  method: 'GET',
  path: '/vue-element-admin/search/user',
  audience: 'user',
  tag: TAG,
  summary: '按名字搜索作者（不区分大小写的包含匹配，最多 20 个）',
  request: z.strictObject({ name: textField('名字', { min: 0, max: 50 }).optional() }),
  response: z.object({ items: z.array(z.object({ name: z.string() })) }),
});

export const transactionList = defineShowcaseCall({
  id: 'showcase.transactionList',
  method: 'GET',
  path: '/vue-element-admin/transaction/list',
  audience: 'user',
  tag: TAG,
  summary: '示例交易列表（每个公司固定的 20 条）',
  request: emptyRequest,
  response: z.object({
    total: z.number().int(),
    items: z.array(
      z.object({
        order_no: z.string(),
        timestamp: z.number().int(),
        username: z.string(),
        price: z.number(),
        status: z.enum(['success', 'pending']),
      }),
    ),
  }),
});

export const routes = defineShowcaseCall({
  id: 'showcase.routes',
  method: 'GET',
  path: '/vue-element-admin/routes',
  audience: 'user',
  tag: TAG,
  summary: '展示的路由表（角色的路由树从中勾选）',
  request: emptyRequest,
  response: z.array(showcaseRouteSchema),
});

export const roles = defineShowcaseCall({
  id: 'showcase.roles',
  method: 'GET',
  path: '/vue-element-admin/roles',
  audience: 'user',
  tag: TAG,
  summary: '本公司的展示角色（内置 admin、editor、visitor 与新建的角色）',
  request: emptyRequest,
  response: z.array(showcaseRoleSchema),
});

const roleBody = z.strictObject({
  name: textField('角色名', { max: 30 }),
  description: textField('角色说明', { min: 0, max: 200, multiline: true }).optional().default(''),
  routes: routeTreeField.optional().default([]),
});

export const roleCreate = defineShowcaseCall({
  id: 'showcase.roleCreate',
  method: 'POST',
  path: '/vue-element-admin/role',
  audience: 'user',
  tag: TAG,
  summary: '新建角色，答生成的 key（300-5000 的整数，公司内唯一）',
  request: roleBody,
  response: z.object({ key: z.number().int().min(SHOWCASE_ROLE_KEY_MIN).max(SHOWCASE_ROLE_KEY_MAX) }),
});

const roleKeyParams = z.strictObject({ key: roleKeyField });

export const roleUpdate = defineShowcaseCall({
  id: 'showcase.roleUpdate',
  method: 'PUT',
  path: '/vue-element-admin/role/:key',
  audience: 'user',
  tag: TAG,
  summary: '修改角色的名称、说明和路由树',
  params: roleKeyParams,
  request: roleBody,
  response: statusSuccess,
});

export const roleDelete = defineShowcaseCall({
  id: 'showcase.roleDelete',
  method: 'DELETE',
  path: '/vue-element-admin/role/:key',
  audience: 'user',
  tag: TAG,
  summary: '删除角色（内置的 admin、editor、visitor 不能删除）',
  params: roleKeyParams,
  request: emptyRequest,
  response: statusSuccess,
});

// ---- part 2: uploads (rich text images, avatar, dropzone), the avatar, the kanban board

/** One showcase upload: at most this many bytes. */
export const SHOWCASE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** What an upload may be, sniffed from its bytes (never taken from its name). */
export const SHOWCASE_UPLOAD_MIMES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
] as const;
/** Kept per company: an upload beyond this removes the company's oldest. */
export const SHOWCASE_UPLOADS_KEPT = 50;

export const showcaseFileSchema = z.object({
  id: z.string(),
  /** A signed link of the service, valid for a day (relative: `/showcase-file/<id>?exp=…&sig=…`). */
  url: z.string(),
  /** The name the file was uploaded with (a label only). */
  name: z.string(),
  size: z.number().int(),
  mime: z.enum(SHOWCASE_UPLOAD_MIMES),
});
export type ShowcaseFile = z.output<typeof showcaseFileSchema>;

const fileIdField = z.string({ error: '请提供 fileId' }).regex(/^[A-Za-z0-9_-]{8,64}$/, 'fileId 无效');

export const KANBAN_COLUMNS = ['todo', 'doing', 'done'] as const;
export const KANBAN_CARDS_MAX = 50;
const kanbanCardSchema = z.strictObject({
  id: z
    .string({ error: '卡片 id 须为字符串' })
    .regex(/^[A-Za-z0-9_-]{1,40}$/, '卡片 id 只能包含字母、数字、- 和 _（1-40 个字符）'),
  text: textField('卡片内容', { max: 200 }),
});
/** The drag-kanban board: three columns in this order, each an ordered list of cards. */
export const kanbanBoardSchema = z
  .strictObject({
    columns: z
      .array(
        z.strictObject({
          key: z.enum(KANBAN_COLUMNS, { error: `列须为 ${KANBAN_COLUMNS.join('、')} 之一` }),
          cards: z.array(kanbanCardSchema).max(KANBAN_CARDS_MAX, `每列最多 ${KANBAN_CARDS_MAX} 张卡片`),
        }),
      )
      .length(KANBAN_COLUMNS.length, `须恰好 ${KANBAN_COLUMNS.length} 列`),
  })
  .refine((b) => b.columns.every((c, i) => c.key === KANBAN_COLUMNS[i]), {
    message: `列的顺序须为 ${KANBAN_COLUMNS.join('、')}`,
    path: ['columns'],
  })
  .refine(
    (b) => {
      const ids = b.columns.flatMap((c) => c.cards.map((card) => card.id));
      return new Set(ids).size === ids.length;
    },
    { message: '卡片 id 不能重复', path: ['columns'] },
  );
export type KanbanBoard = z.output<typeof kanbanBoardSchema>;

export const upload = defineShowcaseCall({
  id: 'showcase.upload',
  method: 'POST',
  path: '/vue-element-admin/upload',
  audience: 'user',
  tag: TAG,
  summary: '上传一个文件（图片或 PDF，最大 5 MB），得到它的链接',
  description:
    'multipart/form-data，字段 file。类型按内容识别：png、jpeg、gif、webp 图片或 PDF；其他类型、空文件或超过 5 MB 答 40000。每个公司保留最近 50 个上传。链接带签名，一天内有效。',
  request: z.strictObject({}).optional().default({}),
  response: showcaseFileSchema,
});

export const avatar = defineShowcaseCall({
  id: 'showcase.avatar',
  method: 'GET',
  path: '/vue-element-admin/avatar',
  audience: 'user',
  tag: TAG,
  summary: '展示用的头像（没有设置时为 null）',
  request: emptyRequest,
  response: z.object({ url: z.string().nullable() }),
});

export const avatarUpdate = defineShowcaseCall({
  id: 'showcase.avatarUpdate',
  method: 'PUT',
  path: '/vue-element-admin/avatar',
  audience: 'user',
  tag: TAG,
  summary: '把本公司上传的一张图片设为展示头像',
  description: 'fileId 为 upload 的答复中的 id，须是本公司上传的图片；否则 40400 / 40000。',
  request: z.strictObject({ fileId: fileIdField }),
  response: z.object({ url: z.string() }),
});

export const kanban = defineShowcaseCall({
  id: 'showcase.kanban',
  method: 'GET',
  path: '/vue-element-admin/kanban',
  audience: 'user',
  tag: TAG,
  summary: '拖拽看板（待办、进行中、已完成三列）；没有保存过时为示例卡片',
  request: emptyRequest,
  response: kanbanBoardSchema,
});

export const kanbanSave = defineShowcaseCall({
  id: 'showcase.kanbanSave',
  method: 'PUT',
  path: '/vue-element-admin/kanban',
  audience: 'user',
  tag: TAG,
  summary: '保存拖拽看板的卡片顺序',
  request: kanbanBoardSchema,
  response: statusSuccess,
});

/** Every showcase call, once each (the server registers them; the tests sweep them). */
export const allShowcaseCalls: ShowcaseCallDef[] = [
  login,
  userInfo,
  logout,
  articleList,
  articleDetail,
  articlePv,
  articleCreate,
  articleUpdate,
  searchUser,
  transactionList,
  routes,
  roles,
  roleCreate,
  roleUpdate,
  roleDelete,
  upload,
  avatar,
  avatarUpdate,
  kanban,
  kanbanSave,
];
