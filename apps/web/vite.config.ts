import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The service serves `dist/` at `/` with an index.html fallback; in dev, Vite proxies the API to it.
export default defineConfig({
  plugins: [react()],
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
  },
});
