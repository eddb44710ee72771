/**
 * The job scheduler (docs/reference/design.md#clock). Every asynchronous
 * transition is a row in `jobs` with a due time in emulated ms; it runs when
 * the clock reaches it.
 *
 * - `advance(ms)` walks the clock forward job by job, in due-time order
 *   (ties by insertion), running each before moving on; jobs that handlers
 *   schedule inside the window run too. Resolves once none is due.
 * - In `real` mode a timer also runs due jobs in the background.
 * - Runs never overlap: one promise chain serialises them. A long run yields
 *   to waiting requests every `SLICE_MS` of wall time (between jobs, never
 *   inside one).
 *
 * Crash safety: a synchronous job's work and its end
 * (the row deleted) are one SQLite transaction, so a crash leaves it either
 * done or still `pending` (run again after the restart). An asynchronous job
 * (registered `async`: it awaits network or file I/O) is marked `running`
 * while it runs and ends its work with `complete(job.id)` inside its last
 * transaction; `recover()` at start-up puts every `running` job back to
 * `pending`, so one interrupted by a crash runs again (its handler must be
 * safe to re-run: a webhook attempt keeps its `svix-id`, an import resumes
 * after its last committed batch).
 *
 * Bounded table (a long run must not grow it): finished and cancelled jobs are
 * deleted; failed ones are kept for inspection, the newest
 * `KEEP_FAILED_JOBS` of them.
 */
import type { DB, Statement } from '../store/db.js';
import { fullStore, storeFullText } from '../store/full.js';
import { MAX_CLOCK_MS, type Clock } from './clock.js';
import { defineTable, integer, text, type RowOf } from '../store/table.js';
import type { FiredJob } from '../public-types.js';

/** A stored job as a handler gets it: its row's id, type, team and due time (emulated ms), and `payload`, the parsed JSON given to `schedule`. */
export type Job<P = any> = Pick<JobRow, 'id' | 'type' | 'team_id' | 'due_at'> & { payload: P };

/**
 * Runs a job. Throwing marks the job failed (logged) and the run goes on; a
 * synchronous handler's writes are then rolled back.
 */
export type JobHandler = (job: Job) => void | Promise<void>;

/** How many failed jobs are kept (newest first) for inspection; older ones are deleted. */
export const KEEP_FAILED_JOBS = 1_000;

/** Options of `Scheduler.register`. */
export interface RegisterOptions {
  /**
   * The handler awaits I/O (returns a promise): it runs outside a
   * transaction, marked `running` meanwhile, and must be safe to run again
   * after a crash (see the file comment). Implied by `detachInRealMode`.
   */
  async?: boolean;
  /**
   * With the real clock, a due job of this type is started and not awaited,
   * so a slow network call (a webhook endpoint that takes its full timeout)
   * does not delay every other job; with the manual clock it is awaited like
   * any job, so an advance stays deterministic.
   */
  detachInRealMode?: boolean;
}

// Public (what `emu.clock.advance()` resolves with): declared in src/public-types.ts.
export type { FiredJob };

/** A due job's row as read (`payload` still JSON text). */
type DueRow = Pick<JobRow, 'id' | 'type' | 'team_id' | 'due_at' | 'payload'>;

/** What one run of due jobs (`runUntil`) keeps between its steps: its target (emulated ms), what fired, when its slice began (wall ms), and whether a slice ran a job and committed (only then has the store shown it has space). */
interface RunState {
  target: number;
  fired: FiredJob[];
  sliceStart: number;
  ranInSlice: boolean;
  committed: boolean;
}

/**
 * Longest run of jobs (ms of wall time) before the scheduler lets waiting
 * requests through (a clock advance firing 200,000 jobs used to
 * block every request for 17 s). Between slices no transaction is open; a
 * request served there sees the clock at the due time of the job that ran
 * last, as it would in `real` mode.
 */
export const SLICE_MS = 10;

/**
 * How long (ms of wall time) the background timer waits before trying jobs
 * again after the store was full (src/store/full.ts): a due job is not
 * retried in a tight loop while the disk stays full.
 */
