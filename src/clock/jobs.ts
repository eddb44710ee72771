/**
 * Typed jobs. A job is declared once, beside its resource
 * (`src/resources/<name>/jobs.ts`), with `defineJob(type, run)`; the type
 * and its payload come from the one list in `src/clock/job-types.ts`. The
 * definition schedules and cancels its own jobs, so no caller spells a job
 * type or guesses a payload:
 *
 * ```ts
 * export const emailSendJob = defineJob('emails.send', (ctx, job) => { scheduleNext(ctx, runLifecycle(ctx, sendStep, [job.payload], rethrow), job); });
 * emailSendJob.schedule(ctx, { email_id }, { dueAt, teamId });  // payload checked by the compiler
 * emailSendJob.cancel(ctx, 'email_id', id);
 * ```
 *
 * Modules list their definitions in `ResourceModule.jobs`; `registerJobs`
 * hands them all to the scheduler at start-up and refuses an unknown type
 * there (not when the job falls due).
 */
import type { Emulator } from '../context.js';
import type { Job, Scheduler } from './scheduler.js';
import { JOB_TYPES, type JobPayloads, type JobType } from './job-types.js';

/** When a job falls due (emulated ms; default now, a past time runs at the next advance) and the team it works for. */
export interface ScheduleOptions {
  dueAt?: number;
  teamId?: string | null;
}

/** The payload fields of job type `T` that hold a string or a list of strings: the keys `cancel` can match on. */
export type CancelKey<T extends JobType> = {
  [K in keyof JobPayloads[T]]-?: JobPayloads[T][K] extends string | readonly string[] ? K : never;
}[keyof JobPayloads[T]] & string;

/** One job type: what it does when due, and how to schedule and cancel it. */
export interface JobDefinition<T extends JobType> {
  readonly type: T;
  /**
   * With the real clock, a due job of this type is started and not awaited
   * (it waits on the network: a webhook endpoint that takes its full
   * timeout must not hold up other jobs); with the manual clock it is
   * awaited like every job, so an advance stays deterministic.
   */
  readonly detachInRealMode: boolean;
  /**
   * The job awaits I/O (file reads, the network): it runs outside a
   * transaction, is marked `running` meanwhile, ends itself with
   * `ctx.scheduler.complete(job.id)` inside its last transaction, and runs
   * again after a crash (`Scheduler.recover()`), so it must be safe to run
   * again (src/clock/scheduler.ts "Crash safety": a stop in the middle repeats nothing).
   * Implied by `detachInRealMode`. Every other job is synchronous: its work
   * and its end commit together.
   */
  readonly async: boolean;
  /** Runs a due job. Throwing marks it failed (logged); the other jobs go on. */
  run(ctx: Emulator, job: Job<JobPayloads[T]>): void | Promise<void>;
  /**
   * Stores a job of this type and returns its id. Synchronous: call it in
   * the transaction of the change that causes it.
   */
  schedule(ctx: Emulator, payload: JobPayloads[T], opts?: ScheduleOptions): number;
  /**
   * Cancels `value` (or any of the values of an array) in the pending jobs
   * of this type: a job whose payload field `key` equals it is deleted; a
   * job whose field `key` is a list holding it runs without it (a job whose
   * list is left empty is deleted). Returns how many jobs changed.
   */
  cancel(ctx: Emulator, key: CancelKey<T>, value: string | readonly string[]): number;
  /**
   * Records a job of this type as failed with `err` when its work ran as a
   * step of another job (`Scheduler.recordFailed`): the same `failed` row
   * and log line as a job of its own that threw. Returns the row's id.
   */
  fail(ctx: Emulator, payload: JobPayloads[T], err: unknown, opts?: ScheduleOptions): number;
}

/** A definition of any job type (what `ResourceModule.jobs` lists). */
export type AnyJobDefinition = { [T in JobType]: JobDefinition<T> }[JobType];

/**
 * Declares job type `type` (a key of `JobPayloads`) with its handler.
 * `opts.detachInRealMode`: see `JobDefinition.detachInRealMode`.
 */
export function defineJob<T extends JobType>(
  type: T,
  run: (ctx: Emulator, job: Job<JobPayloads[T]>) => void | Promise<void>,
  opts: { detachInRealMode?: boolean; async?: boolean } = {},
): JobDefinition<T> {
  return {
    type,
    detachInRealMode: opts.detachInRealMode ?? false,
    async: (opts.async ?? false) || (opts.detachInRealMode ?? false),
    run,
    schedule: (ctx, payload, scheduleOpts) => ctx.scheduler.schedule(type, payload, scheduleOpts),
    cancel: (ctx, key, value) => ctx.scheduler.cancelWhere(type, key, value),
    fail: (ctx, payload, err, failOpts) => ctx.scheduler.recordFailed(type, payload, err, failOpts),
  };
}

/**
 * Registers every definition with the scheduler: the start-up check.
 * Throws an Error naming the type when a type is defined twice, a type of
 * `JOB_TYPES` (src/clock/job-types.ts) has no definition, a definition's
 * type is not in that list, or the store (a `--db` file) holds pending jobs
 * of a type no definition runs.
 */
export function registerJobs(ctx: Emulator, defs: readonly AnyJobDefinition[], known: readonly string[] = JOB_TYPES): void {
  const listed = new Set(known);
  for (const def of defs) {
    if (!listed.has(def.type)) throw new Error(`job type ${def.type} is defined but not listed in src/clock/job-types.ts`);
    ctx.scheduler.register(def.type, (job) => (def.run as (ctx: Emulator, job: Job) => void | Promise<void>)(ctx, job), { detachInRealMode: def.detachInRealMode, async: def.async });
  }
  const defined = new Set(defs.map((d) => d.type as string));
  const missing = known.filter((t) => !defined.has(t));
  if (missing.length) throw new Error(`job types listed in src/clock/job-types.ts without a definition (defineJob): ${missing.join(', ')}`);
  assertKnownPending(ctx.scheduler);
}

/**
 * Throws an Error when the store holds pending jobs of a type the scheduler
 * has no handler for (e.g. a `--db` file written by another version, or a
 * snapshot), naming the types and how many of each.
 */
function assertKnownPending(scheduler: Scheduler): void {
  const unknown = scheduler.unknownPendingTypes();
  if (unknown.length) {
    throw new Error(`the store holds pending jobs of unknown type: ${unknown.map((u) => `${u.type} (${u.count})`).join(', ')}; known types are listed in src/clock/job-types.ts`);
  }
}
