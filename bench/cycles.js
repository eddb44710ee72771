#!/usr/bin/env node --expose-gc
// Memory over start and close (issue 30 item 3, issue 36 item 1): N `startServer()` +
// `close()` cycles, and N `createApp()` + `close()` cycles, each emulator
// used as a test would (a send, the list, the email: fetch on the listener,
// a connection per request, supertest on the app), beside the same cycles
// of a bare `node:http` server (the ceilings: a server answering constant
// JSON, listened, called and closed the same way; a bare handler through
// supertest). Each run is its own fresh process (a run's freed pages would
// otherwise flatter the next); RSS and JS heap after forced gc()s before
// and after. A Vitest worker that starts a fresh emulator per test does
// this thousands of times.
// Target: each emulator run ends within 20 MB of where it began, beyond
// what its ceiling grows in the same run: on Node 24 a bare node:http
// server listening and closing 1,000 times grows RSS by tens of MB itself
// (native memory, flat JS heap: Node's own), which no emulator code can
// give back (docs/benchmarks.md, "Memory over start and close").
// Then the same without any forced collection (issue 36): M cycles (default
// 10 x N) in processes started without --expose-gc, of `startServer()` +
// `close()` with no request, `createApp()` served by a server of the user's
// (`http.createServer(app)`) + both closed, and `createApp()` + `close()`,
// beside a bare node:http server listened and closed as many times. No
// request means the cycles never return to the event loop, so node keeps
// every closed server (and what it references) until the end: what a
// closed emulator leaves reachable from its listener shows there, and V8's
// own collections must free the rest. Target: heap and RSS at the end
// within 50 MB of the bare server's in the same run (from after a warm-up
// of 20 cycles, so the emulator's loaded code is not counted).
// Last, a Vitest file of T tests (default 2 x N), each with a `startServer()`
// of its own (`beforeEach` / `afterEach`, no request), run by Vitest in a
// forks worker, beside the same file with a bare node:http server per test:
// heap and RSS growth of the worker from `beforeAll` to `afterAll`, the same
// 50 MB target beyond the bare file's (skipped by `--unforced-run`).
// `node --expose-gc bench/cycles.js [N] [--unforced-cycles M] [--unforced-only] [--unforced-run PREFIX] [--unforced-check heap] [--vitest-tests T]`
// after `npm run build` (default N 1 000; part of `npm run bench`).
// Exits 1 if a target is missed. test/cli/cycles-unforced.test.ts runs a
// shortened `--unforced-only` in CI.
import http from 'node:http';
import os from 'node:os';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';

const N = /^\d+$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : 1_000;
/** Value of `--name V` on the command line, or undefined. */
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const N_UNFORCED = Number(option('--unforced-cycles') ?? N * 10);
const UNFORCED_ONLY = process.argv.includes('--unforced-only');
const TARGET_MB = 20;
/** Heap and RSS at the end of an unforced run, beyond the bare server's (issue 36 item 1). */
const UNFORCED_TARGET_MB = 50;
const WARM_UP = 50;
/** Cycles before an unforced run's first figures: what loading the modules takes is no cycle's. */
const UNFORCED_WARM_UP = 20;
/** `--unforced-run PREFIX`: only the unforced runs whose name starts with it (and their ceilings). */
const UNFORCED_RUN = option('--unforced-run');
/** `--unforced-check heap`: the unforced runs' heap checks only (RSS there is the allocator's to give back, noisier in a short run). */
const UNFORCED_CHECKS = option('--unforced-check') === 'heap' ? [['heap', 'heapUsed']] : [['heap', 'heapUsed'], ['RSS', 'rss']];
const unforcedChild = process.argv.includes('--unforced');
/** Tests of the Vitest file run (`--vitest-tests T`; 0 skips it). */
const VITEST_TESTS = Number(option('--vitest-tests') ?? (UNFORCED_RUN ? 0 : 2 * N));
if (!globalThis.gc && !unforcedChild && !UNFORCED_ONLY) {
  console.error('run with node --expose-gc (or --unforced-only)');
  process.exit(2);
}
const mb = (b) => Math.round((b / 2 ** 20) * 10) / 10;
/** Memory after full collections, and a pause so the allocator can hand pages back. */
async function settled() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  return process.memoryUsage();
}

