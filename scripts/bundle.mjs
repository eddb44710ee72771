// Bundles what users load, so that a start reads a few files instead of
// ~220 of ours (module loading was most of `import('resend-emulator')` +
// the first `startServer()`, by a CPU profile):
// - the CLI: dist/src/cli.js and everything it imports, the packages
//   included, into dist/cli.mjs, which bin/emulator.js runs; what it imports
//   dynamically (TLS, the SMTP relay, the reference check) goes into
//   dist/cli-chunk-*.mjs, read only by the starts that use it;
// - the package's entries (`.`, `/vitest`, `/jest`, `/playwright`), as ES
//   modules (dist/index.mjs, ...) and as CommonJS (dist/index.cjs, ...),
//   thin files over one CommonJS core, dist/core.cjs and dist/testing.cjs (see below); the
//   packages stay outside, loaded from node_modules as dependencies and
//   peers.
// Run by `npm run build` after tsc; paths are resolved from this file. Every
// file lands in dist/ itself, where src/http/spec.ts and the inbox page look
// for their files. better-sqlite3 stays outside the CLI (a native addon);
// packages loaded on first use (src/lazy.ts) are required at run time.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages of yargs used only to print help and usage, whose module code
 * does costly work when it runs (string-width and cliui's copy of it: a
 * `\p{RGI_Emoji}` regular expression and `Intl.Segmenter`s, ~25 ms of a CPU
 * profile of `emulator start`). Each is a function its importer calls
 * (their default export), so the CLI bundle gets a stand-in that runs the
 * package on the first call: a start that prints no help never runs them.
 */
