// Bundles the server into dist/main.js, and the callbacks' thread program into
// dist/callback-thread.js (modules/callbacks/thread-transport.ts starts it). Our own workspace code
// (the contract) is bundled in; npm packages stay external and load from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@wxc/'));

await build({
  entryPoints: { main: 'src/main.ts', 'callback-thread': 'src/modules/callbacks/thread-main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