const email = { from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello</p>' };

/** One request on a connection of its own (node:http, no agent: a client's connection pools are not the emulator's memory); resolves the JSON body. */
function call(url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A send, the list and the email through the listener. */
async function useServer(emu) {
  const headers = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
  const sent = await call(`${emu.url}/emails`, 'POST', headers, JSON.stringify(email));
  await call(`${emu.url}/emails`, 'GET', headers);
  await call(`${emu.url}/emails/${sent.id}`, 'GET', headers);
  return emu;
}

/** The same through the app, with supertest. */
async function useApp(emu) {
  const auth = `Bearer ${emu.apiKey}`;
  const sent = await request(emu.app).post('/emails').set('authorization', auth).send(email);
  await request(emu.app).get('/emails').set('authorization', auth);
  await request(emu.app).get(`/emails/${sent.body.id}`).set('authorization', auth);
  return emu;
}

/** The ceilings' handler: reads the body, answers constant JSON of the shape the calls read (`id`). */
function bareHandler(req, res) {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":"4ef9a417-02e9-4d39-ad75-9611e0fcc33c","object":"list","data":[]}');
  });
}

/** Ceiling of `startServer()`: a bare node:http server listening on loopback, closed as the emulator closes its own. */
async function openBareServer() {
  const server = http.createServer(bareHandler);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    apiKey: 'bare',
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
  };
}

/** Ceiling of `createApp()`: the bare handler, through supertest. */
async function openBareApp() {
  return { app: bareHandler, apiKey: 'bare', close: async () => {} };
}

/** Nothing: cycles with no request (they never return to the event loop). */
const noUse = async (emu) => emu;

/** `createApp()` served by a server of the user's (`http.createServer(app)`), both closed by `close()`. */
async function openAppInUserServer() {
  const emu = await (await import('../dist/src/index.js')).createApp({ logLevel: 'error' });
  const server = http.createServer(emu.app);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await emu.close();
    },
  };
}

/** The unforced runs (no gc() anywhere, children without --expose-gc): name → open, use, ceiling. */
const UNFORCED = {
  'startServer() + close(), no request': { open: async () => (await import('../dist/src/index.js')).startServer({ logLevel: 'error' }), use: noUse, ceiling: 'bare node:http server + close(), no request' },
  'createApp() in a user\'s http.createServer + both closed': { open: openAppInUserServer, use: noUse, ceiling: 'bare node:http server + close(), no request' },
  'createApp() + close(), no request': { open: async () => (await import('../dist/src/index.js')).createApp({ logLevel: 'error' }), use: noUse, ceiling: 'bare node:http server + close(), no request' },
  'bare node:http server + close(), no request': { open: openBareServer, use: noUse },
};

/** The runs: name → [open, use]; `ceiling` names the run each emulator run is measured against. */
const RUNS = {
  'startServer() + close()': { open: async () => (await import('../dist/src/index.js')).startServer({ logLevel: 'error' }), use: useServer, ceiling: 'bare node:http server + close()' },
  'bare node:http server + close()': { open: openBareServer, use: useServer },
  'createApp() + close()': { open: async () => (await import('../dist/src/index.js')).createApp({ logLevel: 'error' }), use: useApp, ceiling: 'bare handler through supertest' },
  'bare handler through supertest': { open: openBareApp, use: useApp },
};

/** Runs `n` cycles of `open`, `use` then `close()`; returns RSS, heap and external memory before and after (after gc()), and ms per cycle. */
async function cycles(name, n) {
  const { open, use } = RUNS[name];
  for (let i = 0; i < WARM_UP; i++) await (await use(await open())).close();
  const before = await settled();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await use(await open())).close();
  const msEach = (performance.now() - t0) / n;
  const after = await settled();
  return { name, n, before, after, msEach };
}

