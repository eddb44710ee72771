/**
 * Jobs on a full store (src/store/full.ts): a job whose writes find no space
 * is the machine's fault, not the job's. It is rolled back and stays
 * pending (never marked failed, never an unhandled rejection), the fault is
 * logged once, and the job runs once space frees. The store is made full
 * with `PRAGMA max_page_count` on an in-memory connection.
 */
import { describe, expect, it, vi } from 'vitest';
import { Clock } from '../../src/clock/clock.js';
import { emulatorClockTable, FULL_RETRY_MS, jobsTable, Scheduler } from '../../src/clock/scheduler.js';
import { migrate, openDatabase } from '../../src/store/db.js';

/** How long a real-clock test waits for the background timer (a few FULL_RETRY_MS), polling every 20 ms. */
const WAIT = { timeout: 5 * FULL_RETRY_MS, interval: 20 };

function setup(mode: 'manual' | 'real' = 'manual') {
  const db = openDatabase();
  migrate(db, { tables: [jobsTable, emulatorClockTable], migrations: [] });
  db.exec('CREATE TABLE blobs (b BLOB)');
  const clock = new Clock(mode, Date.parse('2030-01-01T00:00:00Z'));
  const logs: string[] = [];
  const scheduler = new Scheduler(db, clock, (m) => logs.push(m));
  const full = () => db.exec(`PRAGMA max_page_count = ${(db.prepare('PRAGMA page_count').pluck().get() as number) + 2}`);
  const free = () => db.exec('PRAGMA max_page_count = 1073741823');
  const status = () => db.prepare('SELECT status FROM jobs ORDER BY id').pluck().all();
  return { db, clock, scheduler, logs, full, free, status };
}

