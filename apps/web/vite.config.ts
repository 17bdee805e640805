import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The service serves `dist/` at `/` with an index.html fallback; in dev, Vite proxies the API to it.
export default defineConfig({
  plugins: [react()],
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
            // The icons more than one chunk uses, in one chunk: the first dashboard loaded some twenty
            // of ≈1 KB each, mostly headers (≈11 requests and 4 KB gzip fewer).
            // Not the icon set's raw SVG files (the showcase's icon gallery and menu): those stay with
            // the showcase's own chunks.
            {
              name: 'icons',
              test: /node_modules[\\/]@ant-design[\\/]icons(-svg)?[\\/](?!inline-svg[\\/])/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
