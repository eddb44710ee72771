import { describe, expect, it, vi } from 'vitest';
import { Clock, parseDuration } from '../../src/clock/clock.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import { openDatabase, migrate } from '../../src/store/db.js';
import { clockMigration, schedulerMigration } from '../../src/clock/scheduler.js';

function setup(mode: 'manual' | 'real' = 'manual') {
  const db = openDatabase();
  migrate(db, [schedulerMigration, clockMigration]);
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
    expect((db.prepare(`SELECT status FROM jobs`).get() as any).status).toBe('done');
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
    expect((real.db.prepare(`SELECT status FROM jobs WHERE type = 'slow'`).get() as any).status).toBe('done');

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
});
