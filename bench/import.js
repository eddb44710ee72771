#!/usr/bin/env node
// A contact import of N rows (issues "Fast as the stack allows" and 30;
// default 100 000, about 4 MB of CSV; `node bench/import.js [N]`): the CSV is
// written to a temp file and streamed to POST /contacts/imports (multipart,
// never held in memory), then the emulated clock is advanced until the
// import is `completed`. Prints the wall time from the upload to
// `completed`, rows per second, and the peak RSS above the start (sampled
// every 50 ms) beside the store's own growth (SQLite page_count ×
// page_size). Targets: 1.5 s for 100 000 rows at a calibration of 500 ms
// (bench/calibration.js: 100 000 raw inserts, measured before and after in
// the same run; the goal scales with it and with N), peak RSS above the
// store's growth < 150 MB. `npm run bench:import` (builds first; part of
// `npm run bench`). Exits 1 if one is missed or the counts are wrong.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../dist/src/index.js';
import { storeOf } from '../dist/src/internals.js';
import { calibrate, REFERENCE_CALIBRATION_MS } from './calibration.js';

const N = Number(process.argv[2] ?? 100_000);
const TARGET_S_PER_100K = 1.5; // at a calibration of REFERENCE_CALIBRATION_MS
const TARGET_PEAK_MB = 150;
const calibrationBefore = calibrate();
const mb = (b) => Math.round(b / 2 ** 20);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-import-'));
const file = path.join(dir, 'contacts.csv');
{
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'email,first_name,last_name\n');
  let chunk = '';
  for (let i = 0; i < N; i++) {
    chunk += `user${i}@example.com,First${i},Last${i}\n`;
    if (chunk.length > 1 << 20) { fs.writeSync(fd, chunk); chunk = ''; }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
}
const size = fs.statSync(file).size;

const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const db = storeOf(emu);
const storeBytes = () => db.prepare('PRAGMA page_count').get().page_count * db.prepare('PRAGMA page_size').get().page_size;
const auth = { authorization: `Bearer ${emu.apiKey}` };

/** Streams `file` as the `file` field of a multipart POST /contacts/imports; resolves with the import id. */
function upload() {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(`${emu.url}/contacts/imports`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(body).id) : reject(new Error(`${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

const rss0 = process.memoryUsage().rss;
const store0 = storeBytes();
let peak = rss0;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
const t0 = performance.now();
const id = await upload();
let status;
do {
  await emu.clock.advance('10s');
  status = await (await fetch(`${emu.url}/contacts/imports/${id}`, { headers: auth })).json();
} while (status.status !== 'completed' && status.status !== 'failed');
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const storeGrowth = storeBytes() - store0;
const aboveStore = peak - rss0 - storeGrowth;
const calibrationMs = (calibrationBefore + calibrate()) / 2;
const limit = ((TARGET_S_PER_100K * N) / 100_000) * (calibrationMs / REFERENCE_CALIBRATION_MS);
console.log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`);
console.table([{ rows: N, 'CSV MB': mb(size), status: status.status, created: status.counts.created, failed: status.counts.failed, 'wall s': Math.round(seconds * 10) / 10, 'rows/s': Math.round(N / seconds), 'peak RSS above start MB': mb(peak - rss0), 'store growth MB': mb(storeGrowth) }]);
const checks = [
  [`wall time to completed (s; goal ${TARGET_S_PER_100K} s per 100 000 × calibration ${Math.round(calibrationMs)} ms / ${REFERENCE_CALIBRATION_MS})`, Math.round(seconds * 100) / 100, `< ${Math.round(limit * 100) / 100}`, seconds < limit],
  ['peak RSS above the store growth (MB)', mb(aboveStore), `< ${TARGET_PEAK_MB}`, mb(aboveStore) < TARGET_PEAK_MB],
  ['every row created', status.counts.created, `= ${N}`, status.status === 'completed' && status.counts.created === N],
];
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
await emu.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(checks.every((c) => c[3]) ? 0 : 1);
