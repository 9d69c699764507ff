// One module of app/ bundled by esbuild with every module it imports, for build.py
// (tools/bundles.py bundle_modules). The entry is read from its source but resolved in another
// folder, dist/'s copy of its own, where the modules the build writes (the demos' registry, the
// course outline) are: esbuild's command line cannot say that, its API can.
//
//   node tools/bundle.mjs JOB
//
// JOB  a JSON object: {source, sourcefile, resolveDir, workingDir, outfile, metafile, external};
//      the metafile lists the modules bundled (esbuild's "inputs"), by path from workingDir.
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const job = JSON.parse(process.argv[2]);
const { metafile } = await build({
  stdin: {
    contents: readFileSync(job.source, "utf8"),
    sourcefile: job.sourcefile,
    resolveDir: job.resolveDir,
    loader: "js",
  },
  absWorkingDir: job.workingDir,
  bundle: true,
  format: "esm",
  // whitespace and syntax only: names stay, for readable stack traces (Brotli makes up the rest)
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "eof",
  logLevel: "warning",
  outfile: job.outfile,
  metafile: true,
  external: job.external,
});
writeFileSync(job.metafile, JSON.stringify(metafile));
