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
});
