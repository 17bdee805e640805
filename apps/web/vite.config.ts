import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The @ant-design/icons components that the template showcase's pages import (by name, from the
 * package's index) and at most one product module does, found once modules are parsed. The `icons`
 * chunk group below leaves them out: otherwise every icon two showcase pages share, or one showcase
 * page shares with one product page, would join the one icons chunk that the first dashboard loads.
 */
const showcaseSharedIcons = new Set<string>();
const SHOWCASE_PAGES = /[\\/]src[\\/]pages[\\/]showcase[\\/]/;
const ICON_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']@ant-design\/icons["']/g;
function iconUsage(): Plugin {
  return {
    name: 'wxc-icon-usage',
    apply: 'build',
    buildEnd() {
      const showcase = new Set<string>();
      const product = new Map<string, number>(); // icon -> product modules importing it
      for (const id of this.getModuleIds()) {
        if (id.includes('node_modules')) continue;
        const code = this.getModuleInfo(id)?.code ?? '';
        for (const [, names = ''] of code.matchAll(ICON_IMPORT)) {
          for (const name of names.split(',')) {
            const icon = name.trim().split(/\s+as\s+/)[0];
            if (!icon) continue;
            if (SHOWCASE_PAGES.test(id)) showcase.add(icon);
            else product.set(icon, (product.get(icon) ?? 0) + 1);
          }
        }
      }
      showcaseSharedIcons.clear();
      for (const icon of showcase) if ((product.get(icon) ?? 0) <= 1) showcaseSharedIcons.add(icon);
    },
  };
}
const iconName = (id: string) => /([A-Za-z0-9]+)\.js$/.exec(id)?.[1] ?? '';

// The service serves `dist/` at `/` with an index.html fallback; in dev, Vite proxies the API to it.
export default defineConfig({
  plugins: [react(), iconUsage()],
  resolve: {
    alias: [
      // antd's Button and Tag styles take one function from the colour picker's presets panel, whose
      // module imports Collapse and the picker: every page carried them (≈7 KB gzip). src/vendor has
      // that function alone; the settings drawer's picker still gets the real module.
      {
        find: '../../color-picker/components/ColorPresets',
        replacement: fileURLToPath(new URL('./src/vendor/antd-is-bright.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: lets scripts/size-report.mjs measure what each page loads.
    manifest: true,
    target: 'es2022',
    // The shell (antd) is far larger than the login page; keep the warning useful.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // antd's inputs import only FormProvider from @rc-component/form, whose package does not say
        // it is free of side effects: without this every page (the first dashboard too) carried the
        // whole form engine and async-validator (~12 KB gzip). Pages with a form still get all of it.
        // Likewise @rc-component/color-picker: antd's Tooltip, Button and Tag need only its Color class,
        // not the picker (the settings drawer's).
        moduleSideEffects: [
          { test: /node_modules[\\/]@rc-component[\\/]form[\\/]/, sideEffects: false },
          { test: /node_modules[\\/]@rc-component[\\/]color-picker[\\/]/, sideEffects: false },
        ],
      },
      output: {
        codeSplitting: {
          groups: [
            // What the console's entry loads (the router, the guard and the shell every page sits
            // in) in two chunks: libraries, which change rarely, and our code. Left to automatic
            // chunking, each module the shell shares with a different set of lazy pages (the
            // showcase's added many) became a file of its own: the first dashboard loaded 81 files,
            // 363 KB gzip; now 38 files, 337 KB (bench/README.md, console load).
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/, priority: 1 },
            { name: 'app', tags: ['$initial'] },
            // The icons more than one chunk uses, in one chunk: the first dashboard loaded some twenty
            // of ≈1 KB each, mostly headers (≈11 requests and 4 KB gzip fewer).
            // Not the icon set's raw SVG files (the showcase's icon gallery and menu), nor the icons
            // showcase pages use with at most one product page (iconUsage above): those stay with
            // the chunks that use them.
            {
              name: 'icons',
              test: (id) =>
                /node_modules[\\/]@ant-design[\\/]icons(-svg)?[\\/](?!inline-svg[\\/])/.test(id) &&
                !showcaseSharedIcons.has(iconName(id)),
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
