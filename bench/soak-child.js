// One emulator under soak (bench/soak.js starts two: in memory and --db).
// Run as `node --expose-gc bench/soak-child.js STORE` with an IPC channel:
// it starts the built emulator (real clock, webhooks sent, SMTP on a free
// port), tells the parent its URL, key and SMTP port, and answers each
// `stats` message with its own figures, taken after a full GC: RSS and heap
// (bytes), open handles (process.getActiveResourcesInfo()), file
// descriptors (/proc/self/fd) and the store's size (the file and its WAL,
// or SQLite's pages for the in-memory store).
import fs from 'node:fs';
import { defaultConfig, run } from '../dist/src/server.js';

const store = process.argv[2] ?? ':memory:';
const r = await run(defaultConfig({ db: store, clock: 'real', webhooks: 'send', webhookTimeoutMs: 2_000, logLevel: 'warn' }), '127.0.0.1', 0, 0);
const size = (f) => { try { return fs.statSync(f).size; } catch { return 0; } };
function storeBytes() {
  if (store !== ':memory:') return size(store) + size(`${store}-wal`);
  const db = r.ctx.db;
  return db.prepare('PRAGMA page_count').get().page_count * db.prepare('PRAGMA page_size').get().page_size;
}
process.on('message', (m) => {
  if (m === 'stats') {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    const mem = process.memoryUsage();
    let fds = -1;
    try { fds = fs.readdirSync('/proc/self/fd').length; } catch { /* not Linux */ }
    process.send({ type: 'stats', rss: mem.rss, heap: mem.heapUsed, handles: process.getActiveResourcesInfo().length, fds, store: storeBytes() });
  } else if (m === 'stop') {
    r.close().then(() => process.exit(0), (err) => { process.stderr.write(`close failed: ${err}\n`); process.exit(1); });
  }
});
process.send({ type: 'ready', url: r.url, apiKey: r.apiKey, smtpPort: r.smtpPort });
