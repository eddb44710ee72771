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
import { defineJob } from '../../clock/jobs.js';
import type { JobPayloads } from '../../clock/job-types.js';
import { DELAYS } from '../../clock/delays.js';
import { findContact, topicSubscription } from '../contacts/service.js';
import { addSuppression, findSuppression } from '../suppressions/service.js';
import { fullStore } from '../../store/full.js';
import { withSubscriptionsKept } from '../../deliveries/emit.js';
import { bareAddress, testOutcome } from './addresses.js';
import { eventsOfRow, list, loadEmailHead, loadEmailSteps, recordStep, type EmailEvent, type EmailStepRow, type EmailRow } from './store.js';

/** `emails.send`: queued or scheduled → sent, suppressed or failed (`runSend`). */
export const emailSendJob = defineJob('emails.send', (ctx, job) => {
  const sent = runSend(ctx, job.payload.email_id);
  if (sent) emailDeliverJob.schedule(ctx, sent.deliver, { dueAt: ctx.clock.nowMs() + DELAYS.emailDelivery, teamId: sent.teamId });
});
/** `emails.deliver`: sent → delivered or bounced (`runDeliver`). */
export const emailDeliverJob = defineJob('emails.deliver', (ctx, job) =>
  runDeliver(ctx, job.payload.email_id, { outcome: job.payload.outcome, addresses: job.payload.addresses }),
);
/**
 * `emails.send-many`: the `emails.send` step of many emails queued at the
 * same emulated time (a broadcast's batch, `SendBatch` in send.ts), in their
 * order; the ones sent get one `emails.deliver-many` job, due when each
 * one's `emails.deliver` would be. One job instead of one per email: the
 * scheduler's bookkeeping (a job row written, found, deleted) was about a
 * quarter of a broadcast's store time. An email that fails is rolled back
 * alone and recorded as its own `emails.send` job would be: a `failed` job
 * row with its payload and error, and the same log line (`eachEmail`).
 */
export const emailSendManyJob = defineJob('emails.send-many', (ctx, job) => {
  const ids = job.payload.email_ids;
  let deliveries: DeliverPayload[] = [];
  // Each row read once for the batch: a step changes only its own email's row.
  let heads = loadEmailSteps(ctx, ids);
  // The outcome fault decided for each email, kept for a second pass (`eachEmail`): a rule's count and random
  // draws are taken once an email, as with a job each.
  const faults = new Map<string, OutcomeFault | null>();
  const decide: FaultDecision = (row, recipients) => {
    if (!faults.has(row.id)) faults.set(row.id, ctx.faults.forEmail(row.team_id, recipients));
    return faults.get(row.id)!;
  };
  eachEmail(ctx, ids, (id) => {
    const sent = runSend(ctx, id, heads.get(id) ?? null, decide);
    if (sent) deliveries.push(sent.deliver);
  }, () => {
    deliveries = [];
    heads = loadEmailSteps(ctx, ids);
  }, (id, err) => emailSendJob.fail(ctx, { email_id: id }, err, { dueAt: job.due_at, teamId: job.team_id }));
  if (deliveries.length) emailDeliverManyJob.schedule(ctx, { emails: deliveries }, { dueAt: ctx.clock.nowMs() + DELAYS.emailDelivery, teamId: job.team_id });
});
/**
 * `emails.deliver-many`: the `emails.deliver` step of many emails sent
 * together (`emails.send-many`), each with its own payload; one that fails
 * is recorded as its own `emails.deliver` job would be (`eachEmail`).
 */
export const emailDeliverManyJob = defineJob('emails.deliver-many', (ctx, job) => {
  const byId = new Map(job.payload.emails.map((e) => [e.email_id, e]));
  const ids = [...byId.keys()];
  let heads = loadEmailSteps(ctx, ids);
  eachEmail(ctx, ids, (id) => {
    const e = byId.get(id)!;
    runDeliver(ctx, id, { outcome: e.outcome, addresses: e.addresses }, heads.get(id) ?? null);
  }, () => {
    heads = loadEmailSteps(ctx, ids);
  }, (id, err) => emailDeliverJob.fail(ctx, byId.get(id)!, err, { dueAt: job.due_at, teamId: job.team_id }));
});

/**
 * Runs `step` for each email of a many-emails job, as if each ran in its
 * own savepoint: an email whose step throws is rolled back alone and handed
 * to `failed` (which records it as the failed job of its own step: the same
 * row and log line as a single email's), the others go on. First every email runs in one
 * savepoint (a savepoint an email is a measurable share of a broadcast's
 * CPU, docs/benchmarks.md#figures-behind-the-code, and a step rarely
 * throws); when one throws, that pass is rolled back whole, `again`
 * resets what the steps read (the rows, which a step updates in memory too),
 * and every email runs again in a savepoint of its own. A step's outcome
 * fault is decided once (`FaultDecision` in `emails.send-many`), so the
 * second pass does not draw on a rule again. A full store (`fullStore`) is
 * the machine's fault: it is rethrown, so the whole job is rolled back and
 * stays pending (the scheduler's rule).
 */
