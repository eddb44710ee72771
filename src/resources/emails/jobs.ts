/**
 * The jobs of sent emails: their lifecycle on the clock (docs/reference/design.md#clock;
 * docs/reference/resources.md#emails `last_event`; docs/reference/webhooks.md#envelope-and-data payloads;
 * docs/reference/test-addresses.md).
 * Delays are in `src/clock/delays.ts`.
 *
 * | job | due | does |
 * |---|---|---|
 * | `emails.send` | created + `emailSend` (1 s), or `scheduled_at` | recipients on the team's suppression list, and `suppressed@resend.dev`, are `suppressed` (`email.suppressed`, no `email.sent` when every recipient is); `topic_id` with every `to` opted out → `failed`; else `sent` (`email.sent`) |
 * | `emails.deliver` | sent + `emailDelivery` (2 s) | any `bounced@resend.dev` (+label) recipient → `bounced` (`email.bounced`, Permanent/General, 550 5.1.1) and the address joins the suppression list (origin `bounce`, `suppression.added`); else `delivered` (`email.delivered`) |
 * | `emails.complain` | delivered + `emailComplaint` (2 s) | `complained@resend.dev` (+label) → `complained` (`email.complained`), suppression origin `complaint` |
 * | `emails.send-many`, `emails.deliver-many` | as `emails.send`, `emails.deliver` | the same step for each of many emails queued together (a broadcast's batch), in order |
 * Every one runs its step through `runLifecycle` (lifecycle.ts): a single
 * email is a batch of one, and an email that fails leaves the same record
 * (a `failed` job row of its step, with its payload, and the same log line)
 * whichever job it ran in.
 * Outcome fault rules (src/faults/, docs/faults.md) are decided by
 * `emails.send` for the recipients not suppressed: `failed` ends the email
 * there (`email.failed`, `failed.reason` of the rule) instead of `sent`;
 * `bounced` and `delivery_delayed` ride on the `emails.deliver` job's
 * payload (`DeliverPayload`): the rule's addresses bounce (and join the
 * suppression list), or the email ends `delivery_delayed`
 * (`email.delivery_delayed`, no `delivered`).
 * Several recipients: the email's `last_event` follows the worst outcome
 * (suppressed for all > bounced > complained > delivered); partly
 * suppressed emails raise `email.suppressed` and go on for the others.
 */
import type { Emulator } from '../../context.js';
import type { Job } from '../../clock/scheduler.js';
import { defineJob } from '../../clock/jobs.js';
import { DELAYS } from '../../clock/delays.js';
import { complainStep, deliverStep, runLifecycle, sendStep, type DeliverPayload, type NextSteps } from './lifecycle.js';
import { recordStep, type EmailRow } from './store.js';

export type { DeliverPayload } from './lifecycle.js';

/** `emails.send`: queued or scheduled → sent, suppressed or failed (`sendStep`); a batch of one, whose failure is the job's own. */
export const emailSendJob = defineJob('emails.send', (ctx, job) => {
  scheduleNext(ctx, runLifecycle(ctx, sendStep, [job.payload], rethrow), job);
});
/** `emails.deliver`: sent → delivered, bounced or delivery_delayed (`deliverStep`). */
export const emailDeliverJob = defineJob('emails.deliver', (ctx, job) => {
  scheduleNext(ctx, runLifecycle(ctx, deliverStep, [job.payload], rethrow), job);
});
/** `emails.complain`: delivered → complained (`complainStep`). */
export const emailComplainJob = defineJob('emails.complain', (ctx, job) => {
  runLifecycle(ctx, complainStep, [job.payload], rethrow);
});
/**
 * `emails.send-many`: the `emails.send` step of many emails queued at the
 * same emulated time (a broadcast's batch, `SendBatch` in send.ts), in their
 * order: one job row written, found and deleted for the batch instead of one
 * per email. The ones sent get one `emails.deliver-many` job, due when each
 * one's `emails.deliver` would be. An email that fails is recorded as its own
 * `emails.send` job would be (`JobDefinition.fail`). `cancelSend` takes an
 * email out of the batch.
 */
