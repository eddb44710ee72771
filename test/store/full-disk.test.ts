/**
 * A full disk is the machine's fault, not the caller's (src/store/full.ts,
 * src/http/store-full.ts): a write answers 507 `insufficient_storage` with a
 * message naming the store and its path, logged as one line (no stack);
 * nothing is half-written, reads keep working, jobs stay pending (never
 * failed, never a crash), and once space frees the next write succeeds with
 * no restart and `PRAGMA integrity_check` is `ok`. The same for an upload
 * that runs out of space mid-stream: 507, its temp file removed; over SMTP,
 * 452 (insufficient system storage).
 *
 * The disk: a small tmpfs of the test's own (we run as root); where the
 * machine refuses the mount, the store's `PRAGMA max_page_count` is set low
 * on the emulator's connection instead (space frees when it is raised), and
 * the upload case checks the answer to an `ENOSPC` from the upload step
 * (`FULL_DISK_PAGES=1` asks for that variant).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { defaultConfig, run, type Running } from '../../src/server.js';
import { UPLOAD_PREFIX } from '../../src/http/uploads.js';
import { storeFullError } from '../../src/http/store-full.js';
import nodemailer from 'nodemailer';
import { client } from '../helpers.js';
import { useSmallFilesystem } from './small-filesystem.js';

const SIZE = 4 * 1024 * 1024;
const small = useSmallFilesystem('full-disk-', SIZE);

/** Every line written to stderr while `fn` runs. */
function captureLog(): { lines: () => string[]; restore: () => void } {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return { lines: () => lines, restore: () => spy.mockRestore() };
}

const big = (n: number) => `<p>${'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n)}</p>`;
const email = (i: number) => ({ from: 'a@example.com', to: [`to${i}@example.net`], subject: `s${i}`, html: big(20_000) });