function eachEmail(ctx: Emulator, ids: readonly string[], step: (id: string) => void, again: () => void, failed: (id: string, err: unknown) => void): void {
  // A step changes no webhook: the team's subscriptions are read once for the batch.
  withSubscriptionsKept(ctx, () => {
    try {
      ctx.db.transaction(() => {
        for (const id of ids) step(id);
      })();
      return;
    } catch (err) {
      if (fullStore(err)) throw err;
    }
    again();
    const one = ctx.db.transaction(step);
    for (const id of ids) {
      try {
        one(id);
      } catch (err) {
        if (fullStore(err)) throw err;
        failed(id, err);
      }
    }
  });
}
/** `emails.complain`: delivered → complained (`runComplain`). */
export const emailComplainJob = defineJob('emails.complain', (ctx, job) => runComplain(ctx, job.payload.email_id));

/** Every recipient (to, cc, bcc), bare and lower-cased, without repeats. */
function recipientsOf(row: EmailStepRow): string[] {
  return [...new Set([...list(row.to_addrs), ...list(row.cc), ...list(row.bcc)].map(bareAddress))];
}

/** Recipients the `emails.send` job found suppressed (stored with the `suppressed` event). */
function suppressedAtSend(events: readonly EmailEvent[]): Set<string> {
  const ev = events.find((e) => e.type === 'suppressed');
  return new Set((ev?.data?.addresses as string[] | undefined) ?? []);
}

/** The recipients' subscription to the email's topic: addresses (bare) whose subscription is `opt_out`. */
function optedOutOfTopic(ctx: Emulator, row: EmailStepRow, addresses: string[]): string[] {
  if (!row.topic_id) return [];
  return addresses.filter((a) => {
    const contact = findContact(ctx, row.team_id, a);
    return topicSubscription(ctx, row.team_id, contact?.id ?? '', row.topic_id!) === 'opt_out';
  });
}

/**
 * The `emails.send` step of one email: see the table above. `head`: its row
 * already read by the caller (`loadEmailSteps`; null when absent), else it is
 * read here. Returns the payload of its `emails.deliver` step when it was
 * sent (the caller schedules it), else null.
 */
function runSend(ctx: Emulator, emailId: string, head?: EmailStepRow | null, decide?: FaultDecision): { deliver: DeliverPayload; teamId: string } | null {
  const row = head === undefined ? loadEmailHead(ctx, emailId) : head;
  if (!row || !['queued', 'scheduled'].includes(row.last_event)) return null;
  // The scheduler runs a job in a transaction (with its end): no transaction of its own here.
  const recipients = recipientsOf(row);
  if (row.topic_id) {
    const to = list(row.to_addrs).map(bareAddress);
    const out = optedOutOfTopic(ctx, row, to);
    if (to.length && out.length === to.length) {
      recordStep(ctx, row, 'failed', { extra: { failed: { reason: 'unsubscribed_from_topic' } } });
      return null;
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
          message: SUPPRESSED_MESSAGES[first.type],
          type: first.type,
          reason: first.reason,
          diagnosticCode: [],
        },
      },
    });
    if (all) return null;
  }
  // Outcome fault rules (src/faults/): decided here, as the email leaves the queue.
  const skip = new Set(suppressed.map((x) => x.address));
  const remaining = recipients.filter((a) => !skip.has(a));
  const fault = decide ? decide(row, remaining) : ctx.faults.forEmail(row.team_id, remaining);
  if (fault?.outcome === 'failed') {
    recordStep(ctx, row, 'failed', { eventData: { reason: fault.reason, fault_id: fault.ruleId }, extra: { failed: { reason: fault.reason } } });
    return null;
  }
  recordStep(ctx, row, 'sent');
  return { deliver: fault ? { email_id: row.id, outcome: fault.outcome, addresses: fault.addresses } : { email_id: row.id }, teamId: row.team_id };
}

/** An outcome fault rule's choice for an email (`ctx.faults.forEmail`), or null. */
type OutcomeFault = ReturnType<Emulator['faults']['forEmail']>;

/** Decides an email's outcome fault for its recipients not suppressed (`ctx.faults.forEmail`, or a kept decision). */
type FaultDecision = (row: EmailStepRow, recipients: string[]) => OutcomeFault | null;

/** Payload of an `emails.deliver` job: the email, and the outcome an outcome fault rule chose for some of its recipients. */
export type DeliverPayload = JobPayloads['emails.deliver'];