export const emailSendManyJob = defineJob('emails.send-many', (ctx, job) => {
  const items = job.payload.email_ids.map((email_id) => ({ email_id }));
  scheduleNext(ctx, runLifecycle(ctx, sendStep, items, (item, err) => emailSendJob.fail(ctx, item, err, { dueAt: job.due_at, teamId: job.team_id })), job);
});
/**
 * `emails.deliver-many`: the `emails.deliver` step of many emails sent
 * together (`emails.send-many`), each with its own payload; one that fails
 * is recorded as its own `emails.deliver` job would be.
 */
export const emailDeliverManyJob = defineJob('emails.deliver-many', (ctx, job) => {
  scheduleNext(ctx, runLifecycle(ctx, deliverStep, job.payload.emails, (item, err) => emailDeliverJob.fail(ctx, item, err, { dueAt: job.due_at, teamId: job.team_id })), job);
});

/** A job of one email: its email's failure is the job's own (the scheduler rolls it back and records it). */
function rethrow(_item: unknown, err: unknown): never {
  throw err;
}

/**
 * Schedules what a run asks for next (`NextSteps`): the `emails.deliver`
 * steps after `DELAYS.emailDelivery`, as one `emails.deliver-many` job when
 * `job` was a batch, and each `emails.complain` after `DELAYS.emailComplaint`.
 */
function scheduleNext(ctx: Emulator, next: NextSteps, job: Job): void {
  const now = ctx.clock.nowMs();
  if (next.deliver.length === 1 && job.type !== 'emails.send-many') {
    emailDeliverJob.schedule(ctx, next.deliver[0], { dueAt: now + DELAYS.emailDelivery, teamId: job.team_id });
  } else if (next.deliver.length) {
    emailDeliverManyJob.schedule(ctx, { emails: next.deliver }, { dueAt: now + DELAYS.emailDelivery, teamId: job.team_id });
  }
  for (const c of next.complain) emailComplainJob.schedule(ctx, { email_id: c.email_id }, { dueAt: now + DELAYS.emailComplaint, teamId: c.team_id });
}

/**
 * Cancels the `emails.send` step of an email that has not run yet, whether
 * it waits in a job of its own (`emails.send`) or in a batch
 * (`emails.send-many`, which then runs without it; a batch left empty is
 * dropped). Returns how many jobs it changed. Synchronous: call inside the
 * transaction of the change.
 */
export function cancelSend(ctx: Emulator, emailId: string): number {
  return emailSendJob.cancel(ctx, 'email_id', emailId) + emailSendManyJob.cancel(ctx, 'email_ids', emailId);
}

/** `last_event`s from which the admin API may raise `failed`: the email has not reached the recipient's server yet. */
export const FAILABLE = ['queued', 'scheduled', 'sent', 'delivery_delayed'];

/**
 * Simulates a delivery problem (admin API, `POST /_emulator/emails/{id}/events`):
 * - `delivery_delayed`: records it, sets `last_event`, raises
 *   `email.delivery_delayed` (data: the outbound email data, docs/reference/webhooks.md#envelope-and-data);
 *   a pending `emails.deliver` job still delivers (or bounces) it later,
 *   as the service does once the receiving server accepts;
 * - `failed`: records it, sets `last_event`, raises `email.failed` with
 *   `failed: {reason}` (docs/reference/webhooks.md#envelope-and-data, e.g. `reached_daily_quota`); a
 *   pending `emails.send` step is cancelled (`cancelSend`: its own job or its
 *   place in a batch) and `emails.deliver` skips it.
 * The caller checks that the email may take the event.
 */
export function simulateDeliveryProblem(ctx: Emulator, row: EmailRow, type: 'delivery_delayed' | 'failed', reason: string | null): void {
  ctx.db.transaction(() => {
    if (type === 'delivery_delayed') {
      recordStep(ctx, row, 'delivery_delayed');
      return;
    }
    cancelSend(ctx, row.id);
    recordStep(ctx, row, 'failed', { eventData: { reason }, extra: { failed: { reason } } });
  })();
}