/** Runs `n` cycles of an unforced run with no collection of ours; memory as the process has it after a warm-up (modules loaded) and at the end. */
async function unforcedCycles(name, n) {
  const { open, use } = UNFORCED[name];
  for (let i = 0; i < UNFORCED_WARM_UP; i++) await (await use(await open())).close();
  const before = process.memoryUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await use(await open())).close();
  const msEach = (performance.now() - t0) / n;
  const after = process.memoryUsage();
  return { name, n, before, after, msEach };
}

const only = process.argv.indexOf('--only');
if (only > 0) {
  // A child: one run, its figures as the last line.
  const name = process.argv[only + 1];
  console.log(JSON.stringify(unforcedChild ? await unforcedCycles(name, N) : await cycles(name, N)));
  process.exit(0);
}

/** One run in a fresh process of the same node and flags (an unforced one: without --expose-gc, `n` cycles). */
async function inChild(name, unforced = false, n = N) {
  const flags = unforced ? process.execArgv.filter((a) => a !== '--expose-gc') : process.execArgv;
  const proc = spawn(process.execPath, [...flags, fileURLToPath(import.meta.url), String(n), '--only', name, ...(unforced ? ['--unforced'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (b) => (out += b));
  const code = await new Promise((r) => proc.on('exit', r));
  if (code !== 0) throw new Error(`bench/cycles.js --only ${name} exited ${code}`);
  return JSON.parse(out.trim().split('\n').pop());
}

console.log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; each run in a fresh process`);
const checks = [];
if (!UNFORCED_ONLY) {
  const runs = {};
  for (const name of Object.keys(RUNS)) runs[name] = await inChild(name);
  const growth = (r) => r.after.rss - r.before.rss;
  console.log('With forced collections (gc() before and after):');
  console.table(Object.values(runs).map((r) => ({
    cycles: `${r.n} × ${r.name}`,
    'ms each': Math.round(r.msEach * 10) / 10,
    'RSS before MB': mb(r.before.rss),
    'RSS after MB': mb(r.after.rss),
    'RSS growth MB': mb(growth(r)),
    'heap growth MB': mb(r.after.heapUsed - r.before.heapUsed),
    'external growth MB': mb(r.after.external - r.before.external),
  })));
  // The emulator's own growth: its run's, beyond its ceiling's (never below zero: a ceiling that shrank excuses nothing).
  for (const r of Object.values(runs).filter((r) => RUNS[r.name].ceiling)) {
    const ceiling = runs[RUNS[r.name].ceiling];
    const own = growth(r) - Math.max(0, growth(ceiling));
    checks.push([`RSS growth over ${r.n} × ${r.name}, beyond ${ceiling.name}'s (${mb(growth(r))} − ${mb(Math.max(0, growth(ceiling)))} MB, after gc())`, mb(own), `≤ ${TARGET_MB}`, own <= TARGET_MB * 2 ** 20]);
  }
}
const unforced = {};
const picked = Object.keys(UNFORCED).filter((name) => !UNFORCED_RUN || name.startsWith(UNFORCED_RUN));
for (const name of new Set([...picked, ...picked.map((n) => UNFORCED[n].ceiling).filter(Boolean)])) unforced[name] = await inChild(name, true, N_UNFORCED);
console.log('Without forced collections (no gc() anywhere, processes without --expose-gc):');
console.table(Object.values(unforced).map((r) => ({
  cycles: `${r.n} × ${r.name}`,
  'ms each': Math.round(r.msEach * 10) / 10,
  'heap at start MB': mb(r.before.heapUsed),
  'heap at end MB': mb(r.after.heapUsed),
  'RSS at start MB': mb(r.before.rss),
  'RSS at end MB': mb(r.after.rss),
})));
// From after the warm-up (modules loaded: an emulator's process holds its code, the bare one none) to the end.
const grown = (r, key) => r.after[key] - r.before[key];
for (const r of Object.values(unforced).filter((r) => UNFORCED[r.name].ceiling)) {
  const ceiling = unforced[UNFORCED[r.name].ceiling];
  for (const [what, key] of UNFORCED_CHECKS) {
    const beyond = grown(r, key) - grown(ceiling, key);
    checks.push([`${what} growth over ${r.n} × ${r.name}, beyond ${ceiling.name}'s (${mb(grown(r, key))} − ${mb(grown(ceiling, key))} MB, no gc())`, mb(beyond), `≤ ${UNFORCED_TARGET_MB}`, beyond <= UNFORCED_TARGET_MB * 2 ** 20]);
  }
}
if (VITEST_TESTS > 0) {
  const runs = { bare: await vitestFile('bare', VITEST_TESTS), emulator: await vitestFile('emulator', VITEST_TESTS) };
  console.log(`A Vitest file of ${VITEST_TESTS} tests, a server of its own per test (no gc()):`);
  console.table(Object.entries(runs).map(([kind, r]) => ({ 'server per test': kind === 'bare' ? 'bare node:http server' : 'startServer()', 'heap growth MB': mb(r.heap), 'RSS growth MB': mb(r.rss) })));
  for (const [what, key] of UNFORCED_CHECKS.map(([w, k]) => [w, k === 'heapUsed' ? 'heap' : 'rss'])) {
    const beyond = runs.emulator[key] - runs.bare[key];
    checks.push([`${what} growth over a Vitest file of ${VITEST_TESTS} tests with a startServer() each, beyond a bare server each (${mb(runs.emulator[key])} − ${mb(runs.bare[key])} MB, no gc())`, mb(beyond), `≤ ${UNFORCED_TARGET_MB}`, beyond <= UNFORCED_TARGET_MB * 2 ** 20]);
  }
}
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
process.exit(checks.every((c) => c[3]) ? 0 : 1);

/**
 * Runs a Vitest file of `tests` tests, each with a server of its own
 * (`kind`: `emulator`, a `startServer()`; `bare`, a node:http server), in a
 * folder of bench/tmp made for it (removed after); resolves the worker's
 * heap and RSS growth in bytes from `beforeAll` to `afterAll`.
 */
async function vitestFile(kind, tests) {
  const root = path.dirname(fileURLToPath(import.meta.url));
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(root, 'tmp', 'cycles-vitest-'));
  try {
    const entry = path.relative(dir, path.join(root, '..', 'dist', 'index.mjs')).split(path.sep).join('/');
    fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), "export default { test: { include: ['fresh.test.mjs'], pool: 'forks' } };\n");
    fs.writeFileSync(path.join(dir, 'fresh.test.mjs'), `import http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startServer } from '${entry}';
async function bare() {
  const server = http.createServer((req, res) => res.end());
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
let server;
let before;
beforeAll(() => { before = process.memoryUsage(); });
beforeEach(async () => { server = ${kind === 'bare' ? 'await bare()' : "await startServer({ logLevel: 'error' })"}; });
afterEach(() => server.close());
for (let i = 0; i < ${tests}; i++) it('test ' + i, () => { expect(server).toBeTruthy(); });
afterAll(() => {
  const m = process.memoryUsage();
  console.log('GROWTH ' + JSON.stringify({ heap: m.heapUsed - before.heapUsed, rss: m.rss - before.rss }));
});
`);
    const vitest = path.join(root, '..', 'node_modules', 'vitest', 'vitest.mjs');
    const proc = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (b) => (out += b));
    const code = await new Promise((r) => proc.on('exit', r));
    const line = /GROWTH (\{.*\})/.exec(out);
    if (code !== 0 || !line) throw new Error(`the Vitest file (${kind}) exited ${code}:\n${out}`);
    return JSON.parse(line[1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
