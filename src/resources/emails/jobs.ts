/**
 * The jobs of sent emails: their lifecycle on the clock (DESIGN.md "Behaviour:
 * Clock"; API-FACTS §5.1 `last_event`, §6 payloads, §7 test addresses).
 * Delays are in `src/clock/delays.ts`.
 *
 * | job | due | does |
 * |---|---|---|
 * | `emails.send` | created + `emailSend` (1 s), or `scheduled_at` | recipients on the team's suppression list, and `suppressed@resend.dev`, are `suppressed` (`email.suppressed`, no `email.sent` when every recipient is); `topic_id` with every `to` opted out → `failed`; else `sent` (`email.sent`) |
 * | `emails.deliver` | sent + `emailDelivery` (2 s) | any `bounced@resend.dev` (+label) recipient → `bounced` (`email.bounced`, Permanent/General, 550 5.1.1) and the address joins the suppression list (origin `bounce`, `suppression.added`); else `delivered` (`email.delivered`) |
 * | `emails.complain` | delivered + `emailComplaint` (2 s) | `complained@resend.dev` (+label) → `complained` (`email.complained`), suppression origin `complaint` |
 * Several recipients: the email's `last_event` follows the worst outcome
 * (suppressed for all > bounced > complained > delivered); partly
 * suppressed emails raise `email.suppressed` and go on for the others.
 */
import type { Emulator } from '../../context.js';
import { defineJob } from '../../clock/jobs.js';
import { DELAYS } from '../../clock/delays.js';
import { findContact, topicSubscription } from '../contacts/service.js';
import { addSuppression, findSuppression } from '../suppressions/service.js';
import { bareAddress, testOutcome } from './addresses.js';
import { eventsOf, list, loadEmail, recordStep, type EmailRow } from './store.js';

/** `emails.send`: queued or scheduled → sent, suppressed or failed (`runSend`). */
export const emailSendJob = defineJob('emails.send', (ctx, job) => runSend(ctx, job.payload.email_id));
/** `emails.deliver`: sent → delivered or bounced (`runDeliver`). */
export const emailDeliverJob = defineJob('emails.deliver', (ctx, job) => runDeliver(ctx, job.payload.email_id));
/** `emails.complain`: delivered → complained (`runComplain`). */
export const emailComplainJob = defineJob('emails.complain', (ctx, job) => runComplain(ctx, job.payload.email_id));

/** Every recipient (to, cc, bcc), bare and lower-cased, without repeats. */
export function recipientsOf(row: EmailRow): string[] {
  return [...new Set([...list(row.to_addrs), ...list(row.cc), ...list(row.bcc)].map(bareAddress))];
}

/** Recipients the `emails.send` job found suppressed (stored with the `suppressed` event). */
function suppressedAtSend(ctx: Emulator, row: EmailRow): Set<string> {
  const ev = eventsOf(ctx, row.id).find((e) => e.type === 'suppressed');
  return new Set(ev?.data ? (JSON.parse(ev.data).addresses as string[]) : []);
}

/** The recipients' subscription to the email's topic: addresses (bare) whose subscription is `opt_out`. */
function optedOutOfTopic(ctx: Emulator, row: EmailRow, addresses: string[]): string[] {
  if (!row.topic_id) return [];
  return addresses.filter((a) => {
    const contact = findContact(ctx, row.team_id, a);
    return topicSubscription(ctx, row.team_id, contact?.id ?? '', row.topic_id!) === 'opt_out';
  });
}

/** The `emails.send` job: see the table above. */
export function runSend(ctx: Emulator, emailId: string): void {
  const row = loadEmail(ctx, emailId);
  if (!row || !['queued', 'scheduled'].includes(row.last_event)) return;
  ctx.db.transaction(() => {
    const recipients = recipientsOf(row);
    if (row.topic_id) {
      const to = list(row.to_addrs).map(bareAddress);
      const out = optedOutOfTopic(ctx, row, to);
      if (to.length && out.length === to.length) {
        recordStep(ctx, row, 'failed', { extra: { failed: { reason: 'unsubscribed_from_topic' } } });
        return;
      }
    }
    const suppressed: { address: string; reason: 'previous_bounce' | 'previous_complaint'; type: string }[] = [];
    for (const a of recipients) {
      if (testOutcome(a) === 'suppressed') {
        suppressed.push({ address: a, reason: 'previous_bounce', type: 'Suppressed' });
        continue;
      }
      const s = findSuppression(ctx, row.team_id, a);
      if (s) suppressed.push({ address: a, reason: s.origin === 'complaint' ? 'previous_complaint' : 'previous_bounce', type: 'OnAccountSuppressionList' });
    }
    if (suppressed.length) {
      const first = suppressed[0];
      const all = suppressed.length === recipients.length;
      recordStep(ctx, row, 'suppressed', {
        keepLastEvent: !all,
        eventData: { addresses: suppressed.map((s) => s.address) },
        extra: {
          suppressed: {
            message: first.reason === 'previous_complaint'
              ? 'This email address is on the suppression list because it has a recent history of producing complaints.'
              : 'This email address is on the suppression list because it has a recent history of bouncing.',
            type: first.type,
            reason: first.reason,
            diagnosticCode: [],
          },
        },
      });
      if (all) return;
    }
    recordStep(ctx, row, 'sent');
    emailDeliverJob.schedule(ctx, { email_id: row.id }, { dueAt: ctx.clock.nowMs() + DELAYS.emailDelivery, teamId: row.team_id });
  })();
}

/** The `emails.deliver` job: see the table above. */
export function runDeliver(ctx: Emulator, emailId: string): void {
  const row = loadEmail(ctx, emailId);
  if (!row || eventsOf(ctx, row.id).some((e) => e.type === 'delivered' || e.type === 'bounced')) return;
  ctx.db.transaction(() => {
    const skip = suppressedAtSend(ctx, row);
    const remaining = recipientsOf(row).filter((a) => !skip.has(a));
    const bounced = remaining.filter((a) => testOutcome(a) === 'bounced');
    if (bounced.length) {
      recordStep(ctx, row, 'bounced', {
        eventData: { addresses: bounced },
        extra: {
          bounce: {
            message: `The recipient's mail server permanently rejected the email: 550 5.1.1 <${bounced[0]}>: Recipient address rejected: User unknown.`,
            subType: 'General',
            type: 'Permanent',
            diagnosticCode: [`smtp; 550 5.1.1 <${bounced[0]}>: Recipient address rejected: User unknown`],
          },
        },
      });
      for (const a of bounced) addSuppression(ctx, row.team_id, a, 'bounce', row.id);
      return;
    }
    recordStep(ctx, row, 'delivered');
    if (remaining.some((a) => testOutcome(a) === 'complained')) {
      emailComplainJob.schedule(ctx, { email_id: row.id }, { dueAt: ctx.clock.nowMs() + DELAYS.emailComplaint, teamId: row.team_id });
    }
  })();
}

/** The `emails.complain` job: see the table above. */
export function runComplain(ctx: Emulator, emailId: string): void {
  const row = loadEmail(ctx, emailId);
  if (!row) return;
  ctx.db.transaction(() => {
    const complained = recipientsOf(row).filter((a) => testOutcome(a) === 'complained');
    recordStep(ctx, row, 'complained', { eventData: { addresses: complained } });
    for (const a of complained) addSuppression(ctx, row.team_id, a, 'complaint', row.id);
  })();
}
