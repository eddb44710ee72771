#!/usr/bin/env node
// Speed targets of resend-emulator (issue "Fast as the stack allows"), each
// printed beside the ceilings measured in the same run: a bare `node:http`
// server and express 5 alone with `express.json()` (bench/ceilings.js).
// Ratios are the targets: absolute figures move on shared machines.
// `npm run bench` (after `npm run build`); `node bench/scale.js` for growth
// with data. Then runs bench/quota.js, bench/cycles.js, bench/import.js and
// bench/broadcast.js (issue 30), each in its own process, one at a time.
// Loopback only; every load is bounded in time. Exits 1 if a target is
// missed.
import os from 'node:os';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { startCeilings, EXPRESS_START_SCRIPT } from './ceilings.js';
import { inboxStorageChecks, measureInboxStorage } from './inbox-storage.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
// Throughput is measured in alternating rounds (ceiling, emulator, ceiling, ...) and the median ratio kept: single runs on a shared machine swing by 2x.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const ROOT = new URL('..', import.meta.url).pathname;

/**
 * Targets; ratios are the emulator's over the ceiling's of the same run. The
 * app is an express 5 application, so the ceiling is express itself: the
 * emulator's work on top of it must keep these.
 */
const TARGETS = {
  sendVsExpress: 0.6,   // POST /emails ≥ 0.6× express alone (express.json, constant JSON)
  sendP99VsExpress: 1.5, // p99 of POST /emails ≤ 1.5× the ceiling's p99, 10 connections
  listVsExpress: 0.6,   // GET /emails?limit=100 ≥ 0.6× express serializing 100 items
  startVsExpress: 2,    // `node bin/emulator.js start` → first 200 on health ≤ 2× a bare express app's, medians of 5
  firstStartVsExpress: 2.5, // import('resend-emulator') + first startServer() ≤ 2.5× importing express and listening, fresh processes
  laterStartMs: 10,     // each later startServer() and createApp(), median
  deepPageRatio: 1.5,   // a page deep in 100 000 rows costs ≤ 1.5× a page at 100 rows
  advance10kMs: 500,    // a clock advance firing 10 000 due jobs
  waitDuringAdvanceMs: 50, // the longest a request waits behind that advance
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Spawns `args` with node, resolves the ms from spawn to the first 200 on `${url}${healthPath}`. */
async function spawnToHealthy(args, healthPath) {
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (b) => {
        out += b;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      proc.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    for (;;) {
      const res = await fetch(`${url}${healthPath}`).catch(() => null);
      if (res?.status === 200) return performance.now() - t0;
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode !== null ? r() : proc.on('exit', r)));
  }
}

/** Runs an ES module script in a fresh node process; resolves the JSON of its last stdout line. */
async function runScript(script) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (b) => (out += b));
  await new Promise((r) => proc.on('exit', r));
  return JSON.parse(out.trim().split('\n').pop());
}

/** In a fresh process: ms of `import('resend-emulator')` + the first `startServer()`, then the medians of 10 later `startServer()`s and `createApp()`s. */
function inProcessStart() {
  return runScript(`
    const t0 = performance.now();
    const { startServer, createApp } = await import(${JSON.stringify(new URL('../dist/index.mjs', import.meta.url).href)});
    const first = await startServer({ logLevel: 'error' });
    const firstMs = performance.now() - t0;
    await first.close();
    const later = [];
    const apps = [];
    for (let i = 0; i < 10; i++) { const t = performance.now(); const e = await startServer({ logLevel: 'error' }); later.push(performance.now() - t); await e.close(); }
    for (let i = 0; i < 10; i++) { const t = performance.now(); const e = await createApp({ logLevel: 'error' }); apps.push(performance.now() - t); await e.close(); }
    later.sort((a, b) => a - b);
    apps.sort((a, b) => a - b);
    console.log(JSON.stringify({ firstMs, laterMs: later[5], createAppMs: apps[5] }));`);
}

