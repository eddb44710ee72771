/**
 * Deleting sent emails, for the admin API's tidying (`DELETE
 * /_emulator/emails/{id}`, `DELETE /_emulator/emails?team_id=…`; the inbox
 * page's Delete and Clear): not an operation of the service, where a sent
 * email stays (docs/admin-api.md#deleting-emails, an emulator choice).
 *
 * An email goes with everything that is only about it, in one transaction:
 * its row and attachments, its pending clock jobs (`emails.send`,
 * `emails.deliver`, `emails.complain`: a job of many emails skips an email
 * that is gone), and the webhook deliveries of its `email.*` events with
 * their attempts and pending attempt jobs. Its recipients still count
 * toward the team's usage: the usage ledger keeps what was sent (a quota
 * counts sends, not stored rows; docs/admin-api.md#deleting-emails). What refers to it
 * elsewhere reads it as gone: a broadcast's counts leave it out, an inbox
 * draft that became it shows no body.
 */
import type { Emulator } from '../../context.js';
import { forgetDeliveriesOfEmails } from '../../deliveries/jobs.js';
import { emailComplainJob, emailDeliverJob, emailSendJob } from './jobs.js';
import { deleteEmailRows, notifyEmail, teamEmailIds } from './store.js';

/**
 * Deletes sent emails (`ids`; ids of no email are left out) with their jobs
 * and webhook deliveries, in one transaction; emits `email` on the bus for
 * each (the inbox page drops it). Returns the ids deleted.
 */
export function deleteEmails(ctx: Emulator, ids: readonly string[]): string[] {
  return ctx.db.transaction(() => {
    const gone = deleteEmailRows(ctx, ids);
    if (gone.length === 0) return gone;
    emailSendJob.cancel(ctx, 'email_id', gone);
    emailDeliverJob.cancel(ctx, 'email_id', gone);
    emailComplainJob.cancel(ctx, 'email_id', gone);
    forgetDeliveriesOfEmails(ctx, gone);
    for (const id of gone) notifyEmail(ctx, id);
    return gone;
  })();
}

/** Deletes every sent email of a team (as `deleteEmails`, one transaction); returns how many. */
export function clearTeamEmails(ctx: Emulator, teamId: string): number {
  return deleteEmails(ctx, teamEmailIds(ctx, teamId)).length;
}
