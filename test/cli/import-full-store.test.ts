/**
 * A store that fills and frees finishes its work unattended, with the real
 * clock (src/clock/scheduler.ts, `kick`; docs/errors.md): the CLI with `--db`
 * on a small tmpfs, a 30,000-row contact import, the disk filled so that the
 * import stops at its first batches, the import's status read while the disk
 * stays full (each read writes the request log, eating what the WAL had
 * left), then the space freed and no other request made until the log says
 * jobs run again. Before the fix, the job whose way back to `pending` the
 * full store refused stayed `running` with no timer armed for it, and about
 * one run in three stayed `in_progress` until another request scheduled a
 * job; so the scenario runs `RUNS` times, `PARALLEL` at once (each on a
 * tmpfs of its own).
 *
 * Where the machine refuses the mount (no privilege, or `FULL_DISK_PAGES=1`),
 * the same scenario runs in process (`run()` with the real clock), the store
 * filled by SQLite's `max_page_count`, as in test/store/full-disk.test.ts.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, stop } from './process.js';
import { defaultConfig, run } from '../../src/server.js';
import { useSmallFilesystem, type SmallFilesystem } from '../store/small-filesystem.js';

const SIZE = 24 * 1024 * 1024;
const ROWS = 30_000;
/** Room left on the disk: about 4,000 rows (600 KB for each 500), as in the runs. */
const ROOM = 4 * 600 * 1024;
const RUNS = 8;
const PARALLEL = 4;
/** How long (ms) the status is read while the disk stays full. */
const HOLD_MS = 4_000;
/** How long (ms of wall time) the import may take to complete once space frees. */
const RESUME_MS = 15_000;

const disks = Array.from({ length: PARALLEL }, (_, i) => useSmallFilesystem(`import-resume-${i}-`, SIZE));
const csv = `email,first_name,last_name\n${Array.from({ length: ROWS }, (_, i) => `user${i}@example.net,Name${i},Family${i}`).join('\n')}\n`;

/** An emulator with the real clock whose store can be filled and freed. */
interface Target {
  url: string;
  key: string;
  /** What it logged so far. */
  log(): string;
  fill(): void;
  free(): void;
  close(): Promise<void>;
}

/** The CLI on the tmpfs `disk` (uploads in a folder of its own, off the tmpfs). */
async function cliTarget(disk: SmallFilesystem, n: number): Promise<Target> {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'import-resume-uploads-'));
  const db = path.join(disk.dir, `state-${n}.db`);
  const cli = await start(['--db', db, '--port', '0', '--no-smtp', '--log-level', 'warn'], { TMPDIR: uploads });
  let freeDisk = () => {};
  return {
    url: cli.url,
    key: cli.key,
    log: cli.out,
    fill: () => void (freeDisk = disk.fill(ROOM)),
    free: () => freeDisk(),
    close: async () => {
      await stop(cli.proc, 'SIGKILL');
      freeDisk();
      for (const f of fs.readdirSync(disk.dir)) if (f.startsWith(`state-${n}.db`)) fs.rmSync(path.join(disk.dir, f));
      fs.rmSync(uploads, { recursive: true, force: true });
    },
  };
}

/** In process, the store filled by `max_page_count` (no tmpfs). */
async function inProcessTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-resume-'));
  const lines: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true));
  const emu = await run(defaultConfig({ db: path.join(dir, 'state.db'), clock: 'real', logLevel: 'warn', uploadDir: dir }), '127.0.0.1', 0);
  return {
    url: emu.url,
    key: emu.apiKey!,
    log: () => lines.join(''),
    fill: () => {
      const pages = emu.ctx.db.prepare('PRAGMA page_count').pluck().get() as number;
      emu.ctx.db.exec(`PRAGMA max_page_count = ${pages + ROOM / 4096}`);
    },
    free: () => emu.ctx.db.exec('PRAGMA max_page_count = 1073741823'),
    close: async () => {
      await emu.close();
      stderr.mockRestore();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One run: the import fills the store, the status is read while full, space frees, then nothing but waiting. */
async function fillAndFree(t: Target): Promise<{ during: any; done: any; resumeMs: number }> {
  const auth = { authorization: `Bearer ${t.key}` };
  const form = new FormData();
  form.append('file', new Blob([csv]), 'contacts.csv');
  const created = await fetch(`${t.url}/contacts/imports`, { method: 'POST', headers: auth, body: form });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const status = async () => (await fetch(`${t.url}/contacts/imports/${id}`, { headers: auth })).json();
  t.fill();
  await vi.waitFor(() => expect(t.log()).toContain('jobs wait until space frees'), { timeout: 15_000, interval: 50 });
  let during: any;
  for (const t0 = Date.now(); Date.now() - t0 < HOLD_MS; ) during = await status();
  const freed = Date.now();
  t.free();
  // No request until the log says the jobs run again: the background timer alone must resume the import.
  await vi.waitFor(() => expect(t.log()).toContain('the store has space again: jobs run'), { timeout: RESUME_MS, interval: 50 });
  const resumeMs = Date.now() - freed;
  let done = await status();
  // The log line comes with the import's last transaction; its answer follows at once.
  for (let i = 0; i < 50 && done.status !== 'completed'; i++) done = await status();
  return { during, done, resumeMs };
}

describe('a contact import on a store that fills and frees, with the real clock', () => {
  const open = new Set<Target>();
  afterAll(async () => {
    await Promise.all([...open].map((t) => t.close()));
  });
  /** `fillAndFree(t)`, then `t` closed (also by afterAll when the test fails first). */
  const runOn = async (t: Target) => {
    open.add(t);
    try {
      return await fillAndFree(t);
    } finally {
      open.delete(t);
      await t.close();
    }
  };

  it(`resumes by itself once space frees and completes every row, in each of ${RUNS} runs (no other request after the space frees)`, async () => {
    const results: Awaited<ReturnType<typeof fillAndFree>>[] = [];
    for (let round = 0; round < RUNS / PARALLEL; round++) {
      const mounted = disks.every((d) => d.mounted);
      const batch = await Promise.all(mounted ? disks.map(async (disk, i) => runOn(await cliTarget(disk, round * PARALLEL + i))) : [inProcessTarget().then(runOn)]);
      results.push(...batch);
    }
    for (const r of results) {
      expect(r.during.status).toBe('in_progress');
      expect(r.during.counts.total).toBeLessThan(ROWS);
      expect(r.done).toMatchObject({ status: 'completed', counts: { total: ROWS, created: ROWS, failed: 0 } });
      expect(r.resumeMs).toBeLessThan(RESUME_MS);
    }
  }, 180_000);
});
