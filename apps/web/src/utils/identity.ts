import { Role, type UserInfo } from '@wxc/contract/domain';
import { accountTypeLabel } from './labels';

/**
 * Who the signed-in user is, as the shell shows it (spec §3 session store: name, avatar,
 * introduction). Pure functions of the user info.
 *
 * - Customers are companies: their name is the user name they chose, else the company name (a new
 *   company's user name is its phone number, which is no name); their avatar shows the company
 *   name's first character(s).
 * - Operators are people: their name and avatar are the operator's own name.
 */
export function isOperator(user: Pick<UserInfo, 'roles'>): boolean {
  return user.roles.includes(Role.ADMIN);
}

export function displayName(user: UserInfo): string {
  const own = user.userName.trim();
  if (isOperator(user)) return own || user.companyAccount || '运营';
  const chosen = own && own !== user.companyAccount ? own : '';
  return chosen || user.companyName.trim() || user.companyAccount || '用户';
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

/**
 * The characters an initials avatar shows: the first Chinese character, or the initials of the first
 * two words of a Latin name (「Acme Tech」 -> AT), or the first digit/letter otherwise.
 */
export function initials(text: string): string {
  const clean = text.trim();
  if (!clean) return '?';
  const first = [...clean][0]!;
  if (CJK.test(first)) return first;
  const words = clean.split(/[\s\-_.·]+/u).filter((w) => /^[a-z]/i.test(w));
  if (words.length >= 2) return (words[0]![0]! + words[1]![0]!).toUpperCase();
  if (words.length === 1) return words[0]!.slice(0, 2).replace(/^./, (c) => c.toUpperCase());
  return first.toUpperCase();
}

export function avatarText(user: UserInfo): string {
  if (isOperator(user)) return initials(displayName(user));
  return initials(user.companyName || displayName(user));
}

/** Spec §3 'introduction': one line about the account. */
export function introduction(user: UserInfo): string {
  if (isOperator(user)) return '运营管理员';
  const company = user.companyName.trim() || user.companyAccount;
  return `${company} · 接入方式 ${accountTypeLabel(user.accountType)}`;
}

/** Calm, white-text-readable backgrounds; one is picked per user, so an avatar keeps its colour. */
const AVATAR_COLORS = [
  '#1f6feb',
  '#0f9d58',
  '#7e57c2',
  '#d9480f',
  '#0b7285',
  '#c2255c',
  '#5c7cfa',
  '#2b8a3e',
];

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A generated initials avatar as an SVG data URL (no external image: the CSP allows `data:` images
 * from this origin only). `seed` picks the colour (the user id, so it never changes).
 */
export function initialsAvatar(text: string, seed: string): string {
  const bg = AVATAR_COLORS[hash(seed) % AVATAR_COLORS.length]!;
  const size = [...text].length > 1 ? 26 : 32;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="${bg}"/>` +
    `<text x="32" y="33" dy=".35em" text-anchor="middle" fill="#fff" font-size="${size}" ` +
    `font-family="'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif">${escapeXml(text)}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export interface Identity {
  name: string;
  avatar: string;
  /** The characters in the avatar (its accessible text). */
  avatarText: string;
  introduction: string;
}

export function identityOf(user: UserInfo): Identity {
  const text = avatarText(user);
  return {
    name: displayName(user),
    avatar: initialsAvatar(text, user.id),
    avatarText: text,
    introduction: introduction(user),
  };
}
