// Bundles what users load, so that a start reads a few files instead of
// ~220 of ours (module loading was most of `import('resend-emulator')` +
// the first `startServer()`, by a CPU profile):
// - the CLI: dist/src/cli.js and everything it imports, the packages
//   included, into dist/cli.mjs, which bin/emulator.js runs; what it imports
//   dynamically (TLS, the SMTP relay, the reference check) goes into
//   dist/cli-chunk-*.mjs, read only by the starts that use it;
// - the package's entries (`.`, `/vitest`, `/jest`, `/playwright`):
//   dist/index.mjs, dist/vitest.mjs, dist/jest.mjs, dist/playwright.mjs and
//   the chunks they share (dist/chunk-*.mjs, so the entries share one copy
//   of the emulator's modules); the packages stay outside, imported from
//   node_modules as dependencies and peers.
// Run by `npm run build` after tsc; paths are resolved from this file. Every
// file lands in dist/ itself, where src/http/spec.ts and the inbox page look
// for their files. better-sqlite3 stays outside the CLI (a native addon);
// packages loaded on first use (src/lazy.ts) are required at run time.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Chunks of an earlier build (their names are content hashes) go first.
for (const f of fs.readdirSync(path.join(root, 'dist'))) if (/^(cli-)?chunk-.*\.mjs$/.test(f)) fs.rmSync(path.join(root, 'dist', f));
await esbuild.build({
  entryPoints: { cli: path.join(root, 'dist', 'src', 'cli.js') },
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // What only some starts need (TLS and its certificate packages, the reference check's YAML parsers, the SMTP relay) is imported dynamically: chunks of their own, not read by a start without them.
  splitting: true,
  chunkNames: 'cli-chunk-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  // The packages bundled are CommonJS: their `require` of node's modules needs a real `require` in an ES module.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});

await esbuild.build({
  entryPoints: ['index', 'vitest', 'jest', 'playwright'].map((name) => path.join(root, 'dist', 'src', `${name}.js`)),
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
