// Bundles the compiled CLI (dist/src/cli.js and everything it imports, the
// packages included) into one file, dist/cli.mjs, which bin/emulator.js
// runs: one file to read and compile instead of ~150 of ours and several
// hundred of the packages', about 45 ms of `emulator start` (issue 10,
// "spawn → first 200 on health"). `import('resend-emulator')` still loads
// dist/src/. Run by `npm run build` after tsc; paths are resolved from this
// file. better-sqlite3 stays outside (a native addon); packages loaded on
// first use (src/lazy.ts) are required at run time from node_modules.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await esbuild.build({
  entryPoints: [path.join(root, 'dist', 'src', 'cli.js')],
  outfile: path.join(root, 'dist', 'cli.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  // The packages bundled are CommonJS: their `require` of node's modules needs a real `require` in an ES module.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
