import { createHash } from 'node:crypto';
import { type ShowcaseRoute, showcaseCalls } from '@wxc/contract';

/**
 * The showcase's fixed data: what every company starts with (the same for all), the template's
 * identities, and the demo values the template made up with Mock.js (names, transactions), here
 * deterministic: the same request gives the same answer in every process.
 */

const { ARTICLE_PLATFORMS, ARTICLE_STATUSES, ARTICLE_TYPES, SHOWCASE_ROUTES: ROUTES } = showcaseCalls;

/** The template's roles, with their route trees. */
export const BUILTIN_ROLES: { key: string; name: string; description: string; routes: ShowcaseRoute[] }[] = [
  {
    key: 'admin',
    name: 'admin',
    description: 'Super Administrator. Have access to view all pages.',
    routes: ROUTES,
  },
  {
    key: 'editor',
    name: 'editor',
    description: 'Normal Editor. Can see all pages except permission page',
    routes: ROUTES.filter((r) => r.path !== '/permission'),
  },
  {
    key: 'visitor',
    name: 'visitor',
    description: 'Just a visitor. Can only see the home page and the document page',
    routes: ROUTES.filter((r) => r.path === '' || r.path === '/documentation'),
  },
];

/** A small picture of its own (no image host at run time): a circle with the user's initial. */
const avatar = (letter: string, colour: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80"><circle cx="40" cy="40" r="40" fill="${colour}"/><text x="40" y="53" font-family="sans-serif" font-size="36" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
  ).toString('base64')}`;

/** The template's showcase identities (vue-element-admin's mock users). */
export const SHOWCASE_IDENTITIES = {
  admin: {
    roles: ['admin'],
    introduction: 'I am a super administrator',
    avatar: avatar('A', '#1890ff'),
    name: 'Super Admin',
  },
  editor: {
    roles: ['editor'],
    introduction: 'I am an editor',
    avatar: avatar('E', '#13c2c2'),
    name: 'Normal Editor',
  },
} as const;

/** First names the author search offers besides the company's own authors (the template's list). */
export const NAME_LIST = [
  'Amy',
  'Brian',
  'Carol',
  'Daniel',
  'Elizabeth',
  'Frank',
  'George',
  'Helen',
  'Jason',
  'Karen',
  'Kevin',
  'Laura',
  'Linda',
  'Mark',
  'Mary',
  'Michael',
  'Nancy',
  'Paul',
  'Ruth',
  'Sandra',
  'Steven',
  'Susan',
  'Thomas',
  'William',
  'mock-Pan',
];

/** A deterministic pseudo-random sequence (mulberry32) from a seed. */
export function sequence(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const between = (next: () => number, min: number, max: number) => min + Math.floor(next() * (max - min + 1));

const TITLES = [
  'Getting started with the console',
  'Reading the statistics of a day',
  'Sub-accounts and their credentials',
  'Receiving messages by callback',
  'Packages, quotas and renewals',
  'Testing calls online',
  'Verifying your company',
  'Simulated contacts and groups',
];

/** Monday 6 January 2025, 10:00 Beijing time: the seeded articles' first display time. */
const SEED_EPOCH = Date.UTC(2025, 0, 6, 2, 0, 0);
const HOUR = 3_600_000;

export interface SeedArticle {
  title: string;
  content: string;
  content_short: string;
  author: string;
  reviewer: string;
  importance: number;
  type: string;
  status: string;
  display_at: number;
  forecast_x100: number;
  comment_disabled: number;
  pageviews: number;
  image_uri: string;
  source_uri: string;
  platforms: string;
}

/** The articles every company starts with (ids 1…n, in this order). */
export function seedArticles(): SeedArticle[] {
  const next = sequence(20_000);
  return TITLES.map((title, i) => ({
    title,
    content: `<p>${title}: this article is sample data of the showcase.</p><p>Edit it, <strong>format</strong> it, or write your own: the text is <em>sanitised</em> on the server.</p><ul><li>importance, type and status can be filtered</li><li>the list sorts by id</li></ul>`,
    content_short: `Sample article ${i + 1} of the showcase.`,
    author: pick(next, NAME_LIST.slice(0, -1)),
    reviewer: pick(next, NAME_LIST.slice(0, -1)),
    importance: between(next, 1, 3),
    type: ARTICLE_TYPES[i % ARTICLE_TYPES.length] as string,
    status: ARTICLE_STATUSES[i % 2] as string,
    display_at: SEED_EPOCH + i * 37 * HOUR,
    forecast_x100: between(next, 0, 10_000),
    comment_disabled: i % 3 === 0 ? 1 : 0,
    pageviews: between(next, 300, 5000),
    image_uri: '',
    source_uri: '',
    platforms: ARTICLE_PLATFORMS.slice(0, 1 + (i % ARTICLE_PLATFORMS.length)).join(','),
  }));
}

/** The 20 transactions the template's dashboard lists: fixed for a company, different between companies. */
export function transactionsOf(companyId: string) {
  const digest = createHash('sha256').update(`showcase-transactions\n${companyId}`).digest();
  const next = sequence(digest.readUInt32BE(0));
  return Array.from({ length: 20 }, (_, i) => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
    return {
      order_no: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      timestamp: SEED_EPOCH + i * 5 * HOUR + between(next, 0, HOUR),
      username: `${pick(next, NAME_LIST.slice(0, -1))} ${pick(next, ['Lee', 'Smith', 'Brown', 'Wilson', 'Clark', 'Lewis'])}`,
      price: between(next, 100_000, 1_500_000) / 100,
      status: next() < 0.7 ? ('success' as const) : ('pending' as const),
    };
  });
}