/**
 * The service's words in `email.suppressed`'s `suppressed.message`, by
 * `suppressed.type`. `reason` and `diagnosticCode` beside them are ours.
 */
const SUPPRESSED_MESSAGES: Record<string, string> = {
  // D:webhooks/emails/suppressed (its example payload; the same text in the resend Rust SDK's `email_suppressed` test fixture).
  OnAccountSuppressionList: 'Resend has suppressed sending to this address because it is on the account-level suppression list. This does not count toward your bounce rate metric',
  // D:webhooks/emails/bounced (its example payload, `subType: "Suppressed"`): the `suppressed@resend.dev` test address.
  Suppressed: "The recipient's email address is on the suppression list because it has a recent history of producing hard bounces.",
};

/**
 * The `bounce` data of a hard bounce of `address` (docs/reference/webhooks.md#envelope-and-data: Permanent/General, SMTP 550 5.1.1).
 * `message` is the service's text for Permanent/General, as recorded in a
 * payload from the service (the `email.bounced` fixture of django-anymail's
 * tests/test_resend_webhooks.py; the same text answered by GET /emails/{id}
 * for a real hard bounce). `diagnosticCode` is ours (the service passes the
 * receiving server's reply through, which the emulator has none of).
 */
function hardBounce(address: string) {
  return {
    message: "The recipient's email provider sent a hard bounce message, but didn't specify the reason for the hard bounce. We recommend removing the recipient's email address from your mailing list. Sending messages to addresses that produce hard bounces can have a negative impact on your reputation as a sender.",
    subType: 'General',
    type: 'Permanent',
    diagnosticCode: [`smtp; 550 5.1.1 <${address}>: Recipient address rejected: User unknown`],
  };
}

/**
 * The `emails.deliver` job: see the table above (`head`: as for `runSend`). `fault`: the outcome an
 * outcome fault rule chose (`emails.send` job): `bounced` bounces its
 * addresses as `bounced@resend.dev` would; `delivery_delayed` ends the email
 * `delivery_delayed` (`email.delivery_delayed`) unless one bounces.
 */
function runDeliver(ctx: Emulator, emailId: string, fault: Omit<DeliverPayload, 'email_id'> = {}, head?: EmailStepRow | null): void {
  const row = head === undefined ? loadEmailHead(ctx, emailId) : head;
  // `failed` (an admin event) or `canceled` end the email; a second deliver job finds it delivered or bounced.
  if (!row || row.last_event === 'failed' || row.last_event === 'canceled') return;
  const events = eventsOfRow(row);
  if (events.some((e) => e.type === 'delivered' || e.type === 'bounced')) return;
  const skip = suppressedAtSend(events);
  const remaining = recipientsOf(row).filter((a) => !skip.has(a));
  const faulted = new Set(fault.addresses ?? []);
  const bounced = remaining.filter((a) => testOutcome(a) === 'bounced' || (fault.outcome === 'bounced' && faulted.has(a)));
  if (bounced.length) {
    recordStep(ctx, row, 'bounced', { eventData: { addresses: bounced }, extra: { bounce: hardBounce(bounced[0]) } });
    for (const a of bounced) addSuppression(ctx, row.team_id, a, 'bounce', row.id);
    return;
  }
  if (fault.outcome === 'delivery_delayed') {
    recordStep(ctx, row, 'delivery_delayed', { eventData: { addresses: remaining.filter((a) => faulted.has(a)) } });
    return;
  }
  recordStep(ctx, row, 'delivered');
  if (remaining.some((a) => testOutcome(a) === 'complained')) {
    emailComplainJob.schedule(ctx, { email_id: row.id }, { dueAt: ctx.clock.nowMs() + DELAYS.emailComplaint, teamId: row.team_id });
  }
}

/** The `emails.complain` job: see the table above. */
function runComplain(ctx: Emulator, emailId: string): void {
  const row = loadEmailHead(ctx, emailId);
  if (!row) return;
  ctx.db.transaction(() => {
    const complained = recipientsOf(row).filter((a) => testOutcome(a) === 'complained');
    recordStep(ctx, row, 'complained', { eventData: { addresses: complained } });
    for (const a of complained) addSuppression(ctx, row.team_id, a, 'complaint', row.id);
  })();
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
 *   pending `emails.send` job is cancelled and `emails.deliver` skips it.
 * The caller checks that the email may take the event.
 */
export function simulateDeliveryProblem(ctx: Emulator, row: EmailRow, type: 'delivery_delayed' | 'failed', reason: string | null): void {
  ctx.db.transaction(() => {
    if (type === 'delivery_delayed') {
      recordStep(ctx, row, 'delivery_delayed');
      return;
    }
    emailSendJob.cancel(ctx, 'email_id', row.id);
    recordStep(ctx, row, 'failed', { eventData: { reason }, extra: { failed: { reason } } });
  })();
}
