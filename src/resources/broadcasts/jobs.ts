/**
 * The send lifecycle of a broadcast on the emulated clock: its jobs and the
 * transitions that schedule or cancel them (docs/reference/resources.md#broadcasts;
 * D:dashboard/broadcasts/manage-broadcasts, broadcasts/cancel-broadcast):
 * | from | trigger | to | job |
 * |---|---|---|---|
 * | draft, scheduled | send now | `queued` | `broadcasts.deliver` after `DELAYS.broadcastQueued` |
 * | draft, scheduled | send with a future `scheduled_at` | `scheduled` | `broadcasts.start` at `scheduled_at` |
 * | scheduled | `broadcasts.start` | `queued` | `broadcasts.deliver` after `DELAYS.broadcastQueued` |
 * | queued | `broadcasts.deliver` | `queued` (next batch after `DELAYS.broadcastBatch`) or `sent` (`sent_at` = now) | one email per eligible contact, `BATCH_SIZE` a run |
 * | scheduled | cancel | `draft` (`scheduled_at` cleared; can be sent again) | start job dropped |
 * | queued | cancel | `canceled` (final; emails already handed over stay) | remaining batches dropped |
 * A contact is sent to when it is still in the segment, not unsubscribed and,
 * for a broadcast with `topic_id`, opted in (`topicSubscription`).
 * Each email carries `List-Unsubscribe: <{unsubscribe url}>` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058 one-click;
 * the URL is the contact's `/_emulator/unsubscribe/{token}`, the same as
 * `{{{RESEND_UNSUBSCRIBE_URL}}}`, which answers GET and POST).
 */
import type { Emulator } from '../../context.js';
import type { Job } from '../../clock/scheduler.js';
import { defineJob } from '../../clock/jobs.js';
import type { JobPayloads } from '../../clock/job-types.js';
import { DELAYS } from '../../clock/delays.js';
import { checkContactsQuota } from '../usage/service.js';
import { ApiError } from '../../http/errors.js';
import { contactPropertyValues, subscribedEmailsOfSegment, lastMembershipSeq, segmentContactsPage, topicSubscription, type Contact } from '../contacts/service.js';
import { propertiesByKey, type PropertyRow } from '../contact-properties/service.js';
import { getTopicOr404, type TopicRow } from '../topics/service.js';
import { checkSender, parseScheduledAt, sendEmail, SendBatch, type SendEmailInput } from '../emails/service.js';
import { parseAddress } from '../emails/service.js';
import { broadcastById, setBroadcastStatus, type BroadcastRow } from './store.js';
import { broadcastMessages } from './messages.js';
import { renderForContact, textDeriver, unsubscribeUrl, withPreviewText, type RenderVars } from './render.js';

/** Emails handed to sending per `broadcasts.deliver` run. */
const BATCH_SIZE = 100;

/** `broadcasts.start` (`runStart`). */
export const broadcastStartJob = defineJob('broadcasts.start', runStart);
/** `broadcasts.deliver` (`runDeliver`). */
export const broadcastDeliverJob = defineJob('broadcasts.deliver', runDeliver);

/**
 * Sends a draft (or re-sends a scheduled broadcast) now, or schedules it when
 * `scheduledAt` lies in the future (a past time sends now). Synchronous: call
 * inside the caller's transaction. Throws 403 `validation_error` unless the
 * broadcast is `draft` or `scheduled`, or when the team has more contacts
 * than its `--plan` allows; 422 `validation_error` for an
 * unreadable `scheduled_at` or a broadcast with neither `html` nor `text`.
 */
export function sendBroadcast(ctx: Emulator, row: BroadcastRow, scheduledAt: string | null | undefined): void {
  if (row.status !== 'draft' && row.status !== 'scheduled') {
    throw broadcastMessages.notSendable(row.status);
  }
  if (row.html === null && row.text === null) {
    throw broadcastMessages.noContent();
  }
  checkBroadcastSender(ctx, row);
  // Over the `--plan` contacts quota: 403 `validation_error` (docs/reference/errors.md#error-names-and-statuses; usage's service).
  checkContactsQuota(ctx, row.team_id);
  const now = ctx.clock.nowMs();
  const at = scheduledAt === null || scheduledAt === undefined ? null : parseScheduledAt(scheduledAt, now, null);
  if (row.status === 'scheduled') broadcastStartJob.cancel(ctx, 'broadcast_id', row.id);
  if (at !== null && at > now) {
    setBroadcastStatus(ctx, row.id, { status: 'scheduled', scheduledAt: at });
    broadcastStartJob.schedule(ctx, { broadcast_id: row.id }, { dueAt: at, teamId: row.team_id });
    return;
  }
  queue(ctx, row.id, row.team_id, at);
}