export const FULL_RETRY_MS = 1_000;

/** The saved clock (one row), kept out of reset and snapshots (`userTables` skips `emulator_*`). */
export const emulatorClockTable = defineTable(
  'emulator_clock',
  {
    id: integer().primaryKey().check('id = 1'),
    /** The emulated now, ms (`Clock.state()`). */
    now_ms: integer().notNull(),
    /** The clock's offset from wall time, ms (`Clock.state()`). */
    offset_ms: integer().notNull(),
  },
);

/** The `emulator_clock` row. */
type ClockRow = RowOf<typeof emulatorClockTable>;

/** The INSERT of the clock's row, made an upsert (the table holds one row, `id` 1). */
const INSERT_CLOCK = emulatorClockTable.insert(emulatorClockTable.columnNames);
const SAVE_CLOCK = `${INSERT_CLOCK.sql} ON CONFLICT (id) DO UPDATE SET now_ms = excluded.now_ms, offset_ms = excluded.offset_ms`;

/** The clock jobs: pending, running, or failed (kept, the newest `KEEP_FAILED_JOBS`); ended and cancelled ones are deleted. */
export const jobsTable = defineTable(
  'jobs',
  {
    id: integer().primaryKey(),
    type: text().notNull(),
    /** The team the job works for; null for one of no team. */
    team_id: text(),
    /** Emulated ms. */
    due_at: integer().notNull(),
    /** JSON text. */
    payload: text().notNull(),
    /** `pending`, `running` or `failed` (stores of older versions also kept `done` and `cancelled`: `recover` deletes them). */
    status: text().notNull().default('pending'),
    /** A failed job's error (its stack); null otherwise. */
    error: text(),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'jobs_due', on: 'status, due_at, id' },
    ],
  },
);

/** A `jobs` row; times in emulated ms, `payload` JSON text. */
export type JobRow = RowOf<typeof jobsTable>;

/** The INSERT of a job to run (`status` takes its default, `pending`). */
const INSERT_JOB = jobsTable.insert(['type', 'team_id', 'due_at', 'payload', 'created_at']);

/** The INSERT of a job recorded as failed (`recordFailed`). */
const INSERT_FAILED_JOB = jobsTable.insert(['type', 'team_id', 'due_at', 'payload', 'status', 'error', 'created_at']);

/** What a run reads of a due job (`DueRow`). */
const DUE_COLUMNS = jobsTable.columnList(['id', 'type', 'team_id', 'due_at', 'payload']);


/** The log line of a failed job: `job 12 (emails.send) failed: <the error's message>`. */
function failedText(id: number, type: string, err: unknown): string {
  return `job ${id} (${type}) failed: ${(err as Error)?.message ?? err}`;
}

