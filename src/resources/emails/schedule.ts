/**
 * A scheduled email's schedule (docs/reference/resources.md#emails): only a `scheduled` email
 * can be moved (`PATCH /emails/{id}` `scheduled_at`) or canceled
 * (`scheduled` → `canceled`, final); either is 422 otherwise, naming the
 * email's status.
 */
import type { Emulator } from '../../context.js';
import { DELAYS } from '../../clock/delays.js';
import { parseScheduledAt } from './send.js';
import { cancelSend, emailSendJob } from './jobs.js';
import { emailMessages } from './messages.js';
import { notifyEmail, recordStep, setScheduledAt, type EmailRow } from './store.js';

/**
 * Moves a `scheduled` email to `scheduledAt` (what `parseScheduledAt`
 * takes: an ISO time or natural language): its send job is replaced by one
 * due then (now, when it is past). Throws 422 for another status or a bad time.
 */
export function reschedule(ctx: Emulator, row: EmailRow, scheduledAt: string): void {
  if (row.last_event !== 'scheduled') throw emailMessages.notScheduled(row.id, row.last_event, 'updated');
  const now = ctx.clock.nowMs();
  const at = parseScheduledAt(scheduledAt, now, DELAYS.emailScheduleLimit);
  ctx.db.transaction(() => {
    cancelSend(ctx, row.id);
    setScheduledAt(ctx, row.id, at);
    emailSendJob.schedule(ctx, { email_id: row.id }, { dueAt: Math.max(at, now), teamId: row.team_id });
  })();
  notifyEmail(ctx, row.id);
}

/** Cancels a `scheduled` email (its send step dropped, `cancelSend`; `canceled` recorded). Throws 422 for another status. */
export function cancelScheduled(ctx: Emulator, row: EmailRow): void {
  if (row.last_event !== 'scheduled') throw emailMessages.notScheduled(row.id, row.last_event, 'canceled');
  ctx.db.transaction(() => {
    cancelSend(ctx, row.id);
    recordStep(ctx, row, 'canceled');
  })();
}