/** In a fresh process: ms of `import('express')` + an app with express.json listening (the ceiling of the first start). */
function expressInProcessStart() {
  return runScript(`
    const t0 = performance.now();
    const { default: express } = await import('express');
    const http = await import('node:http');
    const app = express();
    app.use(express.json());
    app.get('/health', (_req, res) => res.json({ status: 'ok' }));
    const s = http.createServer(app);
    await new Promise((r) => s.listen(0, '127.0.0.1', r));
    const ms = performance.now() - t0;
    s.close();
    console.log(JSON.stringify({ ms }));`);
}

function load(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}
/** 2xx answers per second (autocannon's average counts every answer). */
const ok = (r) => r['2xx'] / (r.duration || DURATION_S);
const row = (name, r) => ({ scenario: name, '2xx/s': Math.round(ok(r)), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx': r.non2xx + r.errors });

// --- start-up ---------------------------------------------------------------
const cli = [];
const exp = [];
const bare = [];
for (let i = 0; i < 5; i++) {
  cli.push(await spawnToHealthy(['bin/emulator.js', 'start', '--port', '0', '--smtp-port', '0', '--log-level', 'error'], '/_emulator/health'));
  exp.push(await spawnToHealthy(['--input-type=module', '-e', EXPRESS_START_SCRIPT], '/health'));
  bare.push(await spawnToHealthy(['-e', "const s=require('http').createServer((q,r)=>r.end('{}')).listen(0,'127.0.0.1',()=>console.log('listening on http://127.0.0.1:'+s.address().port))"], '/'));
}
const inprocRuns = [];
const expressInprocRuns = [];
for (let i = 0; i < 5; i++) {
  inprocRuns.push(await inProcessStart());
  expressInprocRuns.push((await expressInProcessStart()).ms);
}
const inproc = {
  firstMs: median(inprocRuns.map((r) => r.firstMs)),
  laterMs: median(inprocRuns.map((r) => r.laterMs)),
  createAppMs: median(inprocRuns.map((r) => r.createAppMs)),
};
const expressFirstMs = median(expressInprocRuns);
/** The start-up table (medians in ms). */
const startupRows = () => [
  { 'start-up (median of 5, ms)': 'node bin/emulator.js start → health', ms: Math.round(median(cli)) },
  { 'start-up (median of 5, ms)': 'ceiling: express alone → health', ms: Math.round(median(exp)) },
  { 'start-up (median of 5, ms)': 'ceiling: bare node:http → 200', ms: Math.round(median(bare)) },
  { 'start-up (median of 5, ms)': 'import + first startServer()', ms: Math.round(inproc.firstMs) },
  { 'start-up (median of 5, ms)': 'ceiling: import express + listen', ms: Math.round(expressFirstMs) },
  { 'start-up (median of 5, ms)': 'later startServer() (median of 10)', ms: Math.round(inproc.laterMs * 10) / 10 },
  { 'start-up (median of 5, ms)': 'later createApp() (median of 10)', ms: Math.round(inproc.createAppMs * 10) / 10 },
];
if (process.argv.includes('--startup')) {
  // The start-up part alone (`node bench/run.js --startup`): its table and its two ratios.
  console.table(startupRows());
  console.log(`CLI start → healthy / express: ${(median(cli) / median(exp)).toFixed(2)} (≤ ${TARGETS.startVsExpress}); import + first startServer() / express: ${(inproc.firstMs / expressFirstMs).toFixed(2)} (≤ ${TARGETS.firstStartVsExpress})`);
  process.exit(0);
}

// --- throughput ---------------------------------------------------------------
const { startServer } = await import('../dist/index.mjs');
const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const auth = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
const email = { from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello <a href="https://example.com">there</a></p>' };
for (let i = 0; i < 120; i++) {
  await fetch(`${emu.url}/emails`, { method: 'POST', headers: auth, body: JSON.stringify(email) });
}
const page = await (await fetch(`${emu.url}/emails?limit=100`, { headers: auth })).json();
const ceilings = await startCeilings(page.data);

const results = [];
const bareGet = await load({ url: `${ceilings.bareUrl}/` });
results.push(row('ceiling: bare node:http GET', bareGet));
// Alternating rounds; the round of the median send ratio is the one shown in the table.
const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const expressPost = await load({ url: `${ceilings.expressUrl}/emails`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(email) });
  const send = await load({ url: `${emu.url}/emails`, method: 'POST', headers: auth, body: JSON.stringify(email) });
  const expressList = await load({ url: `${ceilings.expressUrl}/emails` });
  const list = await load({ url: `${emu.url}/emails?limit=100`, headers: auth });
  rounds.push({ expressPost, send, expressList, list });
  console.log(`round ${i + 1}/${ROUNDS}: POST ${(ok(send) / ok(expressPost)).toFixed(2)}x (p99 ${send.latency.p99} vs ${expressPost.latency.p99} ms), GET list ${(ok(list) / ok(expressList)).toFixed(2)}x`);
}
const sendRatio = median(rounds.map((r) => ok(r.send) / ok(r.expressPost)));
const listRatio = median(rounds.map((r) => ok(r.list) / ok(r.expressList)));
const p99Ratio = median(rounds.map((r) => r.send.latency.p99 / Math.max(1, r.expressPost.latency.p99)));
const shown = rounds.find((r) => ok(r.send) / ok(r.expressPost) === sendRatio) ?? rounds[0];
const { expressPost, send, expressList, list } = shown;
results.push(row('ceiling: express POST /emails (express.json, constant JSON)', expressPost));
results.push(row('ceiling: express GET /emails (100 items serialized)', expressList));
results.push(row('emulator POST /emails', send));
results.push(row('emulator GET /emails?limit=100', list));
const non2xx = rounds.reduce((n, r) => n + r.send.non2xx + r.list.non2xx, 0);

// A page at 100 rows and deep in 100 000 (API keys, inserted through the store).
// The store of the bundled emulator: dist/core.cjs, the one copy dist/index.mjs loads, exports src/internals.ts's accessors.
const { storeOf } = createRequire(import.meta.url)('../dist/core.cjs');
const db = storeOf(emu);
const teamId = db.prepare('SELECT team_id FROM api_keys ORDER BY seq LIMIT 1').get().team_id;
const insert = db.prepare('INSERT INTO api_keys (id, team_id, name, token_hash, permission, created_at) VALUES (?, ?, ?, ?, ?, ?)');
const addKeys = (from, to) => db.transaction(() => {
  for (let i = from; i < to; i++) insert.run(crypto.randomUUID(), teamId, `k${i}`, `hash-${i}`, 'full_access', Date.now());
})();
addKeys(0, 99);
const small = await load({ url: `${emu.url}/api-keys?limit=100`, headers: auth });
addKeys(99, 100_000);
const cursor = db.prepare('SELECT id FROM api_keys ORDER BY seq DESC LIMIT 1 OFFSET 90000').get().id;
const big = await load({ url: `${emu.url}/api-keys?limit=100&after=${cursor}`, headers: auth });
results.push(row('GET /api-keys?limit=100 at 100 rows', small));
results.push(row('GET /api-keys?limit=100 deep in 100 000 rows', big));
// A clock advance firing 10 000 due jobs (emails.send of 10 000 queued emails), with health pinged meanwhile.
const batchBody = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ from: 'Bench <bench@example.com>', to: [`r${i}@example.net`], subject: 'Batch', text: 'hi' })));
await emu.clock.advance('1h'); // nothing else due
for (let i = 0; i < 100; i++) await fetch(`${emu.url}/emails/batch`, { method: 'POST', headers: auth, body: batchBody });
let advancing = true;
let longestWaitMs = 0;
const pinger = (async () => {
  while (advancing) {
    const t = performance.now();
    await fetch(`${emu.url}/_emulator/health`);
    longestWaitMs = Math.max(longestWaitMs, performance.now() - t);
  }
})();
const tAdvance = performance.now();
const firedJobs = (await emu.clock.advance('1s')).length;
const advanceMs = performance.now() - tAdvance;
advancing = false;
await pinger;
const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
await emu.close();
await ceilings.close();
// Inbox storage (issue 30 item 2): received emails into an inbox grow the store as the same emails to no inbox do.
const inboxStorage = await measureInboxStorage();

