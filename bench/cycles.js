#!/usr/bin/env node --expose-gc
// Memory over start and close (issue 30 item 3): N `startServer()` +
// `close()` cycles, then N `createApp()` + `close()` cycles, in one process,
// each emulator used as a test would (a send, the list, the email: fetch on
// the listener, a connection per request, supertest on the app);
// RSS and JS heap after a forced gc() before and after each run. Target:
// each run ends within 20 MB of where it began. A Vitest worker that starts
// a fresh emulator per test does this thousands of times.
// `node --expose-gc bench/cycles.js [N]` after `npm run build` (default
// 1 000; part of `npm run bench`). Exits 1 if a target is missed.
import http from 'node:http';
import os from 'node:os';
import request from 'supertest';
import { startServer, createApp } from '../dist/src/index.js';

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

/** Runs `n` cycles of `open`, `use` then `close()`; returns RSS and heap before and after (after gc()), and ms per cycle. */
async function cycles(name, n, open, use) {
  for (let i = 0; i < WARM_UP; i++) await (await use(await open())).close();
  const before = await settled();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await use(await open())).close();
  const msEach = (performance.now() - t0) / n;
  const after = await settled();
  return { name, n, before, after, msEach };
}

const runs = [
  await cycles('startServer() + close()', N, () => startServer({ logLevel: 'error' }), useServer),
  await cycles('createApp() + close()', N, () => createApp({ logLevel: 'error' }), useApp),
];
console.log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`);
console.table(runs.map((r) => ({
  cycles: `${r.n} × ${r.name}`,
  'ms each': Math.round(r.msEach * 10) / 10,
  'RSS before MB': mb(r.before.rss),
  'RSS after MB': mb(r.after.rss),
  'heap before MB': mb(r.before.heapUsed),
  'heap after MB': mb(r.after.heapUsed),
  'external after MB': mb(r.after.external),
})));
const checks = runs.map((r) => [`RSS growth over ${r.n} × ${r.name} (MB, after gc())`, mb(r.after.rss - r.before.rss), `≤ ${TARGET_MB}`, r.after.rss - r.before.rss <= TARGET_MB * 2 ** 20]);
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
process.exit(checks.every((c) => c[3]) ? 0 : 1);
