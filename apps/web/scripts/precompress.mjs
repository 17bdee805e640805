#!/usr/bin/env node
// Writes brotli (.br) and gzip (.gz) siblings of every text file in dist/, once, at the strongest
// settings (the server picks one per request by Accept-Encoding and never compresses them itself).
// Node's own zlib does both: no plugin needed. Runs last in `npm run build -w @wxc/web`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this the headers cost more than compression saves (the server uses the same cut-off). */
const MIN_BYTES = 1024;

let files = 0;
let raw = 0;
let br = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== '.vite') walk(file);
      continue;
    }
    if (!TEXT.test(name)) continue;
    const data = readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const brotli = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    writeFileSync(`${file}.br`, brotli);
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    files += 1;
    raw += data.length;
    br += brotli.length;
  }
};
walk(dist);
console.log(
  `precompressed ${files} files: ${(raw / 1024).toFixed(0)} KiB -> ${(br / 1024).toFixed(0)} KiB brotli`,
);