describe('jobs on a full store', () => {
  it('a synchronous job that cannot write: the advance rejects with SQLITE_FULL, the job stays pending (its writes rolled back), one log line; it runs once space frees', async () => {
    const { db, scheduler, logs, full, free, status } = setup();
    scheduler.register('big', () => void db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(64 * 1024)));
    scheduler.schedule('big', {});
    scheduler.schedule('big', {});
    full();
    await expect(scheduler.advance(1000)).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    await expect(scheduler.advance(1000)).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(status()).toEqual(['pending', 'pending']);
    expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(0);
    expect(logs).toEqual([expect.stringMatching(/^the emulator's store \(in memory\) is full; jobs wait until space frees \(database or disk is full\)$/)]);
    free();
    await scheduler.advance(1000);
    expect(status()).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(2);
    expect(logs.at(-1)).toBe('the store has space again: jobs run');
    expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  });

  it('an async job whose outcome cannot be written goes back to pending, not failed, and runs again later', async () => {
    const { db, scheduler, logs, full, free, status } = setup();
    let runs = 0;
    scheduler.register('deliver', async () => {
      runs++;
      await new Promise((r) => setImmediate(r));
      db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(64 * 1024));
    }, { async: true });
    scheduler.schedule('deliver', {});
    full();
    await expect(scheduler.advance(1000)).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(status()).toEqual(['pending']);
    expect(logs).toEqual([expect.stringContaining(': job 1 (deliver) stays pending; jobs wait until space frees')]);
    free();
    await scheduler.advance(1000);
    expect(runs).toBe(2);
    expect(status()).toEqual([]);
  });

  it('real clock: the background run on a full store neither crashes nor spins; it retries after FULL_RETRY_MS and catches up', async () => {
    const { db, scheduler, full, free, status } = setup('real');
    let tries = 0;
    scheduler.register('big', () => {
      tries++;
      db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(64 * 1024));
    });
    full();
    scheduler.start();
    scheduler.schedule('big', {});
    const t0 = Date.now();
    await vi.waitFor(() => expect(tries).toBeGreaterThanOrEqual(2), WAIT); // the background timer's retry, in real time
    expect(Date.now() - t0).toBeGreaterThanOrEqual(FULL_RETRY_MS - 50);
    expect(tries).toBe(2);
    expect(status()).toEqual(['pending']);
    free();
    await vi.waitFor(() => expect(status()).toEqual([]), WAIT);
    expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(1);
    await scheduler.stop();
  });

  it('real clock: a detached job that cannot write its outcome is one episode in the log, not "space again" and "full" at every retry', async () => {
    const { db, scheduler, logs, full, free, status } = setup('real');
    let tries = 0;
    scheduler.register('deliver', async () => {
      tries++;
      await new Promise((r) => setImmediate(r));
      db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(64 * 1024));
    }, { detachInRealMode: true });
    full();
    scheduler.start();
    scheduler.schedule('deliver', {});
    await vi.waitFor(() => {
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(status()).toEqual(['pending']);
    }, WAIT); // the background retry, in real time
    expect(logs).toEqual([expect.stringContaining(': job 1 (deliver) stays pending; jobs wait until space frees')]);
    free();
    await vi.waitFor(() => expect(status()).toEqual([]), WAIT);
    expect(logs.at(-1)).toBe('the store has space again: jobs run');
    expect(logs).toHaveLength(2);
    await scheduler.stop();
  });
  /**
   * Makes the store refuse a job's end as a full disk does when even the WAL cannot grow: a trigger writes a
   * 64 KiB row whenever a job's status changes to `status`, which `max_page_count` refuses with SQLITE_FULL.
   */
  function refuseEnd(db: ReturnType<typeof setup>['db'], status: 'pending' | 'failed'): void {
    db.exec(`CREATE TRIGGER refuse_end AFTER UPDATE OF status ON jobs WHEN NEW.status = '${status}' BEGIN INSERT INTO blobs VALUES (zeroblob(65536)); END`);
  }

  it('real clock: an async job whose way back to pending the full store refused (left running) runs once space frees, with no other job scheduled', async () => {
    const { db, scheduler, logs, full, free, status } = setup('real');
    refuseEnd(db, 'pending');
    let runs = 0;
    scheduler.register('import', async () => {
      runs++;
      await new Promise((r) => setImmediate(r));
      db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(64 * 1024));
    }, { async: true });
    full();
    scheduler.start();
    scheduler.schedule('import', {});
    await vi.waitFor(() => expect(runs).toBe(1), WAIT);
    await vi.waitFor(() => expect(logs).toHaveLength(1), WAIT);
    expect(status()).toEqual(['running']); // its end could not be written
    free();
    // No request, no schedule: the background timer alone writes its way back and runs it.
    await vi.waitFor(() => expect(status()).toEqual([]), WAIT);
    expect(runs).toBe(2);
    expect(logs.at(-1)).toBe('the store has space again: jobs run');
    await scheduler.stop();
  });

  it('real clock: an async job that failed while the store was full is recorded failed once space frees, not left running', async () => {
    const { db, scheduler, full, free, status } = setup('real');
    refuseEnd(db, 'failed');
    scheduler.register('broken', async () => {
      await new Promise((r) => setImmediate(r));
      throw new Error('the endpoint is gone');
    }, { async: true });
    full();
    scheduler.start();
    scheduler.schedule('broken', {});
    await vi.waitFor(() => expect(status()).toEqual(['running']), WAIT);
    free();
    await vi.waitFor(() => expect(status()).toEqual(['failed']), WAIT);
    expect(db.prepare('SELECT error FROM jobs').pluck().get()).toMatch(/^Error: the endpoint is gone/);
    await scheduler.stop();
  });

  it('real clock: a detached job that failed while the store was full is recorded failed once space frees, with no other job scheduled', async () => {
    const { db, scheduler, logs, full, free, status } = setup('real');
    refuseEnd(db, 'failed');
    let ended = false;
    scheduler.register('hook', async () => {
      await new Promise((r) => setImmediate(r));
      ended = true;
      throw new Error('the endpoint is gone');
    }, { detachInRealMode: true });
    full();
    scheduler.start();
    scheduler.schedule('hook', {});
    // The run that started it ended before it did: its failure's write, refused, is left to the timer alone.
    await vi.waitFor(() => expect(ended).toBe(true), WAIT);
    await vi.waitFor(() => expect(logs.some((l) => l.includes('job 1 (hook) failed: the endpoint is gone'))).toBe(true), WAIT);
    expect(status()).toEqual(['running']);
    free();
    await vi.waitFor(() => expect(status()).toEqual(['failed']), WAIT);
    expect(db.prepare('SELECT error FROM jobs').pluck().get()).toMatch(/^Error: the endpoint is gone/);
    await scheduler.stop();
  });

  it('real clock: a job whose running mark the full store refuses stays pending and is retried after FULL_RETRY_MS, not in a tight loop', async () => {
    const { db, scheduler, logs, full, free, status } = setup('real');
    db.exec(`CREATE TRIGGER refuse_mark AFTER UPDATE OF status ON jobs WHEN NEW.status = 'running' BEGIN INSERT INTO blobs VALUES (zeroblob(65536)); END`);
    let runs = 0;
    scheduler.register('import', async () => void runs++, { async: true });
    const tries: number[] = [];
    const runUntil = (scheduler as any).runUntil.bind(scheduler);
    (scheduler as any).runUntil = (target: number) => (tries.push(performance.now()), runUntil(target));
    full();
    scheduler.start();
    scheduler.schedule('import', {});
    await vi.waitFor(() => expect(tries.length).toBeGreaterThanOrEqual(2), WAIT);
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(FULL_RETRY_MS - 50);
    expect(status()).toEqual(['pending']);
    expect(logs).toEqual([expect.stringContaining(': job 1 (import) stays pending; jobs wait until space frees')]);
    free();
    db.exec('DROP TRIGGER refuse_mark');
    await vi.waitFor(() => expect(status()).toEqual([]), WAIT);
    expect(runs).toBe(1);
    await scheduler.stop();
  });
});
