/**
 * The JSON editor page's example rules, checked on every change (a plain function rather than a
 * JSON Schema: Ajv compiles schemas with `new Function`, which the console's CSP forbids).
 * Each problem has the path of the value it is about, as the editor marks it in tree and text mode.
 */
export interface RuleProblem {
  /** Keys and array indices, all as text (the editor's JSON path). */
  path: string[];
  message: string;
}

export const SAMPLE = {
  name: '微信 API 客户控制台',
  version: 3,
  enabled: true,
  tags: ['消息', '通讯录', '回调'],
  owner: { name: '管理员', email: 'admin@example.com' },
  limits: { qps: 20, dailyMessages: 100000 },
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkRules(json: unknown): RuleProblem[] {
  if (!isObject(json)) return [{ path: [], message: '根节点须是对象' }];
  const problems: RuleProblem[] = [];
  if (typeof json.name !== 'string' || json.name.trim() === '')
    problems.push({ path: ['name'], message: 'name 须是非空字符串' });
  if (!Number.isInteger(json.version) || (json.version as number) < 1)
    problems.push({ path: ['version'], message: 'version 须是不小于 1 的整数' });
  if ('enabled' in json && typeof json.enabled !== 'boolean')
    problems.push({ path: ['enabled'], message: 'enabled 须是 true 或 false' });
  if ('tags' in json) {
    if (!Array.isArray(json.tags)) problems.push({ path: ['tags'], message: 'tags 须是数组' });
    else
      json.tags.forEach((tag, i) => {
        if (typeof tag !== 'string') problems.push({ path: ['tags', String(i)], message: '标签须是字符串' });
      });
  }
  if ('owner' in json) {
    const owner = json.owner;
    if (!isObject(owner)) problems.push({ path: ['owner'], message: 'owner 须是对象' });
    else if (typeof owner.email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(owner.email))
      problems.push({ path: ['owner', 'email'], message: 'owner.email 须是邮箱地址' });
  }
  return problems;
}

/** `owner.email`, `tags[1]`; the root is `（根）`. */
export function pathLabel(path: string[]): string {
  if (path.length === 0) return '（根）';
  return path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
