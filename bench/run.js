#!/usr/bin/env node
// Speed and memory targets of resend-emulator, measured against a bare
// node:http server in the same run (`npm run bench`, after `npm run build`).
// Exits 1 if a target is missed. Loopback only; every load is bounded in time.
import http from 'node:http';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { startServer } from '../dist/src/index.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;

/** Targets; throughput ratios are emulator / bare node:http in this run. */
const TARGETS = {
  listRatio: 0.06,          // GET /domains (auth + list + request log) ≥ 6 % of the baseline's req/s
  sendRatio: 0.03,          // POST /emails (validation, rules, lifecycle jobs, request log) ≥ 3 %
  p99Ms: 50,                // p99 latency of the API scenarios
  deepPageRatio: 2.0,       // a page at 100 000 rows costs ≤ 2× a page at 100 rows
  rssMb: 400,               // resident memory after 100 000 rows and the loads
  coldStartMs: 1000,        // `emulator start --port 0` spawned → first 200 from /_emulator/health
};

/** Spawns the built CLI and times spawn → banner → first healthy answer (ms). */
async function coldStart() {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [new URL('../bin/emulator.js', import.meta.url).pathname, 'start', '--port', '0', '--log-level', 'error'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (b) => {
      out += b;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`emulator exited ${code}`)));
  });
  const res = await fetch(`${url}/_emulator/health`);
  const ms = performance.now() - t0;
  proc.kill('SIGTERM');
  if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  return ms;
}

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function row(name, r) {
  return { scenario: name, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, errors: r.errors + r.non2xx };
}

const startMs = [];
for (let i = 0; i < 3; i++) startMs.push(await coldStart());
const coldStartMs = Math.round(Math.min(...startMs));

const baseline = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"object":"list","has_more":false,"data":[]}');
});
await new Promise((r) => baseline.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${baseline.address().port}`;

const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const auth = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };

const results = [];
const base = await run({ url: `${baseUrl}/domains` });
results.push(row('bare node:http GET', base));
const health = await run({ url: `${emu.url}/_emulator/health` });
results.push(row('emulator GET /_emulator/health', health));
const list = await run({ url: `${emu.url}/domains`, headers: auth });
results.push(row('emulator GET /domains', list));
const send = await run({
  url: `${emu.url}/emails`, method: 'POST', headers: auth,
  body: JSON.stringify({ from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello <a href="https://example.com">there</a></p>' }),
});
results.push(row('emulator POST /emails', send));

// Scale: 100 000 API keys in the default team, then a page at the top and deep down.
const db = emu.ctx.db;
const teamId = db.prepare('SELECT team_id FROM api_keys ORDER BY seq LIMIT 1').get().team_id; // the default team's
const insert = db.prepare('INSERT INTO api_keys (id, team_id, name, token_hash, permission, created_at) VALUES (?, ?, ?, ?, ?, ?)');
const addKeys = (from, to) => db.transaction(() => {
  for (let i = from; i < to; i++) insert.run(crypto.randomUUID(), teamId, `k${i}`, `hash-${i}`, 'full_access', Date.now());
})();
addKeys(0, 99); // 100 with the fixture key: the page is the whole list
const small = await run({ url: `${emu.url}/api-keys?limit=100`, headers: auth });
addKeys(99, 100_000);
const cursor = db.prepare('SELECT id FROM api_keys ORDER BY seq DESC LIMIT 1 OFFSET 90000').get().id;
const big = await run({ url: `${emu.url}/api-keys?limit=100&after=${cursor}`, headers: auth });
results.push(row('GET /api-keys?limit=100 at 100 rows', small));
results.push(row('GET /api-keys?limit=100 deep at 100 000 rows', big));
const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);

await emu.close();
baseline.close();

console.table(results);
const checks = [
  ['GET /domains vs baseline', list.requests.average / base.requests.average, `≥ ${TARGETS.listRatio}`, list.requests.average / base.requests.average >= TARGETS.listRatio],
  ['POST /emails vs baseline', send.requests.average / base.requests.average, `≥ ${TARGETS.sendRatio}`, send.requests.average / base.requests.average >= TARGETS.sendRatio],
  ['p99 GET /domains (ms)', list.latency.p99, `≤ ${TARGETS.p99Ms}`, list.latency.p99 <= TARGETS.p99Ms],
  ['p99 POST /emails (ms)', send.latency.p99, `≤ ${TARGETS.p99Ms}`, send.latency.p99 <= TARGETS.p99Ms],
  ['deep page / small page latency', big.latency.average / small.latency.average, `≤ ${TARGETS.deepPageRatio}`, big.latency.average / small.latency.average <= TARGETS.deepPageRatio],
  ['errors in API scenarios', list.errors + list.non2xx + send.errors + send.non2xx + big.non2xx, '= 0', list.errors + list.non2xx + send.errors + send.non2xx + big.non2xx === 0],
  ['RSS after 100 000 rows (MB)', rssMb, `≤ ${TARGETS.rssMb}`, rssMb <= TARGETS.rssMb],
  ['CLI cold start to healthy, best of 3 (ms)', coldStartMs, `≤ ${TARGETS.coldStartMs}`, coldStartMs <= TARGETS.coldStartMs],
];
console.table(checks.map(([target, value, goal, ok]) => ({ target, value: Number(value.toFixed ? value.toFixed(3) : value), goal, ok })));
const missed = checks.filter((c) => !c[3]);
console.log(missed.length ? `${missed.length} target(s) missed` : 'all targets met');
process.exit(missed.length ? 1 : 0);
