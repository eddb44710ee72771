/**
 * A contact import on a full store (src/resources/contact-imports/jobs.ts,
 * src/store/full.ts): the store filling up in the middle of an import is the
 * machine's fault, not the file's. The batch that found no space is rolled
 * back, the import stays `in_progress` with its upload and its job pending
 * (never `failed`, never a row counted `failed` for it), and once space frees
 * the next run resumes after the last committed batch: every row counted
 * once, the upload removed at the end.
 *
 * The disk: a small tmpfs of the test's own holding the `--db` store and the
 * upload folder, as in test/store/full-disk.test.ts; where the machine
 * refuses the mount, the store's `PRAGMA max_page_count` is set low on the
 * emulator's connection instead (space frees when it is raised).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { defaultConfig, run, type Running } from '../../../src/server.js';
import { UPLOAD_PREFIX } from '../../../src/http/uploads.js';
import { BATCH_ROWS } from '../../../src/resources/contact-imports/jobs.js';
import { client } from '../../helpers.js';
import { useSmallFilesystem } from '../../store/small-filesystem.js';

const SIZE = 24 * 1024 * 1024;
const ROWS = 30_000;
const small = useSmallFilesystem('import-full-', SIZE);

describe('a contact import on a full store', () => {
  let emu: Running | null = null;
  afterAll(async () => {
    await emu?.close();
  });

  it('stays in_progress with its upload while the store is full, then resumes after its last committed batch and completes with every row counted once', async () => {
    const db = path.join(small.dir, 'state.db');
    const uploads = path.join(small.dir, 'uploads');
    fs.mkdirSync(uploads);
    emu = await run(defaultConfig({ db, clock: 'manual', validateResponses: true, logLevel: 'error', uploadDir: uploads }), '127.0.0.1', 0);
    const api = client(emu.url, emu.apiKey);
    const rows = Array.from({ length: ROWS }, (_, i) => `user${i}@example.net,Name${i},Family${i}`).join('\n');
    const res = await api.post('/contacts/imports').attach('file', Buffer.from(`email,first_name,last_name\n${rows}\n`), 'contacts.csv');
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const upload = () => fs.readdirSync(uploads).filter((f) => f.startsWith(UPLOAD_PREFIX));
    expect(upload()).toHaveLength(1);
    const contacts = () => emu!.ctx.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get() as number;
    const before = contacts();

    // Room for a few batches of rows, not for 30,000 (about 600 KB for each 500 rows a batch holds).
    const room = BATCH_ROWS / 500;
    let free: () => void;
    if (small.mounted) {
      emu.ctx.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      free = small.fill(room * 600 * 1024);
    } else {
      const pages = emu.ctx.db.prepare('PRAGMA page_count').pluck().get() as number;
      emu.ctx.db.exec(`PRAGMA max_page_count = ${pages + room * 150}`);
      free = () => emu!.ctx.db.exec('PRAGMA max_page_count = 1073741823');
    }
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      // The advance that runs the import meets the full store: the scheduler's rule, it rejects with the fault.
      await expect(emu.ctx.scheduler.advance(60_000)).rejects.toMatchObject({ code: expect.stringMatching(/^(SQLITE_FULL|ENOSPC)$/) });
      const during = await api.get(`/contacts/imports/${id}`);
      expect(during.status).toBe(200);
      expect(during.body.status).toBe('in_progress');
      const counts = during.body.counts;
      expect(counts.total).toBeGreaterThan(0); // some batches were committed before the store filled
      expect(counts.total).toBeLessThan(ROWS);
      expect(counts.total % BATCH_ROWS).toBe(0); // whole batches only: the one that found no space was rolled back
      expect(counts.failed).toBe(0); // the machine's fault counts no row as failed
      expect(contacts()).toBe(before + counts.created);
      expect(upload()).toHaveLength(1); // its upload kept for the next run
      expect(emu.ctx.scheduler.pending().map((j) => j.type)).toContain('contact-imports.run');
      expect(emu.ctx.db.prepare(`SELECT COUNT(*) FROM jobs WHERE status = 'failed'`).pluck().get()).toBe(0);

      // Still full: another advance changes nothing and loses nothing.
      await expect(emu.ctx.scheduler.advance(1_000)).rejects.toMatchObject({ code: expect.stringMatching(/^(SQLITE_FULL|ENOSPC)$/) });
      expect((await api.get(`/contacts/imports/${id}`)).body).toMatchObject({ status: 'in_progress', counts: { failed: 0 } });
      expect(upload()).toHaveLength(1);
    } finally {
      stderr.mockRestore();
    }

    // Space frees: the job resumes and completes; every row once, the upload gone.
    free();
    await emu.ctx.scheduler.advance(60_000);
    const done = await api.get(`/contacts/imports/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', counts: { total: ROWS, created: ROWS, updated: 0, skipped: 0, failed: 0 } });
    expect(contacts()).toBe(before + ROWS);
    expect(upload()).toEqual([]);
    expect(emu.ctx.db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  });
});
