#!/usr/bin/env node
// Growth with data (issue "Fast as the stack allows", "Flat with data"):
// sequential medians of list (first page and deep `after` cursor), get and
// send at 1 000 … 1 000 000 stored emails; segment-filtered contact lists at
// 100 … 1 000 000 contacts (a large and a small segment); RSS at each size.
// The store is filled through its SQLite connection (not one HTTP call per
// row). `node bench/scale.js [maxEmails]` after `npm run build`; loopback
// only, bounded. Exits 1 if a ratio target is missed.
import { startServer } from '../dist/src/index.js';
import { storeOf } from '../dist/src/internals.js';

const MAX = Number(process.argv[2] ?? 1_000_000);
const SIZES = [1_000, 10_000, 100_000, 1_000_000].filter((n) => n <= MAX);
const SAMPLES = 200;
/** Each measure at the largest size ≤ this × the smallest. */
const FLAT_RATIO = 1.5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** Median ms of `n` sequential calls of `fn`. */
async function timeIt(fn, n = SAMPLES) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return Math.round(median(xs) * 1000) / 1000;
}

async function call(url, init) {
  // A keep-alive connection the server closed while the store was being filled (the fill holds the thread
  // longer than the 5 s keep-alive timeout) fails once with ECONNRESET: the request is sent again.
  const res = await fetch(url, init).catch(() => fetch(url, init));
  const body = await res.text();
  if (res.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${body.slice(0, 200)}`);
  return body;
}

const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
const db = storeOf(emu);
const auth = { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' };
const email = JSON.stringify({ from: 'Bench <bench@example.com>', to: ['delivered@resend.dev'], subject: 'Bench', html: '<p>Hello <a href="https://example.com">there</a></p>' });

// One real email, then copies of its row (the emails table's own columns).
const firstId = JSON.parse(await call(`${emu.url}/emails`, { method: 'POST', headers: auth, body: email })).id;
const cols = db.prepare('SELECT name FROM pragma_table_info(\'emails\') WHERE name NOT IN (\'seq\', \'id\', \'message_id\')').all().map((r) => r.name);
const copy = db.prepare(`INSERT INTO emails (id, message_id, ${cols.join(', ')}) SELECT ?, ?, ${cols.join(', ')} FROM emails WHERE id = ?`);
let stored = db.prepare('SELECT COUNT(*) AS n FROM emails').get().n;
const fillEmails = (to) => db.transaction(() => {
  for (; stored < to; stored++) { const id = crypto.randomUUID(); copy.run(id, `<${id}@resend.dev>`, firstId); }
})();

const emailRows = [];
for (const size of SIZES) {
  fillEmails(size);
  const deep = db.prepare('SELECT id FROM emails ORDER BY seq DESC LIMIT 1 OFFSET ?').get(Math.floor(size * 0.9)).id;
  emailRows.push({
    'stored emails': size,
    'list ms': await timeIt(() => call(`${emu.url}/emails?limit=100`, { headers: auth })),
    'list deep ms': await timeIt(() => call(`${emu.url}/emails?limit=100&after=${deep}`, { headers: auth })),
    'get ms': await timeIt(() => call(`${emu.url}/emails/${firstId}`, { headers: auth })),
    'send ms': await timeIt(() => call(`${emu.url}/emails`, { method: 'POST', headers: auth, body: email })),
    'RSS MB': rssMb(),
  });
  stored = db.prepare('SELECT COUNT(*) AS n FROM emails').get().n;
}
console.log('Emails (sequential medians)');
console.table(emailRows);

// Contacts in a large segment (every other contact) and a small one (10 contacts).
const big = JSON.parse(await call(`${emu.url}/segments`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Half' }) })).id;
const small = JSON.parse(await call(`${emu.url}/segments`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Ten' }) })).id;
for (let i = 0; i < 10; i++) {
  await call(`${emu.url}/contacts`, { method: 'POST', headers: auth, body: JSON.stringify({ email: `ten${i}@example.com`, segments: [{ id: small }] }) });
}
const team = db.prepare('SELECT team_id FROM segments WHERE id = ?').get(big).team_id;
const addContact = db.prepare('INSERT INTO contacts (id, team_id, email, email_lower, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
const addMember = db.prepare('INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES (?, ?, ?, ?)');
let contacts = db.prepare('SELECT COUNT(*) AS n FROM contacts').get().n;
const fillContacts = (to) => db.transaction(() => {
  for (; contacts < to; contacts++) {
    const id = crypto.randomUUID();
    addContact.run(id, team, `c${contacts}@example.com`, `c${contacts}@example.com`, Date.now(), Date.now());
    if (contacts % 2 === 0) addMember.run(team, id, big, Date.now());
  }
})();
const contactRows = [];
for (const size of [100, ...SIZES]) {
  fillContacts(size);
  contactRows.push({
    contacts: size,
    'large segment ms': await timeIt(() => call(`${emu.url}/contacts?segment_id=${big}&limit=100`, { headers: auth }), 50),
    'small segment ms': await timeIt(() => call(`${emu.url}/contacts?segment_id=${small}&limit=100`, { headers: auth }), 50),
    'all contacts ms': await timeIt(() => call(`${emu.url}/contacts?limit=100`, { headers: auth }), 50),
    'RSS MB': rssMb(),
  });
}
console.log('Contacts (sequential medians)');
console.table(contactRows);
await emu.close();

const first = (rows, k) => rows[0][k];
const last = (rows, k) => rows[rows.length - 1][k];
const checks = [];
for (const k of ['list ms', 'list deep ms', 'get ms', 'send ms']) checks.push([`emails ${k}`, last(emailRows, k) / first(emailRows, k)]);
for (const k of ['large segment ms', 'small segment ms', 'all contacts ms']) checks.push([`contacts ${k}`, last(contactRows, k) / first(contactRows, k)]);
console.table(checks.map(([target, ratio]) => ({ target: `${target}: largest / smallest`, ratio: Math.round(ratio * 100) / 100, goal: `≤ ${FLAT_RATIO}`, met: ratio <= FLAT_RATIO })));
const missed = checks.filter(([, r]) => r > FLAT_RATIO).length;
console.log(missed ? `${missed} target(s) missed` : 'all targets met');
process.exit(missed ? 1 : 0);
