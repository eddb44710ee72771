/**
 * One path for every step of a sent email's lifecycle, whether the email
 * runs as a job of its own (`emails.send`, `emails.deliver`,
 * `emails.complain`) or as one of a broadcast's batch (`emails.send-many`,
 * `emails.deliver-many`): a single email is a batch of one. The jobs are in
 * jobs.ts; the rules of each step are its table there.
 *
 * A step is split in two:
 * - its **plan** (`LifecycleStep.plan`): reads (the email's row and history,
 *   the team's suppressions and topic subscriptions, the outcome fault
 *   decided for it) and returns what the step will write (`StepPlan`: the
 *   history entries with their webhook events, the suppressions, the next
 *   step to schedule). It writes nothing, so a plan that throws leaves
 *   nothing to undo;
 * - its **application** (`applyPlan`): the writes of the plan, in a
 *   savepoint of the email's own, so an email whose writes fail (a
 *   constraint, a trigger) is rolled back alone. A plan of one statement
 *   (`oneStatement`: one history entry that no webhook listens to, no
 *   suppression) needs none: SQLite undoes a failing statement whole.
 *
 * `runLifecycle` plans and applies each email in order, in the running
 * job's transaction: an email whose plan or writes throw is handed to the
 * caller's `failed` with nothing of it written (a batch records it as the
 * failed job of its own step, `JobDefinition.fail`; a job of one rethrows,
 * which the scheduler records the same way), the others go on. Each email
 * is planned once, with no second pass, so its outcome fault is decided
 * once (`FaultDecision`) whatever else fails. A full store (`fullStore`) is
 * the machine's fault: it is rethrown, so the whole job is rolled back and
 * stays pending (src/clock/scheduler.ts).
 */
import type { Emulator } from '../../context.js';
import type { SchemaOf } from '../../http/document-types.js';
import type { JobPayloads } from '../../clock/job-types.js';
import { findContact, topicSubscription } from '../contacts/service.js';
import { addSuppression, findSuppression } from '../suppressions/service.js';
import { fullStore } from '../../store/full.js';
import { subscribers } from '../../deliveries/emit.js';
import { bareAddress, testOutcome } from './addresses.js';
import { eventsOfRow, list, loadEmailHead, loadEmailSteps, recordStep, type EmailEvent, type EmailStepRow } from './store.js';

/** Payload of an `emails.deliver` job: the email, and the outcome an outcome fault rule chose for some of its recipients. */
export type DeliverPayload = JobPayloads['emails.deliver'];

/** An outcome fault rule's choice for an email (`ctx.faults.forEmail`), or null. */
export type OutcomeFault = ReturnType<Emulator['faults']['forEmail']>;

/**
 * Decides an email's outcome fault for the given recipients (its bare
 * addresses not suppressed): `ctx.faults.forEmail`, which counts the rule's
 * firings and draws on its probability. The runner hands it to a step's
 * plan, which calls it at most once (a plan runs once per email).
 */
export type FaultDecision = (row: EmailStepRow, recipients: string[]) => OutcomeFault | null;

/** One entry of an email's history a plan records (`recordStep`): the event's type and its options (webhook `extra`, stored `eventData`, `keepLastEvent`). */
export interface StepRecord {
  type: SchemaOf<'LastEvent'>;
  opts?: { extra?: Record<string, unknown>; eventData?: Record<string, unknown>; keepLastEvent?: boolean };
}

/** What one step will write for one email (`applyPlan`). */
export interface StepPlan {
  /** History entries, in order: each one UPDATE of the row, its `email.<type>` webhook event and the bus's `email`. */
  records: StepRecord[];
  /** Addresses (bare) that join the team's suppression list, with the origin. */
  suppress: { address: string; origin: 'bounce' | 'complaint' }[];
  /** The `emails.deliver` step to schedule, when the email was sent. */
  deliver?: DeliverPayload;
  /** Whether to schedule an `emails.complain` step. */
  complain?: boolean;
}

/** A plan that writes nothing (the email is not in a state the step applies to). */
const NOTHING: StepPlan = Object.freeze({ records: [], suppress: [] }) as StepPlan;