/**
 * The sending rules of POST /emails applied to a broadcast when it is sent
 * (docs/contacts-and-broadcasts.md: a broadcast obeys the sending rules of POST /emails): its `from` must be a verified
 * domain of the team, or `@resend.dev` with only the team owner and
 * `@resend.dev` addresses among the segment's subscribed contacts. Throws the
 * same 403 `validation_error` as POST /emails (`checkSender`), so a broadcast
 * that could reach no one is refused instead of ending `sent` with nothing
 * delivered.
 */
function checkBroadcastSender(ctx: Emulator, row: BroadcastRow): void {
  const from = parseAddress(row.from_address);
  if (!from) return; // validated at create/update; sendEmail refuses it per contact otherwise
  const recipients = from.domain === 'resend.dev' ? subscribedEmailsOfSegment(ctx, row.team_id, row.segment_id) : [];
  checkSender(ctx, row.team_id, from.domain, recipients);
}

/** Marks a broadcast `queued` and schedules its first batch. */
function queue(ctx: Emulator, id: string, teamId: string, scheduledAt: number | null): void {
  setBroadcastStatus(ctx, id, { status: 'queued', scheduledAt });
  broadcastDeliverJob.schedule(ctx, { broadcast_id: id }, { dueAt: ctx.clock.nowMs() + DELAYS.broadcastQueued, teamId });
}

/**
 * Cancels a broadcast: `scheduled` → `draft`, `queued` → `canceled`.
 * Throws 403 `validation_error` for any other status (SDK PR #1059: the
 * service answers 403 `validation_error` for draft or sent broadcasts).
 */
export function cancelBroadcast(ctx: Emulator, row: BroadcastRow): void {
  if (row.status === 'scheduled') {
    broadcastStartJob.cancel(ctx, 'broadcast_id', row.id);
    setBroadcastStatus(ctx, row.id, { status: 'draft' });
  } else if (row.status === 'queued') {
    broadcastDeliverJob.cancel(ctx, 'broadcast_id', row.id);
    setBroadcastStatus(ctx, row.id, { status: 'canceled' });
  } else {
    throw broadcastMessages.notCancelable(row.status);
  }
}

/** Drops the pending jobs of a broadcast being deleted. */
export function dropJobs(ctx: Emulator, id: string): void {
  broadcastStartJob.cancel(ctx, 'broadcast_id', id);
  broadcastDeliverJob.cancel(ctx, 'broadcast_id', id);
}

function loadRow(ctx: Emulator, id: string): BroadcastRow | undefined {
  return broadcastById(ctx, id);
}

/** Job `broadcasts.start`: a scheduled broadcast whose time has come becomes `queued`. */
function runStart(ctx: Emulator, job: Job<JobPayloads['broadcasts.start']>): void {
  ctx.db.transaction(() => {
    const row = loadRow(ctx, job.payload.broadcast_id);
    if (!row || row.status !== 'scheduled') return;
    queue(ctx, row.id, row.team_id, row.scheduled_at);
  })();
}

/**
 * What every email of one `broadcasts.deliver` run shares, read once a run:
 * the broadcast's topic (or the `ApiError` reading it gave, thrown again for
 * each contact, so each is skipped and logged as if it had read the topic
 * itself) and the team's contact-property definitions.
 */
interface RunData {
  topic: TopicRow | ApiError | null;
  definitions: Map<string, PropertyRow>;
  /** The text part derived once from the html (`textDeriver`), when the broadcast has html, no text, and placeholders. */
  text: ((vars: RenderVars) => string | undefined) | null;
  /** The broadcast's sending domain checked once a run (`SendContext.checkedSender`); null when it fails (each email then checks it itself, so each is refused and logged alone) or is `resend.dev`. */
  sender: { domain: string; domainId: string } | null;
}

/**
 * Text derivers by html (with its preview text), per store, kept across a
 * broadcast's runs: html-to-text of the html made once a run was a large
 * part of a run (docs/benchmarks.md#figures-behind-the-code). A deriver depends on the html alone;
 * a few entries (`DERIVERS_KEPT`, the broadcasts being sent at once),
 * emptied on the bus `reset`.
 */
const deriversByStore = new WeakMap<object, Map<string, ReturnType<typeof textDeriver>>>();
const DERIVERS_KEPT = 8;

function derivedText(ctx: Emulator, html: string): ReturnType<typeof textDeriver> {
  let derivers = deriversByStore.get(ctx.db);
  if (!derivers) {
    const made = new Map<string, ReturnType<typeof textDeriver>>();
    deriversByStore.set(ctx.db, made);
    ctx.bus.on('reset', () => made.clear());
    derivers = made;
  }
  const kept = derivers.get(html);
  if (kept) return kept;
  const made = textDeriver(html);
  if (derivers.size >= DERIVERS_KEPT) derivers.delete(derivers.keys().next().value!);
  derivers.set(html, made);
  return made;
}

