#!/usr/bin/env node
// Quotas that cost nothing as the account grows (issue 30 item 1): two
// emulators, one without a plan and one with `--plan scale`; on each, the
// median of sequential `POST /emails` at first, then a batch fill of 20 000
// emails (200 `POST /emails/batch` of 100), then the median of sequential
// sends again. Targets, ratios of the same run: with a plan, a send after the
// 20 000 emails ≤ 1.5× the first sends, and the fill ≤ 1.5× the same fill
// without a plan. `node bench/quota.js [fill]` after `npm run build` (part of
// `npm run bench`). Exits 1 if a target is missed.
import os from 'node:os';
import { startServer } from '../dist/src/index.js';

const FILL = Number(process.argv[2] ?? 20_000);
const SENDS = 200;
const TARGET_RATIO = 1.5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function post(url, headers, body) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return res;
}

/** Median ms of `SENDS` sequential sends, each to one recipient. */
async function sends(emu, headers) {
  const xs = [];
  const body = JSON.stringify({ from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Quota', text: 'hi' });
  for (let i = 0; i < SENDS; i++) {
    const t = performance.now();
    await post(`${emu.url}/emails`, headers, body);
    xs.push(performance.now() - t);
  }
  return median(xs);
}

/** One emulator (`plan` or none): first sends, the fill, later sends; ms. */
async function run(plan) {
  const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error', ...(plan ? { plan } : {}) });
  const headers = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
  const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ from: 'Bench <bench@example.com>', to: [`delivered+r${i}@resend.dev`], subject: 'Fill', text: 'hi' })));
  const first = await sends(emu, headers);
  const t = performance.now();
  let last;
  for (let i = 0; i < FILL / 100; i++) last = await post(`${emu.url}/emails/batch`, headers, batch);
  const fill = performance.now() - t;
  const later = await sends(emu, headers);
  const monthly = last.headers.get('x-resend-monthly-quota');
  await emu.close();
  return { first, fill, later, monthly };
}

const none = await run(null);
const scale = await run('scale');
console.log(`${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; ${FILL} emails filled by POST /emails/batch of 100, medians of ${SENDS} sends`);
console.table([
  { plan: 'none', 'first sends ms': round(none.first), [`fill of ${FILL} s`]: round(none.fill / 1000), [`sends after ${FILL} ms`]: round(none.later), 'monthly quota header': none.monthly ?? '-' },
  { plan: 'scale', 'first sends ms': round(scale.first), [`fill of ${FILL} s`]: round(scale.fill / 1000), [`sends after ${FILL} ms`]: round(scale.later), 'monthly quota header': scale.monthly ?? '-' },
]);
const checks = [
  [`--plan scale: send after ${FILL} emails / first sends`, round(scale.later / scale.first), `≤ ${TARGET_RATIO}`, scale.later / scale.first <= TARGET_RATIO],
  [`--plan scale: fill of ${FILL} / the same fill without a plan`, round(scale.fill / none.fill), `≤ ${TARGET_RATIO}`, scale.fill / none.fill <= TARGET_RATIO],
  ['the quota header counts every email', scale.monthly, `= ${SENDS + FILL}`, Number(scale.monthly) === SENDS + FILL],
];
console.table(checks.map(([target, value, goal, met]) => ({ target, value, goal, met })));
process.exit(checks.every((c) => c[3]) ? 0 : 1);