/** An email as a step reads it: its row (without bodies) and its history, parsed once by the runner. */
export interface EmailState {
  row: EmailStepRow;
  history: readonly EmailEvent[];
}

/**
 * A lifecycle step: plans one email's step from its state and its job
 * payload (`item`). Reads only; the runner applies the plan.
 */
export interface LifecycleStep<I extends { email_id: string }> {
  plan(ctx: Emulator, email: EmailState, item: I, decide: FaultDecision): StepPlan;
}

/** What a run asks its job to schedule next: the `emails.deliver` steps of the emails sent, the emails to complain later. */
export interface NextSteps {
  deliver: DeliverPayload[];
  complain: { email_id: string; team_id: string }[];
}

/**
 * Plans and applies `step` for each email of `items`, in order (see the
 * file comment). `failed(item, err)`: told of an email whose plan or writes
 * threw (nothing of it written); a full store is rethrown instead.
 * Synchronous: call inside the job's transaction. Returns the next steps
 * of the emails that reached them.
 */
export function runLifecycle<I extends { email_id: string }>(
  ctx: Emulator,
  step: LifecycleStep<I>,
  items: readonly I[],
  failed: (item: I, err: unknown) => void,
): NextSteps {
  const next: NextSteps = { deliver: [], complain: [] };
  // One read for the batch (a batch of one reads its row alone).
  const rows = items.length === 1 ? oneRow(ctx, items[0].email_id) : loadEmailSteps(ctx, items.map((i) => i.email_id));
  const decide: FaultDecision = (row, recipients) => ctx.faults.forEmail(row.team_id, recipients);
  const apply = ctx.db.transaction(applyPlan);
  for (const item of items) {
    const row = rows.get(item.email_id);
    if (!row) continue;
    try {
      const plan = step.plan(ctx, { row, history: historyOf(row) }, item, decide);
      if (plan === NOTHING) continue;
      if (oneStatement(ctx, row, plan)) applyPlan(ctx, row, plan);
      else apply(ctx, row, plan);
      if (plan.deliver) next.deliver.push(plan.deliver);
      if (plan.complain) next.complain.push({ email_id: row.id, team_id: row.team_id });
    } catch (err) {
      if (fullStore(err)) throw err;
      failed(item, err);
    }
  }
  return next;
}

/** The row of one email by id, as `loadEmailSteps` gives it (empty when absent). */
function oneRow(ctx: Emulator, id: string): Map<string, EmailStepRow> {
  const row = loadEmailHead(ctx, id);
  return row ? new Map([[id, row]]) : new Map();
}

/** The email's history, parsed; throws when it is not a JSON array (each step records into it, so such an email fails before anything is written). */
function historyOf(row: EmailStepRow): EmailEvent[] {
  const history = eventsOfRow(row);
  if (!Array.isArray(history)) throw new TypeError(`email ${row.id}: its stored history is not a list`);
  return history;
}

/**
 * Whether applying `plan` writes a single statement (the row's UPDATE of
 * `recordStep`): one history entry whose `email.<type>` event no webhook
 * of the team takes (else its deliveries and their jobs are written too),
 * and no suppression. Its bus notices are queued after that statement, so
 * one that fails leaves nothing behind.
 */
function oneStatement(ctx: Emulator, row: EmailStepRow, plan: StepPlan): boolean {
  return plan.records.length === 1 && plan.suppress.length === 0 && subscribers(ctx, row.team_id, `email.${plan.records[0].type}`).length === 0;
}

/** Writes a plan (`StepPlan`) for `row`: its history entries (`recordStep`), then its suppressions. Synchronous. */
function applyPlan(ctx: Emulator, row: EmailStepRow, plan: StepPlan): void {
  for (const r of plan.records) recordStep(ctx, row, r.type, r.opts);
  for (const s of plan.suppress) addSuppression(ctx, row.team_id, s.address, s.origin, row.id);
}

/** Every recipient (to, cc, bcc), bare and lower-cased, without repeats. */
function recipientsOf(row: EmailStepRow): string[] {
  return [...new Set([...list(row.to_addrs), ...list(row.cc), ...list(row.bcc)].map(bareAddress))];
}

