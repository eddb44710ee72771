import { describe, expect, it, vi } from 'vitest';
import { Clock, parseDuration } from '../../src/clock/clock.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import { openDatabase, migrate } from '../../src/store/db.js';
import { emulatorClockTable, jobsTable, KEEP_FAILED_JOBS, SLICE_MS } from '../../src/clock/scheduler.js';

function setup(mode: 'manual' | 'real' = 'manual') {
  const db = openDatabase();
  migrate(db, { tables: [jobsTable, emulatorClockTable], migrations: [] });
  const clock = new Clock(mode, Date.parse('2030-01-01T00:00:00Z'));
  const scheduler = new Scheduler(db, clock);
  return { db, clock, scheduler };
}

describe('parseDuration', () => {
  it.each([
    ['10m', 600_000], ['1h30m', 5_400_000], ['5 s', 5_000], ['in 1 min', 60_000], ['2 hours', 7_200_000], ['1500', 1500], [250, 250], ['3 days', 259_200_000],
  ])('%s → %d ms', (input, ms) => expect(parseDuration(input as any)).toBe(ms));
  it.each([['soon'], ['10 parsecs'], [-1], ['']])('%s → null', (input) => expect(parseDuration(input as any)).toBeNull());
});

describe('scheduler', () => {
  it('runs due jobs in due-time order, moving the clock to each', async () => {
    const { clock, scheduler } = setup();
    const seen: string[] = [];
    scheduler.register('t', (job) => {
      seen.push(`${job.payload.n}@${clock.nowMs() - Date.parse('2030-01-01T00:00:00Z')}`);
    });
    const t0 = clock.nowMs();
    scheduler.schedule('t', { n: 'b' }, { dueAt: t0 + 2000 });
    scheduler.schedule('t', { n: 'a' }, { dueAt: t0 + 1000 });
    scheduler.schedule('t', { n: 'c' }, { dueAt: t0 + 9000 });
    const fired = await scheduler.advance(5000);
    expect(seen).toEqual(['a@1000', 'b@2000']);
    expect(fired.map((f) => f.type)).toEqual(['t', 't']);
    expect(clock.nowMs() - t0).toBe(5000);
    await scheduler.advance(4000);
    expect(seen).toEqual(['a@1000', 'b@2000', 'c@9000']);
  });

  it('runs jobs that handlers schedule inside the window, and not those after it', async () => {
    const { clock, scheduler } = setup();
    let count = 0;
    scheduler.register('chain', () => {
      count++;
      scheduler.schedule('chain', {}, { dueAt: clock.nowMs() + 1000 });
    });
    scheduler.schedule('chain', {});
    await scheduler.advance(3500);
    expect(count).toBe(4); // at 0, 1000, 2000, 3000
  });

  it('a long run yields to waiting work between jobs (slices of SLICE_MS), still in order', async () => {
    const { scheduler } = setup();
    const seen: number[] = [];
    scheduler.register('slow', (job) => {
      const until = performance.now() + SLICE_MS / 4; // each job holds the thread a while
      while (performance.now() < until);
      seen.push(job.payload.n as number);
    });
    for (let n = 0; n < 20; n++) scheduler.schedule('slow', { n });
    let ranAfter = -1;
    const advancing = scheduler.advance(1000);
    setImmediate(() => (ranAfter = seen.length)); // a request arriving while the advance runs
    await advancing;
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(ranAfter).toBeGreaterThan(0);
    expect(ranAfter).toBeLessThan(20);
  });

  it('a failing job is marked failed and the run goes on', async () => {
    const { db, scheduler } = setup();
    const ok = vi.fn();
    scheduler.register('boom', () => { throw new Error('kaput'); });
    scheduler.register('ok', ok);
    scheduler.schedule('boom', {});
    scheduler.schedule('ok', {});
    await scheduler.runDue();
    expect(ok).toHaveBeenCalledOnce();
    const row = db.prepare(`SELECT status, error FROM jobs WHERE type = 'boom'`).get() as any;
    expect(row.status).toBe('failed');
    expect(row.error).toContain('kaput');
  });

  it('the manual clock never moves by itself', async () => {
    const { clock } = setup();
    const a = clock.nowMs();
    await new Promise((r) => setImmediate(r));
    expect(clock.nowMs()).toBe(a);
  });

  it('in real mode runs a due job in the background, without an advance', async () => {
    const { db, scheduler } = setup('real');
    const ran = vi.fn();
    scheduler.register('now', ran);
    scheduler.start();
    scheduler.schedule('now', {});
    await vi.waitFor(() => expect(ran).toHaveBeenCalledOnce(), { timeout: 2000, interval: 5 });
    await scheduler.stop();
    expect(db.prepare(`SELECT status FROM jobs`).get()).toBeUndefined(); // a finished job is deleted
  });

  it('in real mode a detached job (network I/O) does not hold up the others; in manual mode it is awaited', async () => {
    const real = setup('real');
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const fast = vi.fn();
    real.scheduler.register('slow', () => slow, { detachInRealMode: true });
    real.scheduler.register('fast', fast);
    real.scheduler.start();
    real.scheduler.schedule('slow', {});
    real.scheduler.schedule('fast', {});
    await vi.waitFor(() => expect(fast).toHaveBeenCalledOnce(), { timeout: 2000, interval: 5 });
    expect((real.db.prepare(`SELECT status FROM jobs WHERE type = 'slow'`).get() as any).status).toBe('running');
    release();
    await real.scheduler.stop();
    expect(real.db.prepare(`SELECT status FROM jobs WHERE type = 'slow'`).get()).toBeUndefined();

    const manual = setup('manual');
    const order: string[] = [];
    manual.scheduler.register('slow', async () => { await new Promise((r) => setImmediate(r)); order.push('slow'); }, { detachInRealMode: true });
    manual.scheduler.register('fast', () => { order.push('fast'); });
    manual.scheduler.schedule('slow', {});
    manual.scheduler.schedule('fast', {});
    await manual.scheduler.runDue();
    expect(order).toEqual(['slow', 'fast']);
  });

  it('refuses to schedule an unknown job type or register one twice', () => {
    const { scheduler } = setup();
    expect(() => scheduler.schedule('nope', {})).toThrow(/no handler/);
    scheduler.register('x', () => {});
    expect(() => scheduler.register('x', () => {})).toThrow(/twice/);
  });

  it('a synchronous job commits its work with its end: a throw rolls the work back, the job is kept failed', async () => {
    const { db, scheduler } = setup();
    db.exec('CREATE TABLE work (n INTEGER)');
    scheduler.register('half', () => {
      db.prepare('INSERT INTO work (n) VALUES (1)').run();
      throw new Error('midway');
    });
    scheduler.register('whole', () => { db.prepare('INSERT INTO work (n) VALUES (2)').run(); });
    scheduler.schedule('half', {});
    scheduler.schedule('whole', {});
    await scheduler.runDue();
    expect(db.prepare('SELECT n FROM work').all()).toEqual([{ n: 2 }]);
    expect(db.prepare('SELECT type, status FROM jobs').all()).toEqual([{ type: 'half', status: 'failed' }]);
  });

  it('a job registered synchronous that returns a promise fails (a programming error, not a silent half-run)', async () => {
    const { db, scheduler } = setup();
    scheduler.register('oops', async () => {});
    scheduler.schedule('oops', {});
    await scheduler.runDue();
    expect((db.prepare('SELECT status, error FROM jobs').get() as any)).toMatchObject({ status: 'failed', error: expect.stringContaining('async: true') });
  });

  it('recover() puts jobs a crash left running back to pending; they run again once, complete() inside the work ends them', async () => {
    const { db, clock, scheduler } = setup();
    const runs: number[] = [];
    scheduler.register('net', async (job) => {
      runs.push(job.payload.n);
      await new Promise((r) => setImmediate(r));
      db.transaction(() => scheduler.complete(job.id))();
    }, { async: true });
    const id = scheduler.schedule('net', { n: 1 });
    // What a kill -9 during the request leaves: the job marked running, its work not recorded.
    db.prepare(`UPDATE jobs SET status = 'running' WHERE id = ?`).run(id);
    await scheduler.runDue();
    expect(runs).toEqual([]); // a running job is not picked up again by the same process

    // The restart: a new scheduler on the same store.
    const again = new Scheduler(db, clock);
    again.register('net', async (job) => { runs.push(job.payload.n); again.complete(job.id); }, { async: true });
    expect(again.recover()).toBe(1);
    await again.runDue();
    expect(runs).toEqual([1]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    await again.runDue();
    expect(runs).toEqual([1]);
  });

  it('the jobs table stays bounded: finished and cancelled jobs are deleted, failed ones kept up to KEEP_FAILED_JOBS', async () => {
    const { db, scheduler } = setup();
    scheduler.register('ok', () => {});
    scheduler.register('bad', () => { throw new Error('no'); });
    scheduler.register('later', () => {});
    for (let i = 0; i < 50; i++) scheduler.schedule('ok', { i });
    for (let i = 0; i < 5; i++) scheduler.schedule('later', { key: `k${i}` }, { dueAt: Date.parse('2031-01-01T00:00:00Z') });
    expect(scheduler.cancelWhere('later', 'key', ['k0', 'k1'])).toBe(2);
    expect(scheduler.cancelWhere('later', 'key', 'k2')).toBe(1);
    await scheduler.runDue();
    expect(db.prepare('SELECT type, COUNT(*) AS n FROM jobs GROUP BY type').all()).toEqual([{ type: 'later', n: 2 }]);

    const many = KEEP_FAILED_JOBS + 20;
    db.transaction(() => { for (let i = 0; i < many; i++) scheduler.schedule('bad', { i }); })();
    await scheduler.runDue();
    const failed = db.prepare(`SELECT MIN(json_extract(payload, '$.i')) AS oldest, COUNT(*) AS n FROM jobs WHERE status = 'failed'`).get();
    expect(failed).toEqual({ oldest: 20, n: KEEP_FAILED_JOBS }); // the newest kept

    // Rows left by older versions are compacted at start-up.
    db.prepare(`INSERT INTO jobs (type, due_at, payload, status, created_at) VALUES ('ok', 0, 'null', 'done', 0), ('ok', 0, 'null', 'cancelled', 0)`).run();
    scheduler.recover();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('done', 'cancelled')`).get()).toEqual({ n: 0 });
  });
});
