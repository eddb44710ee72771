#!/usr/bin/env node
// Inbox storage (issue 30 item 2, "one fact, one row"): what 100 received
// 20 KB emails add to the store when their address has an inbox, against the
// same emails to an address without one, in the same emulator. An inbox's
// thread emails are the received emails (referenced by id), so the two must
// grow the store alike: goal ≤ 1.25× (before: 1.43×, the inbox kept its own
// copy of html, text and attachments). Measured two ways: the snapshot's size
// (`GET /_emulator/snapshot`, JSON bytes) and the SQLite store's size
// (`page_count × page_size`). `node bench/inbox-storage.js` (after
// `npm run build`) prints both and exits 1 if either misses the goal;
// bench/run.js runs `measureInboxStorage()` with the other targets.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Growth with an inbox over growth without one, for the snapshot and for the store: at most this. */
export const INBOX_STORAGE_GOAL = 1.25;

/**
 * Starts an emulator (dist/), sends `count` received emails of about
 * `sizeKb` KB (half text, half html, and a small attachment) to
 * `plain@example.com` (no inbox), then the same to `desk@example.com` (an
 * inbox), each over `POST /_emulator/inbound`. Resolves `{snapshotPlain,
 * snapshotInbox, snapshotRatio, storePlain, storeInbox, storeRatio}` (bytes
 * of growth, and their ratios).
 */
export async function measureInboxStorage({ count = 100, sizeKb = 20 } = {}) {
  const { startServer } = await import(new URL('../dist/index.mjs', import.meta.url).href);
  const emu = await startServer({ clock: 'manual', logLevel: 'error' });
  try {
    const auth = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
    const post = async (path, body) => {
      const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await post('/inboxes', { email_address: 'desk@example.com' });
    const snapshotBytes = async () => Buffer.byteLength(await (await fetch(`${emu.url}/_emulator/snapshot`)).text());
    // dist/core.cjs: the one copy dist/index.mjs loads, with src/internals.ts's accessors.
    const { storeOf } = createRequire(import.meta.url)('../dist/core.cjs');
    const db = storeOf(emu);
    const storeBytes = () => db.prepare('PRAGMA page_count').pluck().get() * db.prepare('PRAGMA page_size').pluck().get();
    const half = Math.round((sizeKb * 1024) / 2);
    const words = (n, seed) => Array.from({ length: Math.ceil(n / 8) }, (_, i) => `w${(i * 7919 + seed) % 99991}`.padEnd(8, ' ')).join('').slice(0, n);
    const send = async (to, i) =>
      post('/_emulator/inbound', {
        from: `Customer ${i} <customer${i}@sender.test>`,
        to,
        subject: `Question ${i}`,
        text: words(half, i),
        html: `<p>${words(half - 7, i + 1)}</p>`,
        attachments: [{ filename: `note-${i}.txt`, content: Buffer.from(words(512, i + 2)).toString('base64'), content_type: 'text/plain' }],
      });
    const s0 = await snapshotBytes();
    const d0 = storeBytes();
    for (let i = 0; i < count; i++) await send('plain@example.com', i);
    const s1 = await snapshotBytes();
    const d1 = storeBytes();
    for (let i = 0; i < count; i++) await send('desk@example.com', i);
    const s2 = await snapshotBytes();
    const d2 = storeBytes();
    const snapshotPlain = s1 - s0;
    const snapshotInbox = s2 - s1;
    const storePlain = d1 - d0;
    const storeInbox = d2 - d1;
    return { count, sizeKb, snapshotPlain, snapshotInbox, snapshotRatio: snapshotInbox / snapshotPlain, storePlain, storeInbox, storeRatio: storeInbox / storePlain };
  } finally {
    await emu.close();
  }
}

/** The check rows of bench/run.js: `[target, value, goal, met]`. */
export function inboxStorageChecks(m) {
  const mb = (n) => (n / 1024 / 1024).toFixed(2);
  return [
    [`snapshot growth, ${m.count} received ${m.sizeKb} KB emails into an inbox / to no inbox (${mb(m.snapshotInbox)} / ${mb(m.snapshotPlain)} MB)`, m.snapshotRatio, `≤ ${INBOX_STORAGE_GOAL}`, m.snapshotRatio <= INBOX_STORAGE_GOAL],
    [`store growth, the same (${mb(m.storeInbox)} / ${mb(m.storePlain)} MB)`, m.storeRatio, `≤ ${INBOX_STORAGE_GOAL}`, m.storeRatio <= INBOX_STORAGE_GOAL],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const m = await measureInboxStorage();
  const checks = inboxStorageChecks(m);
  console.table(checks.map(([target, value, goal, met]) => ({ target, value: Number(Number(value).toFixed(3)), goal, met })));
  process.exit(checks.every((c) => c[3]) ? 0 : 1);
}
