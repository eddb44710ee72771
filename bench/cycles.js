#!/usr/bin/env node --expose-gc
// Memory over start and close (issue 30 item 3): N `startServer()` +
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
// `node --expose-gc bench/cycles.js [N]` after `npm run build` (default
// 1 000; part of `npm run bench`). Exits 1 if a target is missed.
import http from 'node:http';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import request from 'supertest';

const N = Number(process.argv[2] ?? 1_000);
const TARGET_MB = 20;
const WARM_UP = 50;
if (!globalThis.gc) {
  console.error('run with node --expose-gc');
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

const only = process.argv.indexOf('--only');
if (only > 0) {
  // A child: one run, its figures as the last line.
  console.log(JSON.stringify(await cycles(process.argv[only + 1], N)));
  process.exit(0);
}

/** One run in a fresh process of the same node and flags. */
async function inChild(name) {
  const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(N), '--only', name], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (b) => (out += b));
  const code = await new Promise((r) => proc.on('exit', r));
  if (code !== 0) throw new Error(`bench/cycles.js --only ${name} exited ${code}`);
  return JSON.parse(out.trim().split('\n').pop());
}

const runs = {};
for (const name of Object.keys(RUNS)) runs[name] = await inChild(name);
const growth = (r) => r.after.rss - r.before.rss;
console.log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; each run in a fresh process`);
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
const checks = Object.values(runs).filter((r) => RUNS[r.name].ceiling).map((r) => {
  const ceiling = runs[RUNS[r.name].ceiling];
  const own = growth(r) - Math.max(0, growth(ceiling));
  return [`RSS growth over ${r.n} × ${r.name}, beyond ${ceiling.name}'s (${mb(growth(r))} − ${mb(Math.max(0, growth(ceiling)))} MB, after gc())`, mb(own), `≤ ${TARGET_MB}`, own <= TARGET_MB * 2 ** 20];
});
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
process.exit(checks.every((c) => c[3]) ? 0 : 1);