/** The broadcast's sender checked once for the run (`checkSender` with no recipients: the domain rule alone); null for `resend.dev` or a sender that fails. */
function checkedSender(ctx: Emulator, row: BroadcastRow): RunData['sender'] {
  const from = parseAddress(row.from_address);
  if (!from || from.domain === 'resend.dev') return null;
  try {
    const domainId = checkSender(ctx, row.team_id, from.domain, []);
    return domainId === null ? null : { domain: from.domain, domainId };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return null;
  }
}

function runData(ctx: Emulator, row: BroadcastRow): RunData {
  let topic: TopicRow | ApiError | null = null;
  if (row.topic_id !== null) {
    try {
      topic = getTopicOr404(ctx, row.team_id, row.topic_id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      topic = err;
    }
  }
  const text = row.text === null && row.html !== null ? derivedText(ctx, withPreviewText(row.html, row.preview_text)) : null;
  return { topic, definitions: propertiesByKey(ctx, row.team_id), text, sender: checkedSender(ctx, row) };
}

/** Whether the broadcast goes to this contact now. */
function eligible(ctx: Emulator, row: BroadcastRow, c: Contact, run: RunData): boolean {
  if (c.unsubscribed) return false;
  if (row.topic_id === null) return true;
  if (run.topic instanceof ApiError) throw run.topic;
  return topicSubscription(ctx, row.team_id, c.id, row.topic_id, run.topic ?? undefined) === 'opt_in';
}

/** The email of one contact, placeholders filled, with the one-click unsubscribe headers (RFC 2369, RFC 8058). */
function emailFor(ctx: Emulator, row: BroadcastRow, c: Contact, run: RunData): SendEmailInput {
  const unsubscribe = unsubscribeUrl(ctx.runtime.baseUrl, row.id, c.id);
  const vars = { contact: c, properties: contactPropertyValues(ctx, row.team_id, c, run.definitions), unsubscribeUrl: unsubscribe };
  const input: SendEmailInput = {
    from: row.from_address,
    to: c.email,
    subject: renderForContact(row.subject, vars) ?? row.subject,
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
  const html = renderForContact(row.html === null ? null : withPreviewText(row.html, row.preview_text), vars);
  const text = renderForContact(row.text, vars) ?? run.text?.(vars);
  if (html !== null) input.html = html;
  if (text !== null && text !== undefined) input.text = text; // else sendEmail converts the html
  if (row.reply_to !== null) input.reply_to = JSON.parse(row.reply_to) as string[];
  if (row.topic_id !== null) input.topic_id = row.topic_id;
  return input;
}

/**
 * Job `broadcasts.deliver`: hands the next `BATCH_SIZE` contacts' emails to
 * `sendEmail` (each with its own lifecycle), then schedules the next batch or
 * marks the broadcast `sent`. The recipient list is the segment's members
 * when the first batch runs (`until_seq`, the newest membership then; the
 * job carries a cursor, `after_seq`, not a list). A run reads only its own
 * batch's contacts (still in the segment), and the topic and
 * property definitions once. One transaction a run; an email the emails
 * module refuses (`ApiError`) is skipped and logged, the others go on
 * (`sendEmail` validates before it writes and writes in its own
 * transaction, so a refused email leaves nothing behind).
 */
function runDeliver(ctx: Emulator, job: Job<JobPayloads['broadcasts.deliver']>): void {
  ctx.db.transaction(() => {
    const row = loadRow(ctx, job.payload.broadcast_id);
    if (!row || row.status !== 'queued') return;
    const untilSeq = job.payload.until_seq ?? lastMembershipSeq(ctx, row.segment_id);
    const batch = segmentContactsPage(ctx, row.team_id, row.segment_id, { afterSeq: job.payload.after_seq ?? 0, untilSeq, limit: BATCH_SIZE });
    const run = runData(ctx, row);
    // One `emails.send-many` job for the run's emails: each one's lifecycle is the one of an email sent alone (emails' lifecycle.ts), at the same times.
    const sends = new SendBatch();
    for (const { contact: c } of batch) {
      try {
        if (!eligible(ctx, row, c, run)) continue;
        const input = emailFor(ctx, row, c, run);
        sendEmail(ctx, input, { teamId: row.team_id, source: 'broadcast', broadcastId: row.id, contactId: c.id, checkedSender: run.sender, batch: sends });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        ctx.log('warn', `broadcast ${row.id}: no email to ${c.email}: ${err.name}: ${err.message}`);
      }
    }
    sends.schedule(ctx, row.team_id);
    const last = batch.at(-1);
    if (batch.length === BATCH_SIZE && last && last.seq < untilSeq) {
      broadcastDeliverJob.schedule(ctx, { broadcast_id: row.id, after_seq: last.seq, until_seq: untilSeq }, { dueAt: ctx.clock.nowMs() + DELAYS.broadcastBatch, teamId: row.team_id });
    } else {
      setBroadcastStatus(ctx, row.id, { status: 'sent', sentAt: ctx.clock.nowMs() });
    }
  })();
}
