#!/usr/bin/env node --expose-gc
// Memory per stored email (issue "Fast as the stack allows", "Memory"):
// N emails sent through POST /emails (10 connections) and delivered (clock
// advanced), then the growth of RSS over N on the in-memory store, with the
// SQLite store's own share (page_count × page_size) and the JS heap's beside it. With `--db`,
// the same on a file store (`--db` in a temp folder), where the data lives
// on disk: the target is the process RSS after the sends. Run with
// `node --expose-gc bench/memory.js [N] [--db]` after `npm run build`
// (`npm run bench:memory`). Exits 1 if a target is missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { startServer } from '../dist/src/index.js';
import { storeOf } from '../dist/src/internals.js';

const onDisk = process.argv.includes('--db');
const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? (onDisk ? 100_000 : 300_000));
const TARGET_BYTES_PER_EMAIL = 1024; // in-memory store
const TARGET_FILE_RSS_MB = 150; // --db file store, after 100 000 sends
const gc = () => { for (let i = 0; i < 3; i++) globalThis.gc?.(); };
const mb = (b) => Math.round(b / 2 ** 20);

const dir = onDisk ? fs.mkdtempSync(path.join(os.tmpdir(), 'emu-mem-')) : null;
const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error', ...(dir ? { db: path.join(dir, 'emulator.db') } : {}) });
const db = storeOf(emu);
const storeBytes = () => db.prepare('PRAGMA page_count').get().page_count * db.prepare('PRAGMA page_size').get().page_size;
const email = JSON.stringify({ from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello <a href="https://example.com">there</a></p>' });
const headers = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
// Warm up (first-use packages, validators), then the baseline.
for (let i = 0; i < 50; i++) await fetch(`${emu.url}/emails`, { method: 'POST', headers, body: email });
await emu.clock.advance('1m');
gc();
const mem0 = process.memoryUsage();
const rss0 = mem0.rss;
const store0 = storeBytes();
const emails0 = db.prepare('SELECT COUNT(*) AS n FROM emails').get().n;
const delivered0 = db.prepare("SELECT COUNT(*) AS n FROM emails WHERE last_event = 'delivered'").get().n;
const t0 = performance.now();
// 10 keep-alive connections from a plain agent (a load generator's own bookkeeping would be counted too).
const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
const post = () => new Promise((resolve, reject) => {
  const req = http.request(`${emu.url}/emails`, { method: 'POST', headers, agent }, (r) => { r.resume(); r.on('end', () => resolve(r.statusCode)); });
  req.on('error', reject);
  req.end(email);
});
let next = 0;
let ok2xx = 0;
await Promise.all(Array.from({ length: 10 }, async () => { while (next++ < N) if ((await post()) < 300) ok2xx++; }));
agent.destroy();
const sendS = (performance.now() - t0) / 1000;
const tAdvance = performance.now();
await emu.clock.advance('1m');
const advanceS = (performance.now() - tAdvance) / 1000;
// Let what the advance left queued (bus notifications, one per step) run before measuring.
await new Promise((resolve) => setTimeout(resolve, 100));
gc();
const stored = db.prepare('SELECT COUNT(*) AS n FROM emails').get().n - emails0;
const delivered = db.prepare("SELECT COUNT(*) AS n FROM emails WHERE last_event = 'delivered'").get().n - delivered0;
const mem1 = process.memoryUsage();
const rss1 = mem1.rss;
const store1 = storeBytes();
const perEmail = (rss1 - rss0) / stored;
console.log(`${onDisk ? '--db file' : 'in-memory'} store; ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`);
console.table([{
  'emails sent': stored,
  delivered,
  '2xx': ok2xx,
  'send s': Math.round(sendS * 10) / 10,
  'advance s': Math.round(advanceS * 10) / 10,
  'RSS before MB': mb(rss0),
  'RSS after MB': mb(rss1),
  'RSS growth / email (B)': Math.round(perEmail),
  'SQLite store growth / email (B)': Math.round((store1 - store0) / stored),
  'JS heap growth / email (B)': Math.round((mem1.heapUsed - mem0.heapUsed) / stored),
}]);
const checks = onDisk
  ? [[`RSS after ${stored} sends on a file store (MB)`, mb(rss1), `< ${TARGET_FILE_RSS_MB}`, mb(rss1) < TARGET_FILE_RSS_MB]]
  : [['RSS growth per stored email (bytes)', Math.round(perEmail), `≤ ${TARGET_BYTES_PER_EMAIL}`, perEmail <= TARGET_BYTES_PER_EMAIL]];
checks.push(['every email stored and delivered', `${stored} / ${delivered}`, `= ${N}`, stored === N && delivered === N]);
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
await emu.close();
if (dir) fs.rmSync(dir, { recursive: true, force: true });
process.exit(checks.every((c) => c[3]) ? 0 : 1);