export class Scheduler {
  private handlers = new Map<string, JobHandler>();
  /** Types whose handler awaits I/O (run outside a transaction). */
  private asyncTypes = new Set<string>();
  /** Types that, with the real clock, run without holding up other jobs. */
  private detached = new Set<string>();
  /** Detached runs still under way (awaited by `stop`). */
  private inflight = new Set<Promise<unknown>>();
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Set while the store is full (a job could not write): the fault is logged once, and the timer retries after `FULL_RETRY_MS`. */
  private fullSince: number | null = null;
  /**
   * Async jobs left `running` because the store was full when their end was
   * to be written: back to `pending` (null) or `failed` (the error's text).
   * Written before the next run; while any is left, the background timer
   * retries every `FULL_RETRY_MS` even when no job is pending (their rows are
   * not `pending`, so a timer armed for pending jobs alone never came: an
   * import stayed stuck until another request scheduled a job).
   */
  private stuck = new Map<number, string | null>();
  /** The statements of a run (`statements`). */
  private prepared: { nextJob: Statement; markRunning: Statement; endPending: Statement } | null = null;
  /** `runSync`'s and `runSlice`'s transaction functions, made once (a transaction function is made per call otherwise). */
  private syncTx: ((handler: JobHandler, job: Job) => void) | null = null;
  private sliceTx: ((run: RunState) => DueRow | 'done' | 'yield') | null = null;

  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly log: (msg: string) => void = () => {},
    /** Called after every advance, with the new emulated now (ms): the inbox page hears of it. */
    private readonly onAdvanced: (nowMs: number) => void = () => {},
  ) {}

  /**
   * Registers the handler of a job type (see `RegisterOptions`). A handler
   * registered without `async` runs inside one transaction with the job's
   * end, and must not return a promise (the job then fails: a programming
   * error). Throws if the type is taken.
   */
  register(type: string, handler: JobHandler, opts: RegisterOptions = {}): void {
    if (this.handlers.has(type)) throw new Error(`job type ${type} registered twice`);
    this.handlers.set(type, handler);
    if (opts.async || opts.detachInRealMode) this.asyncTypes.add(type);
    if (opts.detachInRealMode) this.detached.add(type);
  }

  /**
   * Start-up recovery: puts every job left `running` by
   * a process that stopped without finishing it (kill -9, power loss) back
   * to `pending`, so it runs again at the next run of due jobs, and deletes
   * finished and cancelled rows kept by older versions. Returns how many
   * jobs were put back. Call it once, after `migrate`, before `start`.
   */
  recover(): number {
    return this.db.transaction(() => {
      const n = this.db.prepare(`UPDATE jobs SET status = 'pending' WHERE status = 'running'`).run().changes;
      this.db.prepare(`DELETE FROM jobs WHERE status IN ('done', 'cancelled')`).run();
      this.trimFailed();
      return n;
    })();
  }

  /**
   * Ends a job: deletes its row. An async handler calls it inside the
   * transaction that records its outcome, so the outcome and the job's end
   * commit together (a crash after it never re-runs the job). Synchronous;
   * a no-op for a job already ended.
   */
  complete(jobId: number): void {
    // Only while running: a job the handler scheduled may reuse the id (rowids are reused once deleted).
    this.db.prepare(`DELETE FROM jobs WHERE id = ? AND status = 'running'`).run(jobId);
  }

  /**
   * Stores a job due at `dueAt` (emulated ms; default now) and returns its id.
   * Synchronous, so it can be part of the caller's SQLite transaction.
   */
  schedule(type: string, payload: unknown, opts: { dueAt?: number; teamId?: string | null } = {}): number {
    if (!this.handlers.has(type)) throw new Error(`no handler for job type ${type}`);
    const now = this.clock.nowMs();
    const row = { type, team_id: opts.teamId ?? null, due_at: Math.max(opts.dueAt ?? now, 0), payload: JSON.stringify(payload ?? null), created_at: now };
    const info = this.db.prepare(INSERT_JOB.sql).run(...INSERT_JOB.params(row));
    this.kick();
    return Number(info.lastInsertRowid);
  }

  /**
   * Cancels `value` (or, given an array, any of its values) in the pending
   * jobs of `type`: a job whose payload field `key` equals one is deleted; a
   * job whose field `key` is a list of strings holding one gets the list
   * without them (one job for many items, e.g. a batch of emails), and is
   * deleted when none is left. Returns how many jobs were deleted or changed.
   */
  cancelWhere(type: string, key: string, value: string | readonly string[]): number {
    const values = JSON.stringify(typeof value === 'string' ? [value] : value);
    if (values === '[]') return 0;
    const path = `$.${key}`;
    const deleted = this.db
      .prepare(`DELETE FROM jobs WHERE status = 'pending' AND type = ? AND json_extract(payload, ?) IN (SELECT value FROM json_each(?))`)
      .run(type, path, values).changes;
    const listed = `status = 'pending' AND type = ? AND json_type(payload, ?) = 'array'`;
    const changed = this.db
      .prepare(
        `UPDATE jobs SET payload = json_set(payload, ?, json((SELECT json_group_array(item.value) FROM json_each(jobs.payload, ?) AS item WHERE item.value NOT IN (SELECT value FROM json_each(?)))))
         WHERE ${listed} AND EXISTS (SELECT 1 FROM json_each(jobs.payload, ?) AS item WHERE item.value IN (SELECT value FROM json_each(?)))`,
      )
      .run(path, path, values, type, path, path, values).changes;
    if (changed) this.db.prepare(`DELETE FROM jobs WHERE ${listed} AND json_array_length(payload, ?) = 0`).run(type, path, path);
    return deleted + changed;
  }

  /**
   * Records a failed job of `type` that ran as one step of another job (an
   * email of a broadcast's `emails.send-many`): a `failed` row with its
   * payload, team, due time (emulated ms) and the error's stack, and the
   * same log line, as a job of its own that failed (`fail`), so the record
   * of a failure does not depend on the path. Synchronous: part of the
   * running job's transaction. Returns the row's id. Throws the store's
   * error (a full store: the running job is rolled back and stays pending).
   */
  recordFailed(type: string, payload: unknown, err: unknown, opts: { dueAt?: number; teamId?: string | null } = {}): number {
    if (!this.handlers.has(type)) throw new Error(`no handler for job type ${type}`);
    const now = this.clock.nowMs();
    const row: Omit<JobRow, 'id'> = {
      type,
      team_id: opts.teamId ?? null,
      due_at: Math.max(opts.dueAt ?? now, 0),
      payload: JSON.stringify(payload ?? null),
      status: 'failed',
      error: String((err as Error)?.stack ?? err),
      created_at: now,
    };
    const info = this.db.prepare(INSERT_FAILED_JOB.sql).run(...INSERT_FAILED_JOB.params(row));
    this.trimFailed();
    const id = Number(info.lastInsertRowid);
    this.log(failedText(id, type, err));
    return id;
  }

  /** Pending jobs, soonest first (for the admin API and tests). */
  pending(): FiredJob[] {
    return this.db
      .prepare(`SELECT ${jobsTable.columnList(['id', 'type', 'due_at'])} FROM jobs WHERE status = 'pending' ORDER BY due_at, id`)
      .all() as FiredJob[];
  }

  /**
   * Types of pending jobs that no registered handler runs, with how many of
   * each (the start-up check of src/clock/jobs.ts; also snapshot import).
   */
  unknownPendingTypes(): { type: string; count: number }[] {
    const rows = this.db
      .prepare(`SELECT type, COUNT(*) AS count FROM jobs WHERE status = 'pending' GROUP BY type ORDER BY type`)
      .all() as { type: string; count: number }[];
    return rows.filter((r) => !this.handlers.has(r.type));
  }

  /**
   * Moves the clock forward by `ms` (≥ 0), running every job due up to the
   * new time in order. Resolves with the jobs that ran.
   */
  advance(ms: number): Promise<FiredJob[]> {
    return this.serial(async () => {
      const target = this.clock.nowMs() + ms;
      if (!(ms >= 0) || !(target <= MAX_CLOCK_MS)) {
        throw new RangeError(`cannot advance the clock by ${ms} ms: it must be ≥ 0 and end before ${new Date(MAX_CLOCK_MS).toISOString()}`);
      }
      const fired = await this.runUntil(target);
      this.clock.moveTo(target);
      this.saveClock();
      this.onAdvanced(this.clock.nowMs());
      return fired;
    });
  }

  /** Saves the clock in the store (a `--db` file keeps it across restarts). */
  saveClock(): void {
    const { nowMs, offsetMs } = this.clock.state();
    const row: ClockRow = { id: 1, now_ms: nowMs, offset_ms: offsetMs };
    this.db.prepare(SAVE_CLOCK).run(...INSERT_CLOCK.params(row));
  }

  /** Resumes the clock saved by `saveClock`, if any. */
  restoreClock(): void {
    const row = this.db.prepare(`SELECT ${emulatorClockTable.columnList(['now_ms', 'offset_ms'])} FROM emulator_clock WHERE id = 1`).get() as Pick<ClockRow, 'now_ms' | 'offset_ms'> | undefined;
    if (row) this.clock.restore({ nowMs: row.now_ms, offsetMs: row.offset_ms });
  }

  /** Like `advance`, to an absolute time in ms (no-op move if in the past; due jobs still run). */
  advanceTo(ms: number): Promise<FiredJob[]> {
    return this.advance(Math.max(0, ms - this.clock.nowMs()));
  }

  /** Runs what is due now without moving the clock. */
  runDue(): Promise<FiredJob[]> {
    return this.advance(0);
  }

  /** Starts the background timer (real mode). */
  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Stops the background timer and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain.catch(() => {});
    await Promise.allSettled([...this.inflight]);
    try {
      this.saveClock();
    } catch (err) {
      // On a full store the clock is not saved (a restart resumes at the last saved time); closing goes on.
      if (!fullStore(err)) throw err;
      this.storeFull(err);
    }
  }

  /**
   * A job (or the scheduler's own bookkeeping) found the store full
   * (src/store/full.ts): logged once per episode as one line; the job's
   * writes were rolled back and it stays pending, run again once space
   * frees (the background timer retries every `FULL_RETRY_MS`).
   */
  private storeFull(err: unknown, job?: { id: number; type: string }): void {
    if (this.fullSince !== null) return;
    this.fullSince = performance.now();
    const which = fullStore(err) ?? 'database';
    this.log(`${storeFullText(which, this.db.name, 'the upload folder')}${job ? `: job ${job.id} (${job.type}) stays pending` : ''}; jobs wait until space frees (${(err as Error)?.message ?? err})`);
  }

  /** A store-full episode ended: a run of jobs committed (called only after one did). */
  private storeHasSpace(): void {
    if (this.fullSince === null) return;
    this.fullSince = null;
    this.log('the store has space again: jobs run');
  }

  /** Runs `fn` when no job or advance is running, and blocks them until it ends. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.serial(async () => fn());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    // The chain keeps no result: a large advance's list of fired jobs is not held until the next run.
    this.chain = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** Records a job's failure (its own statement, after any rollback) and keeps the failed rows bounded. */
  private fail(row: { id: number; type: string }, err: unknown, from: 'pending' | 'running' = 'pending'): void {
    const error = String((err as Error)?.stack ?? err);
    try {
      // `from`: the row's status now (a sync job's `running` was rolled back); a job the handler scheduled may have reused the id.
      this.db.prepare(`UPDATE jobs SET status = 'failed', error = ? WHERE id = ? AND status = ?`).run(error, row.id, from);
      this.trimFailed();
    } catch (e) {
      // A full store cannot record the failure either: a pending job stays pending (it runs again), a running
      // one is marked failed once space frees (before the next run).
      if (!fullStore(e)) throw e;
      this.storeFull(e, row);
      if (from === 'running') this.holdEnd(row.id, error);
    }
    this.log(failedText(row.id, row.type, err));
  }

  /**
   * An async job that found the store full: its row goes back to `pending`
   * (its outcome was rolled back; it is safe to run again, see the file
   * comment). When even that cannot be written, it is retried before the
   * next run.
   */
  private repend(id: number): void {
    this.writeEnd(id, null);
  }

  /**
   * Writes the end of an async job left `running`: back to `pending`
   * (`error` null) or `failed` with `error`. On a full store it is kept in
   * `stuck` and written before the next run (see `kick`).
   */
  private writeEnd(id: number, error: string | null): void {
    try {
      if (error === null) this.db.prepare(`UPDATE jobs SET status = 'pending' WHERE id = ? AND status = 'running'`).run(id);
      else {
        this.db.prepare(`UPDATE jobs SET status = 'failed', error = ? WHERE id = ? AND status = 'running'`).run(error, id);
        this.trimFailed();
      }
      this.stuck.delete(id);
    } catch (err) {
      if (!fullStore(err)) throw err;
      this.holdEnd(id, error);
    }
  }

  /**
   * Keeps the end of an async job left `running` (back to `pending` when
   * `error` is null, else `failed`) for the next run, and arms the timer
   * for it (`kick`): the job may be a detached one, ending after the run
   * that started it, whose own re-arming came too early to see it.
   */
  private holdEnd(id: number, error: string | null): void {
    this.stuck.set(id, error);
    this.kick();
  }

  /** Deletes failed jobs beyond the newest `KEEP_FAILED_JOBS`. */
  private trimFailed(): void {
    this.db
      .prepare(`DELETE FROM jobs WHERE status = 'failed' AND id <= (SELECT id FROM jobs WHERE status = 'failed' ORDER BY id DESC LIMIT 1 OFFSET ?)`)
      .run(KEEP_FAILED_JOBS);
  }

  /**
   * Runs every job due at or before `target` (emulated ms), in due-time
   * order, the clock moving to each; returns them as fired. Three steps:
   * the ends a full store refused are written first (`writeEnd`), then
   * slices of synchronous jobs (`runSlice`) alternate with the asynchronous
   * job each slice stops at (`runAsync`), until none is due. Throws what a
   * full store threw (the jobs stay pending; `storeFull` logged it).
   */
  private async runUntil(target: number): Promise<FiredJob[]> {
    for (const [id, error] of [...this.stuck]) this.writeEnd(id, error);
    const run: RunState = { target, fired: [], sliceStart: performance.now(), ranInSlice: false, committed: false };
    for (;;) {
      run.ranInSlice = false;
      let next: DueRow | 'done' | 'yield';
      try {
        next = this.runSlice(run);
      } catch (err) {
        if (fullStore(err)) this.storeFull(err);
        throw err;
      }
      if (run.ranInSlice) run.committed = true;
      if (next === 'done') break;
      if (next === 'yield') {
        // Waiting requests are served between slices, never inside a job.
        await new Promise((resolve) => setImmediate(resolve));
        run.sliceStart = performance.now();
        continue;
      }
      await this.runAsync(run, next);
    }
    // A run that committed nothing (none due, or only detached jobs still running) says nothing of the store's space.
    if (run.committed) this.storeHasSpace();
    return run.fired;
  }

  /** The statements of a run, prepared once per scheduler. */
  private get statements() {
    return (this.prepared ??= {
      nextJob: this.db.prepare(
        `SELECT ${DUE_COLUMNS} FROM jobs WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT 1`,
      ),
      markRunning: this.db.prepare(`UPDATE jobs SET status = 'running' WHERE id = ?`),
      endPending: this.db.prepare(`DELETE FROM jobs WHERE id = ? AND status = 'pending'`),
    });
  }

  /**
   * Starts a due job: the clock moves to it and it is listed as fired;
   * returns its handler and parsed job, or null when it failed already (no
   * handler for its type, a payload that does not parse: marked failed).
   */
  private begin(run: RunState, row: DueRow): { handler: JobHandler; job: Job } | null {
    this.clock.moveTo(row.due_at);
    run.fired.push({ id: row.id, type: row.type, due_at: row.due_at });
    const handler = this.handlers.get(row.type);
    if (!handler) {
      this.fail(row, new Error(`no handler for job type ${row.type}`));
      return null;
    }
    try {
      return { handler, job: { ...row, payload: JSON.parse(row.payload) } };
    } catch (err) {
      this.fail(row, err);
      return null;
    }
  }

  /**
   * One synchronous job in a savepoint of the slice's transaction: its end
   * and its work together, rolled back whole (the row back to `pending`) if
   * it throws. The row is deleted before the handler runs, so there is no
   * `running` mark only this transaction would see (an UPDATE of the due
   * index per job: docs/benchmarks.md#figures-behind-the-code), and a job the
   * handler schedules may reuse the id. Throws if the handler returns a
   * promise (it should have been registered `async`).
   */
  private runSync(handler: JobHandler, job: Job): void {
    (this.syncTx ??= this.db.transaction((h: JobHandler, j: Job) => this.runSyncJob(h, j)))(handler, job);
  }

  /** `runSync`'s body, inside its savepoint. */
  private runSyncJob(handler: JobHandler, job: Job): void {
    this.statements.endPending.run(job.id);
    const result = handler(job) as unknown;
    if (result && typeof (result as Promise<void>).then === 'function') {
      throw new Error(`job type ${job.type} returned a promise: register it with { async: true }`);
    }
  }

  /**
   * One slice of synchronous jobs in one transaction, each in its own
   * savepoint (`runSync`: a job that throws is rolled back alone and marked
   * failed), so a slice commits once rather than once a job. Returns the
   * first asynchronous job due (to run outside any transaction), `'done'`
   * when none is due, or `'yield'` after `SLICE_MS` of wall time. A full
   * store rolls the slice back (its jobs stay pending) and is thrown.
   */
  private runSlice(run: RunState): DueRow | 'done' | 'yield' {
    return (this.sliceTx ??= this.db.transaction((r: RunState) => this.runSliceJobs(r)))(run);
  }

  /** `runSlice`'s body, inside its transaction. */
  private runSliceJobs(run: RunState): DueRow | 'done' | 'yield' {
    for (;;) {
      if (performance.now() - run.sliceStart >= SLICE_MS) return 'yield';
      const row = this.statements.nextJob.get(run.target) as DueRow | undefined;
      if (!row) return 'done';
      if (this.asyncTypes.has(row.type)) return row;
      const started = this.begin(run, row);
      if (!started) continue;
      run.ranInSlice = true;
      try {
        this.runSync(started.handler, started.job);
      } catch (err) {
        // A full store is the machine's fault, not the job's: the slice rolls back, its jobs stay pending.
        if (fullStore(err)) throw err;
        this.fail(row, err);
      }
    }
  }

  /**
   * One asynchronous job: marked `running`, its handler awaited outside any
   * transaction (a detached one, in real mode, left running while the run
   * goes on), then completed, failed, or, on a full store, put back to
   * `pending` to run again once space frees. Throws what a full store threw.
   */
  private async runAsync(run: RunState, row: DueRow): Promise<void> {
    const started = this.begin(run, row);
    if (!started) return;
    const { handler, job } = started;
    try {
      this.statements.markRunning.run(row.id);
    } catch (err) {
      // Not even the mark fits: the job stays pending, and the timer waits FULL_RETRY_MS (no tight loop).
      if (fullStore(err)) this.storeFull(err, row);
      throw err;
    }
    let full: unknown = null;
    const done = Promise.resolve()
      .then(() => handler(job))
      .then(() => {
        this.complete(row.id);
        this.storeHasSpace();
      })
      .catch((err) => {
        if (!fullStore(err)) return this.fail(row, err, 'running');
        // The machine's fault: the job runs again once space frees (its outcome was rolled back).
        this.storeFull(err, row);
        this.repend(row.id);
        // A detached job ends after its run did, which armed no timer for it (it was running): arm one now.
        this.kick();
        full = err;
      });
    if (this.clock.mode === 'real' && this.detached.has(row.type)) {
      this.inflight.add(done);
      void done.finally(() => this.inflight.delete(done));
      return;
    }
    await done;
    if (full) throw full;
  }

  /**
   * In real mode, (re)arms the timer for the soonest pending job, or, while
   * a job's end is still to be written (`stuck`: a full store refused it),
   * after `FULL_RETRY_MS` whatever is pending: such a job has no pending row
   * to arm a timer for, and nothing else would write its end.
   */
  private kick(): void {
    if (this.clock.mode !== 'real' || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const next = this.db
      .prepare(`SELECT due_at FROM jobs WHERE status = 'pending' ORDER BY due_at LIMIT 1`)
      .get() as { due_at: number } | undefined;
    if (!next && this.stuck.size === 0) {
      this.timer = null;
      return;
    }
    let wait = next ? Math.min(Math.max(next.due_at - this.clock.nowMs(), 0), 60_000) : FULL_RETRY_MS;
    if (this.fullSince !== null || this.stuck.size > 0) wait = Math.max(wait, FULL_RETRY_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.serial(() => this.runUntil(this.clock.nowMs()))
        // A full store was logged once (storeFull) and is retried; anything else is logged, never an unhandled rejection.
        .catch((err) => void (fullStore(err) || this.log(`running due jobs failed: ${(err as Error)?.stack ?? err}`)))
        .finally(() => this.kick());
    }, wait);
    this.timer.unref();
  }
}