/** Recipients the `emails.send` step found suppressed (stored with the `suppressed` event). */
function suppressedAtSend(history: readonly EmailEvent[]): Set<string> {
  const ev = history.find((e) => e.type === 'suppressed');
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
 * The `emails.send` step (jobs.ts's table): queued or scheduled → sent,
 * suppressed or failed. The outcome fault is decided here, as the email
 * leaves the queue, for the recipients not suppressed.
 */
export const sendStep: LifecycleStep<{ email_id: string }> = {
  plan(ctx, { row }, _item, decide) {
    if (row.last_event !== 'queued' && row.last_event !== 'scheduled') return NOTHING;
    const recipients = recipientsOf(row);
    if (row.topic_id) {
      const to = list(row.to_addrs).map(bareAddress);
      const out = optedOutOfTopic(ctx, row, to);
      if (to.length && out.length === to.length) {
        return { records: [{ type: 'failed', opts: { extra: { failed: { reason: 'unsubscribed_from_topic' } } } }], suppress: [] };
      }
    }
    const records: StepRecord[] = [];
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
      records.push({
        type: 'suppressed',
        opts: {
          keepLastEvent: !all,
          eventData: { addresses: suppressed.map((s) => s.address) },
          extra: { suppressed: { message: SUPPRESSED_MESSAGES[first.type], type: first.type, reason: first.reason, diagnosticCode: [] } },
        },
      });
      if (all) return { records, suppress: [] };
    }
    const skip = new Set(suppressed.map((x) => x.address));
    const fault = decide(row, recipients.filter((a) => !skip.has(a)));
    if (fault?.outcome === 'failed') {
      records.push({ type: 'failed', opts: { eventData: { reason: fault.reason, fault_id: fault.ruleId }, extra: { failed: { reason: fault.reason } } } });
      return { records, suppress: [] };
    }
    records.push({ type: 'sent' });
    return { records, suppress: [], deliver: fault ? { email_id: row.id, outcome: fault.outcome, addresses: fault.addresses } : { email_id: row.id } };
  },
};

/**
 * The `emails.deliver` step (jobs.ts's table): sent → delivered, bounced or
 * delivery_delayed. `item`: the job's payload, with the outcome an outcome
 * fault rule chose at send: `bounced` bounces its addresses as
 * `bounced@resend.dev` would; `delivery_delayed` ends the email
 * `delivery_delayed` (`email.delivery_delayed`) unless one bounces.
 */
export const deliverStep: LifecycleStep<DeliverPayload> = {
  plan(_ctx, { row, history }, fault) {
    // `failed` (an admin event) or `canceled` end the email; a second deliver job finds it delivered or bounced.
    if (row.last_event === 'failed' || row.last_event === 'canceled') return NOTHING;
    if (history.some((e) => e.type === 'delivered' || e.type === 'bounced')) return NOTHING;
    const skip = suppressedAtSend(history);
    const remaining = recipientsOf(row).filter((a) => !skip.has(a));
    const faulted = new Set(fault.addresses ?? []);
    const bounced = remaining.filter((a) => testOutcome(a) === 'bounced' || (fault.outcome === 'bounced' && faulted.has(a)));
    if (bounced.length) {
      return {
        records: [{ type: 'bounced', opts: { eventData: { addresses: bounced }, extra: { bounce: hardBounce(bounced[0]) } } }],
        suppress: bounced.map((address) => ({ address, origin: 'bounce' as const })),
      };
    }
    if (fault.outcome === 'delivery_delayed') {
      return { records: [{ type: 'delivery_delayed', opts: { eventData: { addresses: remaining.filter((a) => faulted.has(a)) } } }], suppress: [] };
    }
    return { records: [{ type: 'delivered' }], suppress: [], complain: remaining.some((a) => testOutcome(a) === 'complained') };
  },
};

/** The `emails.complain` step (jobs.ts's table): delivered → complained, the `complained@resend.dev` recipients suppressed (origin `complaint`). */
export const complainStep: LifecycleStep<{ email_id: string }> = {
  plan(_ctx, { row }) {
    const complained = recipientsOf(row).filter((a) => testOutcome(a) === 'complained');
    return { records: [{ type: 'complained', opts: { eventData: { addresses: complained } } }], suppress: complained.map((address) => ({ address, origin: 'complaint' as const })) };
  },
};
