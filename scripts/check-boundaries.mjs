#!/usr/bin/env node
// The server's module boundaries (docs/ARCHITECTURE.md "Modules"), checked by `npm test` right after
// lint (scripts/test.mjs). Biome's noRestrictedImports (biome.json) flags a cross-module repo import in
// the editor; this check holds the rest:
//   1. each table has one owning module; only that module's repo.ts writes it; another module's
//      repo.ts may read it only where MODULES declares the read (a join of a read model);
//   2. SQL only in repo.ts files (and db/, lib/lock.ts): services get other modules' data through
//      injected, narrow dependencies (`Pick<…>` of a service, or a function), never a repo;
//   3. a module imports only the modules it `uses`, and `uses` has no cycle (so folders have none);
//      lib/ and db/ import no module;
//   4. every call path in the contract is a string literal (greppable in full);
//   5. the console's folders form layers (WEB_LAYERS): no folder imports one above it.
// `node scripts/check-boundaries.mjs --print` prints the map as a Markdown table.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'apps/server/src');
const CONTRACT_CALLS = path.join(ROOT, 'packages/contract/src/calls');

/**
 * Every module of apps/server/src/modules: the tables it owns (only it writes them), the tables of
 * others its repo.ts reads (joins of read models), and the modules it may import.
 */
export const MODULES = {
  settings: { owns: ['settings'], reads: [], uses: [] },
  audit: { owns: ['audit_log'], reads: [], uses: [] },
  captcha: { owns: ['captchas'], reads: [], uses: [] },
  sms: { owns: ['sms_codes'], reads: [], uses: [] },
  storage: { owns: [], reads: [], uses: [] },
  auth: {
    owns: ['users', 'sessions', 'login_failures'],
    reads: [],
    uses: ['audit', 'captcha', 'settings', 'sms'],
  },
  files: { owns: ['files'], reads: [], uses: ['settings', 'storage'] },
  system: { owns: [], reads: [], uses: ['files', 'settings'] },
  company: { owns: ['company_ops'], reads: ['users'], uses: ['settings'] },
  packages: { owns: ['packages', 'subscriptions'], reads: [], uses: [] },
  orders: { owns: ['orders'], reads: ['users'], uses: ['audit', 'company', 'packages'] },
  'api-accounts': {
    owns: ['api_accounts', 'company_api_settings'],
    reads: [],
    uses: ['audit', 'company', 'packages'],
  },
  'api-auth': { owns: ['api_nonces'], reads: [], uses: ['api-accounts'] },
  'rate-limits': { owns: ['rate_windows'], reads: [], uses: [] },
  events: { owns: [], reads: [], uses: ['auth'] },
  callbacks: { owns: ['callback_events', 'callback_attempts'], reads: [], uses: ['api-accounts', 'events'] },
  messaging: {
    owns: ['wx_devices', 'wx_accounts', 'wx_online_counts', 'wx_logins', 'wx_messages', 'wx_sync_jobs'],
    reads: ['api_accounts'],
    uses: ['api-accounts', 'callbacks', 'company', 'events', 'files', 'packages'],
  },
  sim: { owns: ['sim_contacts', 'sim_room_members'], reads: [], uses: ['files', 'messaging'] },
  wechaty: {
    owns: ['wechaty_devices', 'wechaty_processes', 'wechaty_leases', 'wechaty_token_leases'],
    reads: [],
    uses: ['files', 'messaging'],
  },
  records: {
    owns: [],
    reads: ['wx_accounts', 'wx_logins', 'wx_devices', 'api_accounts'],
    uses: ['messaging'],
  },
  statistics: {
    owns: [],
    reads: ['wx_accounts', 'wx_online_counts', 'wx_logins', 'wx_messages'],
    uses: ['messaging', 'records'],
  },
  catalogue: { owns: [], reads: [], uses: [] },
  realname: {
    owns: ['realname_reviews'],
    reads: ['users'],
    uses: ['audit', 'auth', 'events', 'files', 'settings'],
  },
  operator: {
    owns: [],
    reads: ['users', 'company_ops', 'subscriptions', 'api_accounts', 'wx_online_counts', 'orders'],
    uses: ['api-accounts', 'audit', 'company', 'packages', 'statistics'],
  },
  visitors: { owns: ['page_views'], reads: [], uses: ['settings', 'statistics'] },
  onboarding: { owns: [], reads: [], uses: [] },
  showcase: {
    owns: ['showcase_articles', 'showcase_roles', 'showcase_tokens', 'showcase_state'],
    reads: [],
    uses: ['files'],
  },
  'client-errors': { owns: ['client_errors'], reads: ['users'], uses: [] },
};

