import { randomInt } from 'node:crypto';
import {
  type KanbanBoard,
  SHOWCASE_CODES,
  type ShowcaseArticle,
  type ShowcaseCodeName,
  type ShowcaseFile,
  type ShowcaseRole,
  type ShowcaseRoute,
  showcaseCalls,
} from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { likePattern } from '../../db/text-match.js';
import { newToken, sha256 } from '../../lib/crypto.js';
import type { FileService } from '../files/service.js';
import { isImage, sniffMime } from '../files/sniff.js';
import * as repo from './repo.js';
import { sanitizeRichText } from './sanitize.js';
import { BUILTIN_ROLES, NAME_LIST, SHOWCASE_IDENTITIES, seedArticles, transactionsOf } from './seed-data.js';

const {
  SHOWCASE_PAGE_SIZE,
  SHOWCASE_ROLE_KEY_MAX,
  SHOWCASE_ROLE_KEY_MIN,
  SHOWCASE_ROUTES,
  SHOWCASE_UPLOAD_MIMES,
  SHOWCASE_UPLOADS_KEPT,
  SHOWCASE_USERS,
  kanbanBoardSchema,
} = showcaseCalls;

/** The drag-kanban board of a company that has not saved one. */
export const DEFAULT_KANBAN: KanbanBoard = {
  columns: [
    {
      key: 'todo',
      cards: [
        { id: 'c1', text: '整理本周的接口调用报表' },
        { id: 'c2', text: '为新子账号配置回调地址' },
        { id: 'c3', text: '补充消息模板的示例' },
      ],
    },
    {
      key: 'doing',
      cards: [
        { id: 'c4', text: '联调群消息回调' },
        { id: 'c5', text: '核对套餐续费提醒' },
      ],
    },
    { key: 'done', cards: [{ id: 'c6', text: '完成实名认证' }] },
  ],
};

const isUploadMime = (mime: string): mime is ShowcaseFile['mime'] =>
  (SHOWCASE_UPLOAD_MIMES as readonly string[]).includes(mime);

/** A failure in the template's protocol: one of SHOWCASE_CODES, optionally with a sharper message. */
export class ShowcaseError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(
    readonly codeName: ShowcaseCodeName,
    message?: string,
  ) {
    super(message ?? SHOWCASE_CODES[codeName].message);
    this.name = 'ShowcaseError';
    this.code = SHOWCASE_CODES[codeName].code;
    this.status = SHOWCASE_CODES[codeName].status;
  }
}

/** A showcase token lives this long (the console session has its own life). */
export const SHOWCASE_TOKEN_TTL_MS = 12 * 3_600_000;
/** Dead tokens are told apart (50012 replaced, 50014 expired) this long, then forgotten (50008). */
export const SHOWCASE_TOKEN_GRACE_MS = 24 * 3_600_000;
const REPLACED_TOKENS_KEPT = 20;
/** Per company: enough for any demonstration, and a bound on what one company can store. */
export const SHOWCASE_MAX_ARTICLES = 500;
export const SHOWCASE_MAX_ROLES = 100;
const SEARCH_LIMIT = 20;

type ArticleList = z.output<typeof showcaseCalls.articleList.request>;
type ArticleCreate = z.output<typeof showcaseCalls.articleCreate.request>;
type ArticleUpdate = z.output<typeof showcaseCalls.articleUpdate.request>;
type RoleBody = z.output<typeof showcaseCalls.roleCreate.request>;
type Login = z.output<typeof showcaseCalls.login.request>;

/** `YYYY-MM-DD HH:mm:ss`, Beijing time (UTC+8, no daylight saving). */
export const displayTime = (ms: number) =>
  new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

function articleOf(row: repo.ArticleRow): ShowcaseArticle {
  return {
    id: row.id,
    timestamp: Number(row.display_at),
    display_time: displayTime(Number(row.display_at)),
    author: row.author,
    reviewer: row.reviewer,
    title: row.title,
    content_short: row.content_short,
    content: row.content,
    forecast: row.forecast_x100 / 100,
    importance: row.importance,
    type: row.type as ShowcaseArticle['type'],
    status: row.status as ShowcaseArticle['status'],
    comment_disabled: row.comment_disabled === 1,
    pageviews: row.pageviews,
    image_uri: row.image_uri,
    source_uri: row.source_uri,
    platforms: (row.platforms === '' ? [] : row.platforms.split(',')) as ShowcaseArticle['platforms'],
  };
}