const HELP_ONLY = /^(cliui|string-width)$/;
/** esbuild plugin: an import of a HELP_ONLY package gets the stand-in, which require()s the package's own file (esbuild makes that module lazy). */
const helpOnlyOnCall = {
  name: 'help-only-on-call',
  setup(build) {
    build.onResolve({ filter: HELP_ONLY }, async (args) => {
      if (args.pluginData?.real) return undefined;
      const real = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { real: true } });
      if (real.errors.length) return { errors: real.errors };
      // Named from the root, so the bundle names no folder of the build's machine.
      return { path: path.relative(root, real.path).split(path.sep).join('/'), namespace: 'help-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'help-only' }, (args) => ({
      contents: `let real;\nexport default function onFirstCall(...args) {\n  real ??= require(${JSON.stringify(`./${args.path}`)}).default;\n  return real(...args);\n}\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};
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
  plugins: [helpOnlyOnCall],
  // The packages bundled are CommonJS: their `require` of node's modules needs a real `require` in an ES module.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The package's entries, each as CommonJS (`require`, Jest's default
// runtime) and as an ES module (`import`), over ONE copy of the emulator:
// - dist/core.cjs: src/index.ts and everything under it (what the main
//   entry needs, nothing more: no test framework, no `resend`, an optional
//   peer);
// - dist/testing.cjs: src/testing/ (the helpers the framework entries
//   share; they use `resend`), whose imports of the rest are imports of
//   ./core.cjs.
// An entry's own file (the framework glue of src/jest.ts, src/playwright.ts,
// src/vitest.ts; the export list of src/index.ts) is bundled alone, each of
// its imports of our modules becoming an import of ./testing.cjs or
// ./core.cjs. So `import` and `require()` of any entries in one process
// share the same store code, `WaitTimeoutError` class and caches (no
// dual-package hazard), and a framework (vitest, @jest/globals,
// @playwright/test) is loaded only by the entry that needs it, in the
// caller's own module format.
// `/vitest` has no CommonJS build: vitest itself cannot be require()d; a
// require() of dist/vitest.mjs works on Node >= 20.19 (require(esm)).
const ENTRIES = ['index', 'vitest', 'jest', 'playwright'];
const CJS_ENTRIES = ['index', 'jest', 'playwright'];
const distSrc = path.join(root, 'dist', 'src');
const testingDir = path.join(distSrc, 'testing') + path.sep;
const common = { bundle: true, packages: 'external', platform: 'node', target: 'node20', logLevel: 'warning' };

for (const f of fs.readdirSync(path.join(root, 'dist'))) if (/^(index|vitest|jest|playwright|core|testing)\.(c|m)js$/.test(f)) fs.rmSync(path.join(root, 'dist', f));

/** Our modules the entries and src/testing/ import (absolute paths), filled by `shared`: each goes into dist/core.cjs or dist/testing.cjs. */
// src/internals.ts too: no entry exports it (it is not the package's API), but the benches reach a bundled
// emulator's store through dist/core.cjs's `storeOf`, the same module instance the entries use.
const coreModules = new Set([path.join(distSrc, 'index.js'), path.join(distSrc, 'internals.js')]);
const testingModules = new Set();
/**
 * esbuild plugin: a relative import becomes the external ./testing.cjs (a
 * module of src/testing/) or ./core.cjs (any other); `inTesting`: imports
 * between modules of src/testing/ stay in the bundle (building testing.cjs).
 */
const shared = (inTesting = false, format = 'cjs') => ({
  name: 'shared',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.namespace === 'require-bridge') return { path: args.path, external: true };
      const target = path.resolve(args.resolveDir, args.path);
      const testing = target.startsWith(testingDir);
      if (inTesting && testing) return undefined;
      (testing ? testingModules : coreModules).add(target);
      const file = testing ? './testing.cjs' : './core.cjs';
      return format === 'esm' ? { path: file, namespace: 'require-bridge' } : { path: file, external: true };
    });
    // An ES module entry require()s the shared CommonJS file (see REQUIRE_BRIDGE) instead of importing it.
    build.onLoad({ filter: /.*/, namespace: 'require-bridge' }, (args) => ({ contents: `module.exports = __requireShared(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
});
/**
 * The ES module entries load dist/core.cjs and dist/testing.cjs with a
 * `require` of their own (`createRequire`), not an `import`: node's `import`
 * of a CommonJS file first scans its whole source for its export names
 * (cjs-module-lexer, ~100 ms of CPU for the 550 KB core on Node 20, by a CPU
 * profile of `import('resend-emulator')`), and reads it a second time to
 * run it. Through `require` it is read and compiled once, and it is the same
 * module instance a `require()` of the CommonJS entries gets.
 */
const REQUIRE_BRIDGE = "import { createRequire as __createRequire } from 'node:module';\nconst __requireShared = __createRequire(import.meta.url);";

/** The names a module exports (`file`: its path, or esbuild's `stdin`), by an in-memory ES module build. */
async function exportsOf(file) {
  const input = typeof file === 'string' ? { entryPoints: [file] } : { stdin: file };
  const r = await esbuild.build({ ...common, ...input, format: 'esm', write: false, metafile: true, outdir: path.join(root, 'dist') });
  return Object.values(r.metafile.outputs).find((o) => o.entryPoint)?.exports ?? [];
}

const indexNames = await exportsOf(path.join(distSrc, 'index.js'));
for (const [format, ext, names] of [['esm', '.mjs', ENTRIES], ['cjs', '.cjs', CJS_ENTRIES]]) {
  for (const name of names) {
    // The main entry's code is in the core (the test helpers call its startServer): its file here only re-exports.
    const entry = name === 'index'
      ? { stdin: { contents: `export { ${indexNames.join(', ')} } from './index.js';`, resolveDir: distSrc, sourcefile: 'index.js' } }
      : { entryPoints: [path.join(distSrc, `${name}.js`)] };
    await esbuild.build({ ...common, ...entry, format, outfile: path.join(root, 'dist', `${name}${ext}`), plugins: [shared(false, format)], ...(format === 'esm' ? { banner: { js: REQUIRE_BRIDGE } } : {}) });
  }
}

/**
 * Builds dist/<file> as CommonJS from `export * from` each of `modules`.
 * That flattens their named exports: a name two of them export differently
 * would be lost (ES `export *` rules), so the build stops on one.
 */
async function buildShared(file, modules, plugins) {
  const contents = [...modules].map((m) => `export * from ${JSON.stringify('./' + path.relative(distSrc, m).split(path.sep).join('/'))};`).join('\n');
  const stdin = { contents, resolveDir: distSrc, sourcefile: file.replace(/\.cjs$/, '.js') };
  const names = new Set(await exportsOf(stdin));
  for (const m of modules) {
    for (const n of await exportsOf(m)) if (!names.has(n)) throw new Error(`bundle: ${path.relative(root, m)} exports ${n}, which another module of dist/${file} exports too: rename one`);
  }
  await esbuild.build({
    ...common,
    stdin,
    format: 'cjs',
    outfile: path.join(root, 'dist', file),
    plugins,
    // src/http/spec.ts, src/admin/inbox-page.ts and src/lazy.ts find the package's files from their own URL.
    define: { 'import.meta.url': '__import_meta_url' },
    banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    // Packages loaded on first use with import() are require()d instead: Jest's CommonJS runtime has no import().
    supported: { 'dynamic-import': false },
  });
}
// caniemail (the HTML check, src/admin/html-check.ts) is an ES module only: Jest's CommonJS runtime cannot
// require() it (Node 20.19+ can, Jest before Node 24.9 cannot). dist/vendor-caniemail.cjs is it bundled as
// CommonJS, with its dependencies, required by the core on the first check only.
await esbuild.build({ ...common, packages: undefined, stdin: { contents: "export * from 'caniemail';", resolveDir: root, sourcefile: 'vendor-caniemail.js' }, format: 'cjs', outfile: path.join(root, 'dist', 'vendor-caniemail.cjs') });
/** esbuild plugin: `caniemail` becomes the external ./vendor-caniemail.cjs (above). */
const vendored = { name: 'vendor-caniemail', setup(build) { build.onResolve({ filter: /^caniemail$/ }, () => ({ path: './vendor-caniemail.cjs', external: true })); } };
// testing.cjs first: what it imports of the rest joins the core.
await buildShared('testing.cjs', testingModules, [shared(true), vendored]);
await buildShared('core.cjs', coreModules, [vendored]);

// The declarations for `require`: a copy of tsc's dist/src/**/*.d.ts under
// dist/cjs-types/, whose package.json says `commonjs`, so TypeScript reads
// them as CommonJS declarations (a CommonJS file of a user's project, under
// `module: node16`/`nodenext`, may not import ESM-format declarations:
// TS1479). package.json `exports` names them under `require` (and
// `typesVersions` for `moduleResolution: node10`, which knows no `exports`).
const cjsTypes = path.join(root, 'dist', 'cjs-types');
fs.rmSync(cjsTypes, { recursive: true, force: true });
fs.cpSync(distSrc, path.join(cjsTypes, 'src'), { recursive: true, filter: (f) => fs.statSync(f).isDirectory() || f.endsWith('.d.ts') });
fs.writeFileSync(path.join(cjsTypes, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
