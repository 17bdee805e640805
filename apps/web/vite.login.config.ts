import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The sign-in screen's own build (login.html -> src/login/main.tsx), written into the same dist/ as
 * the console. The same React components, compiled against Preact's React compatibility layer:
 * about 10 KB gzip instead of react-dom's 60, which keeps everything the login page loads under
 * 100 KB (DESIGN.md §9). The forms use plain hooks and DOM (no antd), which the layer covers.
 * `--ssr src/login/prerender.tsx` builds the same page for the build-time prerender.
 */
const preact = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  resolve: { alias: preact },
  // The prerender runs in Node: bundle everything, so the aliases apply to dependencies too.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? { outDir: 'dist-prerender', emptyOutDir: true, target: 'node20' }
    : {
        outDir: 'dist',
        // The console's build ran first into the same folder.
        emptyOutDir: false,
        manifest: '.vite/login-manifest.json',
        target: 'es2022',
        rolldownOptions: { input: 'login.html' },
      },
}));