const roleOf = (row: repo.RoleRow): ShowcaseRole => ({
  key: row.key,
  name: row.name,
  description: row.description,
  routes: JSON.parse(row.routes) as ShowcaseRoute[],
});

/**
 * The showcase's rules (`/vue-element-admin/*`): every function takes the caller's company and
 * touches only that company's rows. The showcase identities and their tokens live here and nowhere
 * else: nothing outside this module reads them.
 */
export function createShowcaseService(db: Kysely<DB>, files: FileService) {
  /** Companies known to have their showcase data (a cache: the database decides). */
  const seeded = new Set<string>();

  /** Writes the company's first showcase data on its first use (once, even across processes). */
  async function ensureSeeded(companyId: string, now = Date.now()): Promise<void> {
    if (seeded.has(companyId)) return;
    if (!(await repo.isSeeded(db, companyId))) {
      await repo.seed(
        db,
        BUILTIN_ROLES.map((r) => ({
          company_id: companyId,
          key: r.key,
          name: r.name,
          description: r.description,
          routes: JSON.stringify(r.routes),
          builtin: 1,
          created_at: now,
          updated_at: now,
        })),
        seedArticles().map((a, i) => ({
          ...a,
          company_id: companyId,
          id: i + 1,
          created_at: now,
          updated_at: now,
        })),
      );
    }
    if (seeded.size > 10_000) seeded.clear();
    seeded.add(companyId);
  }

  /** A saved state value, parsed (null when none or unreadable). */
  async function stateOf(companyId: string, key: repo.StateKey): Promise<unknown> {
    const value = await repo.findState(db, companyId, key);
    if (value === null) return null;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }

  async function article(companyId: string, id: number): Promise<repo.ArticleRow> {
    await ensureSeeded(companyId);
    const row = await repo.findArticle(db, companyId, id);
    if (!row) throw new ShowcaseError('NOT_FOUND', '文章不存在');
    return row;
  }

  return {
    ensureSeeded,

    // ---- the showcase identities

    /** `admin` or `editor` with any password the schema takes (the template's rule); else 60204. */
    async login(companyId: string, input: Login, now = Date.now()) {
      const username = input.username.trim();
      if (!(SHOWCASE_USERS as readonly string[]).includes(username))
        throw new ShowcaseError('BAD_CREDENTIALS');
      const token = `sc_${newToken()}`;
      await repo.pruneTokens(db, companyId, now - SHOWCASE_TOKEN_GRACE_MS, REPLACED_TOKENS_KEPT);
      await repo.insertToken(db, {
        tokenHash: sha256(token),
        companyId,
        username,
        now,
        expiresAt: now + SHOWCASE_TOKEN_TTL_MS,
      });
      return { token };
    },

    /** 50008 unknown (or another company's, or logged out), 50012 replaced, 50014 expired. */
    async info(companyId: string, token: string, now = Date.now()) {
      const row = await repo.findToken(db, companyId, sha256(token));
      if (!row) throw new ShowcaseError('ILLEGAL_TOKEN');
      if (row.replaced_at !== null) throw new ShowcaseError('OTHER_CLIENT');
      if (Number(row.expires_at) <= now) throw new ShowcaseError('TOKEN_EXPIRED');
      const identity = SHOWCASE_IDENTITIES[row.username as keyof typeof SHOWCASE_IDENTITIES];
      if (!identity) throw new ShowcaseError('ILLEGAL_TOKEN');
      return { ...identity, roles: [...identity.roles] };
    },

    async logout(companyId: string, token: string | undefined) {
      if (token) await repo.deleteToken(db, companyId, sha256(token));
      return 'success' as const;
    },

    // ---- articles

    async listArticles(companyId: string, input: ArticleList) {
      await ensureSeeded(companyId);
      const filter: repo.ArticleFilter = {
        importance: input.importance,
        type: input.type,
        titlePattern: input.title ? likePattern(input.title) : undefined,
      };
      const limit = input.limit ?? SHOWCASE_PAGE_SIZE;
      const page = input.page ?? 1;
      const [total, rows] = await Promise.all([
        repo.countArticles(db, companyId, filter),
        repo.listArticles(db, companyId, filter, {
          descending: input.sort === '-id',
          offset: (page - 1) * limit,
          limit,
        }),
      ]);
      return { total, items: rows.map(articleOf) };
    },

    async articleDetail(companyId: string, id: number) {
      return articleOf(await article(companyId, id));
    },

    async createArticle(companyId: string, input: ArticleCreate, now = Date.now()) {
      await ensureSeeded(companyId);
      if ((await repo.countArticles(db, companyId)) >= SHOWCASE_MAX_ARTICLES) {
        throw new ShowcaseError('CONFLICT', `每个公司最多 ${SHOWCASE_MAX_ARTICLES} 篇示例文章`);
      }
      const row = await repo.insertArticle(db, {
        company_id: companyId,
        title: input.title,
        content: sanitizeRichText(input.content),
        content_short: input.content_short,
        author: input.author,
        reviewer: input.reviewer,
        importance: input.importance,
        type: input.type,
        status: input.status,
        display_at: input.timestamp ?? now,
        forecast_x100: Math.round(input.forecast * 100),
        comment_disabled: input.comment_disabled ? 1 : 0,
        pageviews: 0,
        image_uri: input.image_uri,
        source_uri: input.source_uri,
        platforms: input.platforms.join(','),
        created_at: now,
        updated_at: now,
      });
      return articleOf(row);
    },

    async updateArticle(companyId: string, input: ArticleUpdate, now = Date.now()) {
      await article(companyId, input.id);
      const { id, content, timestamp, forecast, comment_disabled, platforms, ...plain } = input;
      const changes = {
        ...Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined)),
        ...(content !== undefined ? { content: sanitizeRichText(content) } : {}),
        ...(timestamp !== undefined ? { display_at: timestamp } : {}),
        ...(forecast !== undefined ? { forecast_x100: Math.round(forecast * 100) } : {}),
        ...(comment_disabled !== undefined ? { comment_disabled: comment_disabled ? 1 : 0 } : {}),
        ...(platforms !== undefined ? { platforms: platforms.join(',') } : {}),
        updated_at: now,
      };
      const row = await repo.updateArticle(db, companyId, id, changes);
      if (!row) throw new ShowcaseError('NOT_FOUND', '文章不存在');
      return articleOf(row);
    },

    /** The platform split of a page-view count: fixed shares, summing to `pv`. */
    articlePv(pv: number) {
      const shares = [
        ['PC', 0.4],
        ['mobile', 0.3],
        ['ios', 0.2],
      ] as const;
      const pvData = shares.map(([key, share]) => ({ key, pv: Math.floor(pv * share) }));
      const rest = pv - pvData.reduce((n, p) => n + p.pv, 0);
      return { pvData: [...pvData, { key: 'android', pv: rest }] };
    },

    /** Authors: the company's own (from its articles) and the template's names, containing `name`. */
    async searchUser(companyId: string, name: string | undefined) {
      await ensureSeeded(companyId);
      const needle = (name ?? '').toLowerCase();
      const own = await repo.namesLike(db, companyId, likePattern(needle), SEARCH_LIMIT);
      const names = [...new Set([...own, ...NAME_LIST.filter((n) => n.toLowerCase().includes(needle))])];
      return { items: names.slice(0, SEARCH_LIMIT).map((n) => ({ name: n })) };
    },

    transactions(companyId: string) {
      const items = transactionsOf(companyId);
      return { total: items.length, items };
    },

    // ---- routes and roles

    routes: () => SHOWCASE_ROUTES,

    async roles(companyId: string) {
      await ensureSeeded(companyId);
      return (await repo.listRoles(db, companyId)).map(roleOf);
    },

    /** A new role with a generated key: an integer 300–5000 not yet used in the company. */
    async createRole(companyId: string, input: RoleBody, now = Date.now()) {
      await ensureSeeded(companyId);
      if ((await repo.countRoles(db, companyId)) >= SHOWCASE_MAX_ROLES) {
        throw new ShowcaseError('CONFLICT', `每个公司最多 ${SHOWCASE_MAX_ROLES} 个角色`);
      }
      for (let attempt = 0; attempt < 50; attempt++) {
        const key = randomInt(SHOWCASE_ROLE_KEY_MIN, SHOWCASE_ROLE_KEY_MAX + 1);
        const added = await repo.insertRole(db, {
          company_id: companyId,
          key: String(key),
          name: input.name,
          description: input.description,
          routes: JSON.stringify(input.routes),
          builtin: 0,
          created_at: now,
          updated_at: now,
        });
        if (added) return { key };
      }
      throw new ShowcaseError('CONFLICT', '没有可用的角色 key，请删除一些角色后重试');
    },

    async updateRole(companyId: string, key: string, input: RoleBody, now = Date.now()) {
      await ensureSeeded(companyId);
      const updated = await repo.updateRole(db, companyId, key, {
        name: input.name,
        description: input.description,
        routes: JSON.stringify(input.routes),
        updated_at: now,
      });
      if (!updated) throw new ShowcaseError('NOT_FOUND', '角色不存在');
      return { status: 'success' as const };
    },

    async deleteRole(companyId: string, key: string) {
      await ensureSeeded(companyId);
      const role = await repo.findRole(db, companyId, key);
      if (!role) throw new ShowcaseError('NOT_FOUND', '角色不存在');
      if (role.builtin === 1)
        throw new ShowcaseError('CONFLICT', '内置角色（admin、editor、visitor）不能删除');
      if (!(await repo.deleteRole(db, companyId, key))) throw new ShowcaseError('NOT_FOUND', '角色不存在');
      return { status: 'success' as const };
    },

    /**
     * An upload (rich text images, the avatar, dropzone): an image or a PDF by its bytes. The
     * company keeps its newest SHOWCASE_UPLOADS_KEPT; older ones go, except the avatar's.
     */
    async upload(companyId: string, file: { fileName: string; data: Buffer }): Promise<ShowcaseFile> {
      const mime = sniffMime(file.data);
      if (!isUploadMime(mime))
        throw new ShowcaseError('BAD_INPUT', '只能上传 png、jpeg、gif、webp 图片或 PDF 文件');
      const row = await files.save('showcase', { companyId, ...file, mime });
      const avatarId = await stateOf(companyId, 'avatar');
      for (const old of await files.beyondNewest('showcase', companyId, SHOWCASE_UPLOADS_KEPT)) {
        if (old.id !== avatarId) await files.remove(old);
      }
      return { id: row.id, url: (await files.link(row)).url, name: row.file_name, size: row.size, mime };
    },

    /** The company's showcase avatar: a fresh link, or null when none is set (or its file is gone). */
    async avatar(companyId: string): Promise<{ url: string | null }> {
      const id = await stateOf(companyId, 'avatar');
      const row = typeof id === 'string' ? await files.find(id) : undefined;
      if (row?.kind !== 'showcase' || row.company_id !== companyId) return { url: null };
      return { url: (await files.link(row)).url };
    },

    /** Makes one of the company's uploaded images its showcase avatar. */
    async updateAvatar(companyId: string, fileId: string, now = Date.now()): Promise<{ url: string }> {
      const row = await files.find(fileId);
      if (row?.kind !== 'showcase' || row.company_id !== companyId)
        throw new ShowcaseError('NOT_FOUND', '文件不存在：请先上传图片');
      if (!isImage(row.mime)) throw new ShowcaseError('BAD_INPUT', '头像须为图片（png、jpeg、gif、webp）');
      await repo.saveState(db, companyId, 'avatar', JSON.stringify(row.id), now);
      return { url: (await files.link(row)).url };
    },

    /** The drag-kanban board: the saved one, or the example board. */
    async kanban(companyId: string): Promise<KanbanBoard> {
      const saved = kanbanBoardSchema.safeParse(await stateOf(companyId, 'kanban'));
      return saved.success ? saved.data : DEFAULT_KANBAN;
    },

    async saveKanban(companyId: string, board: KanbanBoard, now = Date.now()) {
      await repo.saveState(db, companyId, 'kanban', JSON.stringify(board), now);
      return { status: 'success' as const };
    },
  };
}

export type ShowcaseService = ReturnType<typeof createShowcaseService>;