/** Start-up and background jobs of the composition root that call repos directly (no rules in them). */
const ROOT_JOBS = new Set(['seed.ts', 'demo.ts', 'housekeeping.ts']);
/** Outside modules, SQL may be written only here. */
const SQL_PLACES = [/^db\//, /^lib\/lock\.ts$/];
const SQL_CALL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\(|\bsql(<[^>]*>)?`|\bsql\.(ref|raw|lit|id|table|join)\(/;

const problems = [];
const problem = (where, text) => problems.push(`${where}: ${text}`);

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** The part of the server a file belongs to: a module, 'lib', 'db', 'config' or 'root'. */
function partOf(rel) {
  const m = /^modules\/([^/]+)\//.exec(rel);
  if (m) return m[1];
  if (rel.startsWith('lib/')) return 'lib';
  if (rel.startsWith('db/')) return 'db';
  if (rel === 'config.ts') return 'config';
  return 'root';
}

/** Relative import specifiers of a file, with the line each is on (type imports included). */
function importsOf(text) {
  const out = [];
  const re = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const line = text.slice(0, m.index + m[0].length).split('\n').length;
    out.push({ spec: m[1] ?? m[2], line, lazy: m[2] !== undefined });
  }
  return out;
}

// ---- tables: one owner each, every declared table exists
const schema = readFileSync(path.join(SRC, 'db/schema.ts'), 'utf8');
const dbBlock = /export interface DB \{([^}]*)\}/.exec(schema)?.[1] ?? '';
const tables = [...dbBlock.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]);
const owner = new Map();
for (const [mod, spec] of Object.entries(MODULES)) {
  for (const t of spec.owns) {
    if (!tables.includes(t)) problem('MODULES', `${mod} owns "${t}", which is not a table of db/schema.ts`);
    if (owner.has(t)) problem('MODULES', `"${t}" is owned by both ${owner.get(t)} and ${mod}`);
    owner.set(t, mod);
  }
  for (const t of spec.reads) {
    if (!tables.includes(t)) problem('MODULES', `${mod} reads "${t}", which is not a table`);
    if (spec.owns.includes(t)) problem('MODULES', `${mod} both owns and "reads" "${t}"`);
  }
  for (const used of spec.uses)
    if (!MODULES[used]) problem('MODULES', `${mod} uses unknown module "${used}"`);
}
for (const t of tables) if (!owner.has(t)) problem('MODULES', `table "${t}" has no owning module`);

// ---- the uses graph has no cycle
function findCycle() {
  const state = new Map();
  const stack = [];
  const visit = (m) => {
    state.set(m, 'open');
    stack.push(m);
    for (const n of MODULES[m].uses) {
      if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
      if (!state.has(n)) {
        const c = visit(n);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(m, 'done');
    return null;
  };
  for (const m of Object.keys(MODULES)) {
    if (!state.has(m)) {
      const c = visit(m);
      if (c) return c;
    }
  }
  return null;
}
const cycle = findCycle();
if (cycle) problem('MODULES', `modules depend on each other in a cycle: ${cycle.join(' -> ')}`);

// ---- every module folder is declared
const folders = readdirSync(path.join(SRC, 'modules')).filter((n) =>
  statSync(path.join(SRC, 'modules', n)).isDirectory(),
);
for (const f of folders)
  if (!MODULES[f])
    problem(`modules/${f}`, 'a module folder missing from MODULES (scripts/check-boundaries.mjs)');
for (const m of Object.keys(MODULES))
  if (!folders.includes(m)) problem('MODULES', `module "${m}" has no folder`);

// ---- imports, SQL placement, table access (and what the map declares is really so)
const usedModules = new Map(Object.keys(MODULES).map((m) => [m, new Set()]));
const readTables = new Map(Object.keys(MODULES).map((m) => [m, new Set()]));
/** Tables a repo names: as a string ('t', 't.col', 't as x') or inside a sql`…` template. */
const tableNames = (text) => {
  const quoted = new RegExp(`'(${tables.join('|')})(?:\\.\\w+|\\s+as\\s+\\w+)?'`, 'g');
  const raw = new RegExp(`\\b(${tables.join('|')})\\b`, 'g');
  const templates = [...text.matchAll(/\bsql(?:<[^>]*>)?`([^`]*)`/g)].map((m) => m[1]).join('\n');
  return new Set([
    ...[...text.matchAll(quoted)].map((m) => m[1]),
    ...[...templates.matchAll(raw)].map((m) => m[1]),
  ]);
};
const writePattern = new RegExp(
  `\\.(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\\(\\s*'(${tables.join('|')})'`,
  'g',
);

for (const file of filesUnder(SRC)) {
  const rel = path.relative(SRC, file).split(path.sep).join('/');
  if (rel.startsWith('db/migrations/')) continue; // written once against the schema of their day
  const text = readFileSync(file, 'utf8');
  const part = partOf(rel);
  const isRepo = /^modules\/[^/]+\/repo\.ts$/.test(rel);

  for (const { spec, line } of importsOf(text)) {
    const target = path
      .relative(SRC, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/')
      .replace(/\.js$/, '.ts');
    const to = partOf(target);
    const where = `${rel}:${line}`;
    const targetIsRepo = /^modules\/[^/]+\/repo\.ts$/.test(target);
    if (part === 'lib' || part === 'db' || part === 'config') {
      if (!['lib', 'db', 'config'].includes(to)) problem(where, `${part}/ may not import ${target} (${to})`);
      if (part === 'db' && to !== 'db') problem(where, `db/ may not import ${target}`);
      continue;
    }
    if (part === 'root') {
      if (targetIsRepo && !ROOT_JOBS.has(rel)) {
        problem(
          where,
          `${target}: only the start-up jobs (${[...ROOT_JOBS].join(', ')}) call repos; use the module's service`,
        );
      }
      continue;
    }
    // a module
    if (to === 'root') problem(where, `a module may not import the composition root (${target})`);
    if (to === part || to === 'lib' || to === 'db' || to === 'config' || to === 'root') continue;
    usedModules.get(part)?.add(to);
    if (targetIsRepo) {
      problem(
        where,
        `${target} is module ${to}'s SQL: get its data through an injected, narrow dependency (Pick<…> of its service)`,
      );
    } else if (!MODULES[part]?.uses.includes(to)) {
      problem(
        where,
        `module ${part} may not use module ${to} (add it to MODULES.${part}.uses if it should, without a cycle)`,
      );
    }
  }

  if (!isRepo && !SQL_PLACES.some((p) => p.test(rel)) && part !== 'root') {
    text.split('\n').forEach((l, i) => {
      if (SQL_CALL.test(l)) problem(`${rel}:${i + 1}`, `SQL outside a repo.ts: ${l.trim().slice(0, 80)}`);
    });
  }
  if (part === 'root') {
    text.split('\n').forEach((l, i) => {
      if (SQL_CALL.test(l))
        problem(`${rel}:${i + 1}`, `SQL in the composition root: ${l.trim().slice(0, 80)}`);
    });
  }

  if (isRepo) {
    const spec = MODULES[part];
    if (!spec) continue;
    for (const m of text.matchAll(writePattern)) {
      if (!spec.owns.includes(m[1])) {
        problem(rel, `writes "${m[1]}", owned by ${owner.get(m[1])}: call that module's service instead`);
      }
    }
    const seen = tableNames(text);
    for (const t of seen) readTables.get(part)?.add(t);
    for (const t of seen) {
      if (!spec.owns.includes(t) && !spec.reads.includes(t)) {
        problem(rel, `reads "${t}" (owned by ${owner.get(t)}) without declaring it in MODULES.${part}.reads`);
      }
    }
  }
}

for (const [m, spec] of Object.entries(MODULES)) {
  for (const u of spec.uses) {
    if (!usedModules.get(m).has(u))
      problem('MODULES', `${m} declares it uses ${u} but imports nothing from it`);
  }
  for (const t of spec.reads) {
    if (!readTables.get(m).has(t))
      problem('MODULES', `${m} declares it reads "${t}" but its repo.ts does not`);
  }
}

// ---- the contract: every call's path is a literal
for (const file of filesUnder(CONTRACT_CALLS)) {
  const rel = path.relative(ROOT, file);
  const text = readFileSync(file, 'utf8');
  const starts = [...text.matchAll(/\bdefine(?:Showcase)?Call\(\{/g)].map((m) => m.index);
  for (const at of starts) {
    let depth = 0;
    let end = text.indexOf('(', at) + 1;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    const body = text.slice(at, end);
    const line = text.slice(0, at).split('\n').length;
    const paths = [...body.matchAll(/^ {2}path: (.*)$/gm)].map((m) => m[1]);
    if (paths.length !== 1 || !/^'\/[^'$`]*',$/.test(paths[0])) {
      problem(
        `${rel}:${line}`,
        `a call's path must be a string literal in its defineCall (found: ${paths.join(' | ') || 'none'})`,
      );
    }
  }
}

// ---- the console (apps/web/src): its folders in layers, lowest first. A file imports only its own
// folder and the folders below it, so no two folders depend on each other. The one way up is lazy:
// the route table in app/ loads the pages with import() (each becomes its own chunk); main.tsx hands it the shell.
export const WEB_LAYERS = [
  'utils',
  'stores',
  'api',
  'app',
  'components',
  'features',
  'layout',
  'pages',
  'login',
];
const WEB = path.join(ROOT, 'apps/web/src');
const webFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
const layerOf = (file) => {
  const top = path.relative(WEB, file).split(path.sep)[0];
  return WEB_LAYERS.indexOf(top);
};
for (const file of webFiles(WEB)) {
  const from = layerOf(file);
  // main.tsx (the entry point) may import anything; a test may put layers together
  if (from < 0 || /\.test\.tsx?$/.test(file)) continue;
  const text = readFileSync(file, 'utf8');
  for (const { spec, line, lazy } of importsOf(text)) {
    const target = path.resolve(path.dirname(file), spec);
    if (!target.startsWith(WEB)) continue;
    const to = layerOf(target);
    if (to <= from || (lazy && WEB_LAYERS[from] === 'app')) continue;
    problem(
      `${path.relative(ROOT, file)}:${line}`,
      `${WEB_LAYERS[from]}/ may not import ${WEB_LAYERS[to]}/ (console layers, lowest first: ${WEB_LAYERS.join(' < ')})`,
    );
  }
}

if (process.argv.includes('--print')) {
  const users = (m) =>
    Object.entries(MODULES)
      .filter(([, s]) => s.uses.includes(m))
      .map(([n]) => n);
  console.log('| module | owns (only it writes) | reads (joins) | uses | used by |');
  console.log('|---|---|---|---|---|');
  for (const [m, s] of Object.entries(MODULES)) {
    const list = (xs) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : '—');
    console.log(`| \`${m}\` | ${list(s.owns)} | ${list(s.reads)} | ${list(s.uses)} | ${list(users(m))} |`);
  }
}

if (problems.length > 0) {
  console.error(`✗ module boundaries: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(
  `✓ module boundaries: ${Object.keys(MODULES).length} modules, ${tables.length} tables, no cycle; console layers ${WEB_LAYERS.join(' < ')}`,
);