describe('a full store', () => {
  let emu: Running | null = null;
  afterEach(async () => {
    await emu?.close();
    emu = null;
    fs.rmSync(path.join(small.dir, 'ballast'), { force: true });
    for (const f of fs.readdirSync(small.dir)) fs.rmSync(path.join(small.dir, f), { recursive: true, force: true });
  });

  it('a --db store that fills up: 507 insufficient_storage naming the file, one log line, nothing half-written, reads work, jobs stay pending; the next write succeeds once space frees; integrity ok', async () => {
    const db = path.join(small.dir, 'state.db');
    emu = await run(defaultConfig({ db, clock: 'manual', validateResponses: true, logLevel: 'error', uploadDir: small.dir }), '127.0.0.1', 0);
    const api = client(emu.url, emu.apiKey);
    const count = () => (emu!.ctx.db.prepare('SELECT COUNT(*) AS n FROM emails').get() as { n: number }).n;
    const seeded = count(); // the fixtures' emails
    let free: () => void;
    if (small.mounted) {
      free = small.fill(256 * 1024);
    } else {
      const pages = emu.ctx.db.prepare('PRAGMA page_count').get() as { page_count: number };
      emu.ctx.db.exec(`PRAGMA max_page_count = ${pages.page_count + 40}`);
      free = () => emu!.ctx.db.exec('PRAGMA max_page_count = 1073741823');
    }
    const log = captureLog();
    const sent: string[] = [];
    let refused: any = null;
    try {
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await api.post('/emails').send(email(i));
        if (res.status === 200) sent.push(res.body.id);
        else refused = res;
      }
    } finally {
      log.restore();
    }
    expect(sent.length).toBeGreaterThan(0);
    expect(refused?.status).toBe(507);
    expect(refused.body).toEqual({
      statusCode: 507,
      name: 'insufficient_storage',
      message: expect.stringContaining(`the emulator's store ${db} is full (SQLITE_FULL: `),
    });
    expect(refused.body.message).toMatch(/nothing was written: free space on its disk and retry\.$/);
    // Logged once, as one line, no stack.
    const lines = log.lines();
    expect(lines.filter((l) => l.includes('is full'))).toEqual([
      expect.stringMatching(new RegExp(`^\\[resend-emulator\\] error: the emulator's store ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is full \\(SQLITE_FULL: .*\\); POST /emails answered 507, nothing was written$`)),
    ]);
    expect(lines.filter((l) => /^\s+at /.test(l) || l.includes('unhandled'))).toEqual([]);

    // Nothing half-written: exactly the acknowledged emails exist; reads keep working.
    expect(count()).toBe(seeded + sent.length);
    const list = await api.get('/emails?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data.slice(0, sent.length).map((e: any) => e.id)).toEqual([...sent].reverse());
    expect((await api.get(`/emails/${sent[0]}`)).status).toBe(200);
    // Another write is refused the same way, and changes nothing.
    const batch = await api.post('/emails/batch').send([email(500), email(501)]);
    expect(batch.status).toBe(507);
    expect(batch.body.name).toBe('insufficient_storage');
    expect(count()).toBe(seeded + sent.length);

    // The job runner: an advance that cannot write rejects with the fault (or runs what fits); no job is marked failed, no crash.
    const quiet = captureLog();
    try {
      await emu.ctx.scheduler.advance(60_000).then(
        () => (process.env.FULL_DISK_DEBUG ? console.info('advance went through') : undefined),
        (err) => expect(err.code).toBe('SQLITE_FULL'),
      );
    } finally {
      quiet.restore();
    }
    const failed = () => (emu!.ctx.db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status = 'failed'`).get() as { n: number }).n;
    expect(failed()).toBe(0);

    // Space frees: the next write succeeds, with no restart; the jobs catch up.
    free();
    const again = await api.post('/emails').send(email(999));
    expect(again.status).toBe(200);
    await emu.ctx.scheduler.advance(60_000);
    expect(failed()).toBe(0);
    const events = emu.ctx.db.prepare(`SELECT last_event FROM emails WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify([...sent, again.body.id])) as { last_event: string }[];
    expect(events).toHaveLength(sent.length + 1);
    expect(events.every((e) => e.last_event === 'delivered')).toBe(true);
    expect(emu.ctx.db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  });

  it('over SMTP: a message the full store cannot take is answered 452 (a transient reply: the client retries), one log line; accepted once space frees', async () => {
    emu = await run(defaultConfig({ clock: 'manual', validateResponses: true, logLevel: 'error', uploadDir: small.dir }), '127.0.0.1', 0, 0);
    const db = emu.ctx.db;
    db.exec(`PRAGMA max_page_count = ${(db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count + 5}`);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: emu.smtpPort!, secure: false, ignoreTLS: true, auth: { user: 'resend', pass: emu.apiKey } });
    const message = { from: 'a@example.com', to: 'b@example.net', subject: 'over SMTP', text: 'x'.repeat(200_000) };
    const log = captureLog();
    let err: any = null;
    try {
      await transport.sendMail(message).catch((e) => (err = e));
    } finally {
      log.restore();
    }
    expect(err?.responseCode).toBe(452);
    expect(err.response).toMatch(/^452 Insufficient system storage: the emulator's store \(in memory\) is full; nothing was written: free space on its disk and retry$/);
    expect(log.lines().filter((l) => l.includes('is full'))).toEqual([expect.stringMatching(/\(SMTP DATA answered 452\)$/)]);
    db.exec('PRAGMA max_page_count = 1073741823');
    const ok = await transport.sendMail(message);
    expect(ok.response).toMatch(/^250 OK: queued as /);
    transport.close();
  });

  it('an upload that runs out of space mid-stream: 507 naming the upload folder, its temp file removed; works once space frees', async () => {
    const uploads = path.join(small.dir, 'uploads');
    fs.mkdirSync(uploads);
    emu = await run(defaultConfig({ clock: 'manual', validateResponses: true, logLevel: 'error', uploadDir: uploads }), '127.0.0.1', 0);
    const api = client(emu.url, emu.apiKey);
    const rows = Array.from({ length: 20_000 }, (_, i) => `user${i}@example.net,Name${i}`).join('\n');
    const csv = Buffer.from(`email,first_name\n${rows}\n`); // ~520 KB
    if (!small.mounted) {
      // No mount here: the answer to the upload step's ENOSPC, as the pipeline renders it.
      const err = storeFullError(emu.ctx, 'uploads', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), 'POST /contacts/imports');
      expect(err?.toJSON()).toEqual({ statusCode: 507, name: 'insufficient_storage', message: expect.stringContaining(`the emulator's upload folder ${uploads} is full (ENOSPC: `) });
      return;
    }
    const free = small.fill(64 * 1024);
    const log = captureLog();
    let res;
    try {
      res = await api.post('/contacts/imports').attach('file', csv, 'contacts.csv');
    } finally {
      log.restore();
    }
    expect(res.status).toBe(507);
    expect(res.body).toEqual({ statusCode: 507, name: 'insufficient_storage', message: expect.stringContaining(`the emulator's upload folder ${uploads} is full (ENOSPC: `) });
    expect(log.lines().filter((l) => l.includes('is full'))).toHaveLength(1);
    expect(log.lines().filter((l) => /^\s+at /.test(l))).toEqual([]);
    expect(fs.readdirSync(uploads).filter((f) => f.startsWith(UPLOAD_PREFIX))).toEqual([]);
    free();
    const ok = await api.post('/contacts/imports').attach('file', csv, 'contacts.csv');
    expect(ok.status).toBe(201);
    await emu.ctx.scheduler.advance(60_000);
    expect((await api.get(`/contacts/imports/${ok.body.id}`)).body).toMatchObject({ status: 'completed', counts: { created: 20_000 } });
  });
});