console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${CONNECTIONS} connections, ${DURATION_S} s a scenario`);
console.table(results);
console.table(startupRows());
const checks = [
  [`POST /emails / express ceiling (median of ${ROUNDS} rounds)`, sendRatio, `≥ ${TARGETS.sendVsExpress}`, sendRatio >= TARGETS.sendVsExpress],
  ['p99 POST /emails / ceiling p99 (median)', p99Ratio, `≤ ${TARGETS.sendP99VsExpress}`, p99Ratio <= TARGETS.sendP99VsExpress],
  [`GET /emails?limit=100 / express ceiling (median of ${ROUNDS} rounds)`, listRatio, `≥ ${TARGETS.listVsExpress}`, listRatio >= TARGETS.listVsExpress],
  ['CLI start → healthy / express app → healthy (medians)', median(cli) / median(exp), `≤ ${TARGETS.startVsExpress}`, median(cli) / median(exp) <= TARGETS.startVsExpress],
  ['import + first startServer() / import express + listen', inproc.firstMs / expressFirstMs, `≤ ${TARGETS.firstStartVsExpress}`, inproc.firstMs / expressFirstMs <= TARGETS.firstStartVsExpress],
  ['later startServer() (ms)', inproc.laterMs, `≤ ${TARGETS.laterStartMs}`, inproc.laterMs <= TARGETS.laterStartMs],
  ['later createApp() (ms)', inproc.createAppMs, `≤ ${TARGETS.laterStartMs}`, inproc.createAppMs <= TARGETS.laterStartMs],
  ['deep page / page at 100 rows (p50 latency)', big.latency.average / small.latency.average, `≤ ${TARGETS.deepPageRatio}`, big.latency.average / small.latency.average <= TARGETS.deepPageRatio],
  [`clock advance firing ${firedJobs} jobs (ms)`, advanceMs, `≤ ${TARGETS.advance10kMs}`, advanceMs <= TARGETS.advance10kMs && firedJobs >= 10_000],
  ['longest request wait during it (ms)', longestWaitMs, `≤ ${TARGETS.waitDuringAdvanceMs}`, longestWaitMs <= TARGETS.waitDuringAdvanceMs],
  ['non-2xx answers in the emulator scenarios', non2xx + small.non2xx + big.non2xx, '= 0', non2xx + small.non2xx + big.non2xx === 0],
  ...inboxStorageChecks(inboxStorage),
];
console.table(checks.map(([target, value, goal, met]) => ({ target, value: Number(Number(value).toFixed(3)), goal, met })));
console.log(`RSS after the loads and 100 000 keys: ${rssMb} MB`);

// --- the other scripts (issue 30), one at a time, each in a fresh process with its own targets and ceilings --------
/** [script, node flags, args]: quota, memory over start and close, contact import, broadcast. */
const SUITE = [
  ['bench/quota.js', [], []],
  ['bench/cycles.js', ['--expose-gc'], []],
  ['bench/import.js', [], []],
  ['bench/broadcast.js', [], []],
];
const suite = [];
for (const [script, flags, args] of SUITE) {
  console.log(`\n== node ${[...flags, script, ...args].join(' ')}`);
  const proc = spawn(process.execPath, [...flags, script, ...args], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise((r) => proc.on('exit', (c) => r(c)));
  suite.push({ script, met: code === 0 });
}
console.table(suite);
const missed = checks.filter((c) => !c[3]).length + suite.filter((s) => !s.met).length;
console.log(missed ? `${missed} target(s) or script(s) missed` : 'all targets met');
process.exit(missed ? 1 : 0);
