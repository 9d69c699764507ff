// Precompressed siblings for build.py (tools/compress.py): Brotli and gzip of one file each,
// with fixed settings, so the same input gives the same bytes on every build.
//
//   node tools/compress.mjs JOBS
//
// JOBS  a JSON list of [source, brotli_target, gzip_target]; each target is written whole.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

for (const [source, brotliTarget, gzipTarget] of JSON.parse(process.argv[2])) {
  const data = readFileSync(source);
  writeFileSync(brotliTarget, brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }));
  // gzip's header holds no name and a zero mtime from Node: only the data varies.
  writeFileSync(gzipTarget, gzipSync(data, { level: 9 }));
}
