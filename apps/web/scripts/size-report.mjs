// Reports what the browser downloads for the login page and for each route, from the Vite
// manifest of the production build (run `npm run build -w @wxc/web` first). Sizes are raw and
// gzip (level 9), JS and CSS, including every statically imported chunk.
// Usage: node apps/web/scripts/size-report.mjs [--json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

function closure(keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

function measure(files) {
  const out = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, files: [...files] };
  for (const file of files) {
    const buf = readFileSync(join(dist, file));
    const kind = file.endsWith('.css') ? 'css' : 'js';
    out[kind].raw += buf.length;
    out[kind].gzip += gzipSync(buf, { level: 9 }).length;
  }
  out.total = { raw: out.js.raw + out.css.raw, gzip: out.js.gzip + out.css.gzip };
  return out;
}

const entry = closure(['index.html']);
const html = readFileSync(join(dist, 'index.html'));
const print = (text) => process.stdout.write(`${text}\n`);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

const PUBLIC_PAGES = ['login', 'agreement', 'auth-redirect', 'error-404', 'error-401'];
const shell = closure(['index.html', 'src/layout/Shell.tsx']);

/** A page's own download: its chunk and static imports not already loaded (entry, and the shell for shell pages). */
function pageFiles(src) {
  const isPublic = PUBLIC_PAGES.some((p) => src.startsWith(`src/pages/${p}/`));
  const loaded = isPublic || src === 'src/layout/Shell.tsx' ? entry : shell;
  return new Set([...closure([src])].filter((f) => !loaded.has(f)));
}

const login = measure(new Set([...entry, ...pageFiles('src/pages/login/index.tsx')]));
const rows = [];
const pages = Object.keys(manifest).filter(
  (k) => (k.startsWith('src/pages/') && k.endsWith('index.tsx')) || k === 'src/layout/Shell.tsx',
);
for (const key of pages.sort()) {
  const m = measure(pageFiles(key));
  rows.push({ page: key.replace(/^src\//, ''), raw: m.total.raw, gzip: m.total.gzip });
}

if (process.argv.includes('--json')) {
  print(
    JSON.stringify(
      { loginInitial: { ...login.total, js: login.js, css: login.css, html: html.length }, rows },
      null,
      2,
    ),
  );
} else {
  print('Login page, initial JS+CSS (entry + login chunk and their static imports):');
  print(`  JS  ${kb(login.js.raw)} raw, ${kb(login.js.gzip)} gzip`);
  print(`  CSS ${kb(login.css.raw)} raw, ${kb(login.css.gzip)} gzip`);
  print(`  all ${kb(login.total.raw)} raw, ${kb(login.total.gzip)} gzip (+ index.html ${html.length} B)`);
  print(`  files: ${login.files.join(', ')}`);
  print(
    '\nPer route: its chunk and static imports beyond the entry (and beyond the shell for pages inside it):',
  );
  for (const r of rows)
    print(`  ${r.page.padEnd(44)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
}
