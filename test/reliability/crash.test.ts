/**
 * Crash and shutdown safety (issue 13, "Crash and shutdown safety" and
 * defect 1), on the built CLI (`bin/emulator.js`) with a `--db` file and the
 * real clock, the way a CI service runs it:
 * - SIGKILL in the middle of concurrent writes (emails and contacts, with
 *   webhook deliveries in flight), several rounds on the same file: every
 *   acknowledged email and contact is there after the restart, every job
 *   proceeds once the clock is advanced (each email `delivered`, each
 *   webhook delivery `succeeded`, re-sent ones with the same `svix-id`),
 *   and no job is left `running`;
 * - a contact import: SIGTERM while it is queued (it runs after the
 *   restart), SIGTERM while it runs (the shutdown lets it finish), SIGKILL
 *   while it runs (it resumes after its last committed batch: every row
 *   counted once, each contact created once);
 * - a broadcast: SIGTERM between its batches, then the restart finishes it
 *   with exactly one email per contact;
 * - `POST /emails/batch` with an `Idempotency-Key`, SIGKILL at points from
 *   before the handler to after the answer: the emails and the key's record
 *   are stored both or neither, and the retry with the key sends the batch
 *   once (its answer the first one's when that arrived).
 * The store is read directly (better-sqlite3) only once the last process
 * has stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { start, stop, type Started } from '../cli/process.js';

const TEST_TIMEOUT = 60_000;

/** A webhook receiver that answers 200 after `delayMs` (so attempts are in flight when the emulator dies). */
async function slowReceiver(delayMs: number) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(String(req.headers['svix-id']));
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** `fetch` with the API key, JSON in and out; resolves `{status, body}` or rejects on a broken connection. */
async function call(s: Started, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${s.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Polls `fn` every 50 ms until it returns a truthy value (resolved with it) or `ms` pass (rejects). */
async function until<T>(what: string, ms: number, fn: () => Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crash and shutdown safety (built CLI, --db file)', () => {
  const procs: ChildProcess[] = [];
  const dirs: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => stop(p, 'SIGKILL')));
    await Promise.all(closers.splice(0).map((c) => c()));
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-crash-'));
    dirs.push(d);
    return d;
  };
  const launch = async (db: string, extra: string[] = []) => {
    const s = await start(['--port', '0', '--no-smtp', '--db', db, '--log-level', 'error', ...extra]);
    procs.push(s.proc);
    return s;
  };
  /** Reads the store once no process holds it. */
  const readStore = <T>(db: string, fn: (d: Database.Database) => T, readonly = true): T => {
    // After a SIGKILL the WAL has no shared-memory index beside it (exclusive locking): only a writable connection recovers it.
    const d = new Database(db, { readonly });
    try {
      return fn(d);
    } finally {
      d.close();
    }
  };

  it('SIGKILL during concurrent writes, 3 rounds: every acknowledged email and contact survives; every job then proceeds once', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'state.db');
    const rx = await slowReceiver(150);
    closers.push(rx.close);
    const emails = new Set<string>();
    const contacts = new Set<string>();
    let attempts = 0;

    let s = await launch(db);
    const hook = await call(s, 'POST', '/webhooks', { endpoint: rx.url, events: ['email.sent', 'email.delivered', 'contact.created'] });
    expect(hook.status).toBe(201);

    for (let round = 0; round < 3; round++) {
      let dead = false;
      const writer = async (w: number) => {
        for (let i = 0; !dead; i++) {
          const tag = `r${round}w${w}n${i}`;
          attempts++;
          try {
            if (i % 2 === 0) {
              const r = await call(s, 'POST', '/emails', { from: 'crash@example.com', to: `${tag}@example.net`, subject: tag, text: 'x' });
              if (r.status === 200) emails.add(r.body.id);
            } else {
              const r = await call(s, 'POST', '/contacts', { email: `${tag}@example.net` });
              if (r.status === 201) contacts.add(r.body.id);
            }
          } catch {
            return; // the connection broke: the process is gone
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, w) => writer(w));
      // Killed once this round has had at least 20 emails and 20 contacts acknowledged (and the writers keep going):
      // a count, not a time, so a slow machine still kills mid-stream with enough writes behind it.
      const [e0, c0] = [emails.size, contacts.size];
      await until('20 acknowledged emails and contacts this round', 30_000, async () => emails.size - e0 >= 20 && contacts.size - c0 >= 20);
      await new Promise((r) => setTimeout(r, round * 100));
      s.proc.kill('SIGKILL');
      await new Promise((r) => s.proc.once('exit', r));
      dead = true;
      await Promise.all(writers);
      s = await launch(db);
    }
    expect(emails.size).toBeGreaterThan(50);
    expect(contacts.size).toBeGreaterThan(50);

    // Every acknowledged write is there.
    const stored = await call(s, 'GET', '/_emulator/emails');
    const storedIds = new Set<string>(stored.body.data.map((e: { id: string }) => e.id));
    expect([...emails].filter((id) => !storedIds.has(id))).toEqual([]);
    const listed = await call(s, 'GET', '/contacts');
    const contactIds = new Set<string>(listed.body.data.map((c: { id: string }) => c.id));
    expect([...contacts].filter((id) => !contactIds.has(id))).toEqual([]);

    // Every job proceeds: each email delivered, each delivery succeeded.
    expect((await call(s, 'POST', '/_emulator/clock/advance', { ms: 60_000 })).status).toBe(200);
    const after = await call(s, 'GET', '/_emulator/emails');
    const notDelivered = after.body.data.filter((e: { id: string; last_event: string }) => emails.has(e.id) && e.last_event !== 'delivered');
    expect(notDelivered).toEqual([]);
    const deliveries = await until('every webhook delivery to succeed', 15_000, async () => {
      const d = (await call(s, 'GET', '/_emulator/webhook-deliveries')).body.data as { id: string; status: string }[];
      return d.length > 0 && d.every((x) => x.status === 'succeeded') ? d : undefined;
    });
    // Each delivery reached the receiver, under its own id; a repeat (an attempt cut short by the kill) kept it.
    const received = new Set(rx.seen);
    expect(deliveries.filter((d) => !received.has(d.id))).toEqual([]);
    const ids = new Set(deliveries.map((d) => d.id));
    expect(rx.seen.filter((id) => !ids.has(id))).toEqual([]);

    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    const jobs = readStore(db, (d) => d.prepare(`SELECT status, COUNT(*) AS n FROM jobs GROUP BY status`).all() as { status: string; n: number }[]);
    expect(jobs.filter((j) => j.status !== 'pending')).toEqual([]);
    const repeats = rx.seen.length - received.size;
    console.log(`[reliability] crash: 3 SIGKILL rounds, ${attempts} writes tried, ${emails.size} emails and ${contacts.size} contacts acknowledged, 0 lost; ${deliveries.length} webhook deliveries, ${repeats} re-sent after a kill`);
  }, TEST_TIMEOUT);

  it('a contact import: SIGTERM while queued runs it after the restart; SIGTERM while running lets it finish; SIGKILL while running resumes it, each row once', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'state.db');
    const rows = (prefix: string, n: number) => 'email,first_name\n' + Array.from({ length: n }, (_, i) => `${prefix}${i}@example.net,N${i}`).join('\n') + '\n';
    const upload = async (s: Started, csv: string) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
      const res = await fetch(`${s.url}/contacts/imports`, { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: form });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const getImport = async (s: Started, id: string) => (await call(s, 'GET', `/contacts/imports/${id}`)).body as { status: string; counts: Record<string, number> };

    // 1. SIGTERM while queued.
    let s = await launch(db);
    const queued = await upload(s, rows('q', 300));
    expect((await getImport(s, queued)).status).toBe('queued');
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    s = await launch(db);
    const q = await until('the queued import to complete after the restart', 10_000, async () => {
      const i = await getImport(s, queued);
      return i.status === 'completed' ? i : undefined;
    });
    expect(q.counts).toMatchObject({ total: 300, created: 300, failed: 0 });

    // 2. SIGTERM while it runs: the shutdown waits for it.
    const N = 30_000;
    const running = await upload(s, rows('t', N));
    await until('the import to be under way', 10_000, async () => (await getImport(s, running)).counts.total > 0);
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    s = await launch(db);
    const t = await getImport(s, running);
    expect(t.status).toBe('completed');
    expect(t.counts).toMatchObject({ total: N, created: N, failed: 0 });

    // 3. SIGKILL while it runs: it resumes after its last committed batch.
    const killed = await upload(s, rows('k', N));
    const midway = await until('the import to be half-way', 10_000, async () => {
      const i = await getImport(s, killed);
      return i.counts.total > 0 && i.counts.total < N ? i : undefined;
    });
    s.proc.kill('SIGKILL');
    await new Promise((r) => s.proc.once('exit', r));
    s = await launch(db);
    const k = await until('the killed import to complete after the restart', 15_000, async () => {
      const i = await getImport(s, killed);
      return i.status === 'completed' ? i : undefined;
    });
    expect(k.counts).toMatchObject({ total: N, created: N, updated: 0, failed: 0 });
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    const counts = readStore(db, (d) => ['q', 't', 'k'].map((p) => (d.prepare(`SELECT COUNT(*) AS n FROM contacts WHERE email LIKE ?`).get(`${p}%@example.net`) as { n: number }).n));
    expect(counts).toEqual([300, N, N]);
    // No import still needs its upload (each was deleted when its import ended).
    expect(readStore(db, (d) => d.prepare('SELECT COUNT(*) AS n FROM contact_imports WHERE file_path IS NOT NULL').get())).toEqual({ n: 0 });
    console.log(`[reliability] crash: import killed at ${midway.counts.total}/${N} rows resumed to ${k.counts.total} rows, ${k.counts.created} created`);
  }, TEST_TIMEOUT);

  it('a broadcast: SIGTERM between its batches; the restart finishes it with exactly one email per contact', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'state.db');
    let s = await launch(db);
    const segment = await call(s, 'POST', '/segments', { name: 'Crash' });
    expect(segment.status).toBe(201);
    const N = 250;
    for (let i = 0; i < N; i += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, N - i) }, (_, j) => call(s, 'POST', '/contacts', { email: `b${i + j}@example.net`, segments: [{ id: segment.body.id }] })));
      expect(batch.every((r) => r.status === 201)).toBe(true);
    }
    const created = await call(s, 'POST', '/broadcasts', { name: 'Crash', segment_id: segment.body.id, from: 'news@example.com', subject: 'Hi', html: '<p>Hi</p>' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call(s, 'POST', `/broadcasts/${id}/send`, {})).status).toBe(200);
    const stats = async () => {
      const all = (await call(s, 'GET', `/_emulator/teams/${(await call(s, 'GET', '/_emulator/teams')).body.data[0].id}/broadcasts`)).body.data as { id: string; status: string; stats: { recipients: number } }[];
      return all.find((b) => b.id === id)!;
    };
    const partway = await until('the first batch', 10_000, async () => {
      const b = await stats();
      return b.stats.recipients > 0 && b.stats.recipients < N ? b : undefined;
    });
    expect(partway.status).toBe('queued');
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    const between = readStore(db, (d) => (d.prepare('SELECT COUNT(*) AS n FROM emails WHERE broadcast_id = ?').get(id) as { n: number }).n);
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(N);

    s = await launch(db);
    expect((await call(s, 'POST', '/_emulator/clock/advance', { ms: 60_000 })).status).toBe(200);
    const done = await stats();
    expect(done.status).toBe('sent');
    expect(done.stats.recipients).toBe(N);
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    const mails = readStore(db, (d) => d.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT to_addrs) AS distinct_to FROM emails WHERE broadcast_id = ?').get(id));
    expect(mails).toEqual({ n: N, distinct_to: N });
  }, TEST_TIMEOUT);
  it('POST /emails/batch with an Idempotency-Key, SIGKILL at any point: the emails and the key are stored both or neither, and the retry sends the batch once', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'state.db');
    const ITEMS = 100;
    // Kill points from "before the request reached the handler" to "after its answer": ms after the request is sent
    // (a fresh process's first batch loads and compiles its validators: a few hundred ms), then once answered.
    const DELAYS = [0, 20, 50, 100, 150, 200, 300, 500, 'answered'] as const;
    const outcomes = { answered: 0, lost: 0 };
    for (const [round, delay] of DELAYS.entries()) {
      const s = await launch(db);
      const key = `crash-batch-${round}`;
      const subject = `crash batch ${round}`;
      const items = Array.from({ length: ITEMS }, (_, i) => ({ from: 'crash@example.com', to: `batch${round}-${i}@example.net`, subject, text: 'once' }));
      const send = () => fetch(`${s.url}/emails/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(items),
        // A request the killed process never answered may be left hanging by the client: given up after 5 s.
        signal: AbortSignal.timeout(5_000),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { id: string }[] } }));
      const first = send().catch(() => null); // the connection may break: the process is gone
      if (delay === 'answered') await first;
      else await new Promise((r) => setTimeout(r, delay));
      await stop(s.proc, 'SIGKILL');
      const answer = await first;
      // Between the kill and the restart, the store holds the batch's emails and its key's record together, or neither.
      const stored = readStore(db, (d) => ({
        emails: (d.prepare('SELECT COUNT(*) AS n FROM emails WHERE subject = ?').get(subject) as { n: number }).n,
        keys: (d.prepare('SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = ?').get(key) as { n: number }).n,
      }), false);
      expect([{ emails: 0, keys: 0 }, { emails: ITEMS, keys: 1 }]).toContainEqual(stored);
      if (answer?.status === 200) {
        outcomes.answered++;
        expect(stored).toEqual({ emails: ITEMS, keys: 1 }); // an answered batch was committed
      } else outcomes.lost++;

      // The client retries with the same key after the restart: the batch is sent once, the answer the first one's.
      const again = await launch(db);
      const retry = await fetch(`${again.url}/emails/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${again.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(items),
      });
      expect(retry.status).toBe(200);
      const retried = (await retry.json()) as { data: { id: string }[] };
      expect(retried.data).toHaveLength(ITEMS);
      if (answer?.status === 200) expect(retried).toEqual(answer.body);
      expect(await stop(again.proc, 'SIGTERM')).toBe(0);
      const after = readStore(db, (d) => d.prepare('SELECT id FROM emails WHERE subject = ? ORDER BY id').pluck().all(subject) as string[]);
      expect(after).toEqual(retried.data.map((e) => e.id).sort());
    }
    // Both sides of the kill were reached: a batch killed before its answer and one answered.
    expect(outcomes.answered).toBeGreaterThan(0);
    expect(outcomes.lost).toBeGreaterThan(0);
    console.log(`[reliability] crash: POST /emails/batch with a key killed at ${DELAYS.length} points (${outcomes.answered} answered, ${outcomes.lost} cut off); each retry sent the batch once`);
  }, TEST_TIMEOUT);
});

