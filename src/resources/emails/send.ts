/**
 * CONTRACT between modules (owned by the emails module; others call it):
 * how any part of the emulator sends an email. Broadcasts and automation
 * `send_email` steps call `sendEmail`; the API's POST /emails and
 * /emails/batch are built on it too.
 *
 * Rules checked here, in this order (docs/reference/resources.md#emails; docs/reference/errors.md#error-names-and-statuses; docs/reference/test-addresses.md):
 * | rule | error |
 * |---|---|
 * | `--plan`: the send's To + CC + BCC over the daily or monthly quota (API, batch, SMTP and inbox sends; `quota.ts`) | 429 `daily_quota_exceeded` / `monthly_quota_exceeded` |
 * | `template` with `html`/`text` | 422 `validation_error` |
 * | template unknown / unpublished / variable missing | as `resolvePublishedTemplate` / `renderTemplate` throw |
 * | `from` `""` without a template | 400 `validation_error` (with a template, `""` `from` and `subject` are "not given": resend-go sends them) |
 * | `from` absent (and no template `from`) / `subject` absent (and no template subject) | 422 `missing_required_field` |
 * | `from`, `to`, `cc`, `bcc`, `reply_to` not `a@b.c` or `Name <a@b.c>` | 422 `validation_error` |
 * | `@resend.dev` sender mailing anyone but the team owner (`teams.owner_email`) and `@resend.dev` | 403 `validation_error` |
 * | other sender whose domain is not a `verified` domain of the team | 403 `validation_error` ``The `x.com` domain is not verified. Please, add and verify your domain.`` |
 * | key restricted to a domain (`restrictDomainId`), sender from another | 403 `validation_error` |
 * | attachment `content` a string that is not Base64 | 422 `invalid_attachment` (absent content and path, a bad byte array: the spec) |
 * | attachments over 40 MB | 422 `validation_error` |
 * | `scheduled_at` unreadable or more than 30 days ahead | 422 `validation_error` |
 * | `topic_id` not a topic of the team | 404 (contacts service `topicSubscription`) |
 * `text` is made from `html` with html-to-text when absent; `""` opts out
 * (stored as null).
 */
import type { SchemaOf } from '../../http/document-types.js';
import { htmlToText } from './text.js';
import type { Emulator } from '../../context.js';
import { domainNameOf, senderDomain } from '../domains/service.js';
import { readScheduledAt } from '../../clock/natural-time.js';
import { DELAYS } from '../../clock/delays.js';
import { ApiError, errors } from '../../http/errors.js';
import { contentTypeOf, newId } from '../../http/format.js';
import { getTeam } from '../../state/teams.js';
import { renderTemplate, resolvePublishedTemplate } from '../templates/service.js';
import { getTopicOr404 } from '../topics/service.js';
import { asList, bareAddress, parseAddress } from './addresses.js';
import { firstEvents, insertAttachment, insertEmail, messageId, recordStep } from './store.js';
import { emailSendJob, emailSendManyJob } from './jobs.js';
import { EmailQuota } from './quota.js';
import { countsTowardQuota, recipientCount } from '../usage/service.js';
import { emailMessages } from './messages.js';

/**
 * The body of POST /emails (docs/reference/resources.md#emails), generated from `SendEmailBody`
 * in spec/paths/emails.yaml: `scheduled_at` is ISO 8601 or natural language
 * (`in 1 min`); `template` names a published template (id or alias) with
 * variables, instead of html/text.
 */
export type SendEmailInput = SchemaOf<'SendEmailBody'>;

/** Who sends, and why. */
export interface SendContext {
  teamId: string;
  /** Domain a `sending_access` key is restricted to (403 from any other). */
  restrictDomainId?: string | null;
  source: 'api' | 'batch' | 'broadcast' | 'automation' | 'smtp';
  broadcastId?: string | null;
  /** The contact a broadcast email goes to (stored as `emails.contact_id`). */
  contactId?: string | null;
  automationRunId?: string | null;
  /**
   * The quota this send draws on (`EmailQuota.read`, usage read once per
   * request: a batch passes one for all its items, a handler keeps it for its
   * reply's headers); read here when absent. Only sources the usage counts
   * (the usage ledger's `countsTowardQuota`) are checked.
   */
  quota?: EmailQuota | null;
  /**
   * The sender already checked by the caller for many emails from the same
   * address (a broadcast's batch: `checkSender` once a run instead of once a
   * recipient, a domain lookup each): `domain` the lower-case sending domain
   * that passed, `domainId` what `checkSender` returned for it. Used only
   * when the email's `from` has that domain and it is not `resend.dev`
   * (whose rule depends on each email's recipients); else the check runs here.
   */
  checkedSender?: { domain: string; domainId: string } | null;
  /**
   * Emails sent together (a broadcast's batch): an email queued now (no
   * `scheduled_at`) joins the batch instead of getting an `emails.send` job
   * of its own; the caller then calls `batch.schedule` once, in the same
   * transaction, for one `emails.send-many` job due when each one's own job
   * would be. Inside a transaction, a batched email's writes use the
   * caller's transaction without a savepoint of their own: a failure after
   * the checks (never an `ApiError` then) must roll the caller's back.
   */
  batch?: SendBatch;
}

/**
 * The emails of one batch of sends at the same emulated time (see
 * `SendContext.batch`): their ids, in the order sent.
 */
export class SendBatch {
  readonly #ids: string[] = [];
  /** Adds a stored email's id (sendEmail, inside its transaction). */
  add(id: string): void {
    this.#ids.push(id);
  }
  /**
   * Schedules the `emails.send-many` job of the emails added, due
   * `DELAYS.emailSend` after now (when each one's `emails.send` would be), for
   * `teamId`; nothing when none was added. Call it in the transaction of the sends.
   */
  schedule(ctx: Emulator, teamId: string): void {
    if (this.#ids.length) emailSendManyJob.schedule(ctx, { email_ids: [...this.#ids] }, { dueAt: ctx.clock.nowMs() + DELAYS.emailSend, teamId });
    this.#ids.length = 0;
  }
}


/** Largest total attachment size per email: 40 MB (docs/reference/resources.md#emails). */
export const MAX_ATTACHMENTS_BYTES = 40 * 1024 * 1024;

/**
 * The sender rules of POST /emails (docs/reference/errors.md#error-names-and-statuses, the 403
 * `validation_error` rows): from `@resend.dev` only to the team owner
 * (`teams.owner_email`) and `@resend.dev` addresses; any other sender domain
 * must be a verified domain of the team. `recipients`: addresses as given
 * (`Name <a@b>` allowed). Returns the sending domain's id (null for
 * `resend.dev`). Throws 403 `validation_error` with the service's messages.
 * Also applied by broadcasts when they are sent (a broadcast obeys the sending rules of POST /emails).
 */
export function checkSender(ctx: Emulator, teamId: string, fromDomain: string, recipients: readonly string[]): string | null {
  if (fromDomain === 'resend.dev') {
    const owner = getTeam(ctx.db, teamId)?.owner_email.toLowerCase() ?? '';
    const stranger = recipients.map(bareAddress).find((a) => a !== owner && !a.endsWith('@resend.dev'));
    if (stranger !== undefined) {
      throw emailMessages.testingSenderOnly(owner);
    }
    return null;
  }
  const domain = senderDomain(ctx, teamId, fromDomain);
  if (!domain || domain.status !== 'verified') {
    throw emailMessages.domainNotVerified(fromDomain);
  }
  return domain.id;
}

/**
 * An attachment's `content_type` as an HTTP header and a MIME header accept
 * it (RFC 9110 §8.3.1 `media-type`: `type/subtype` tokens, then `; name=value`
 * parameters with a token or quoted-string value; printable ASCII only). A
 * value outside it would break the attachment's download (`ERR_INVALID_CHAR`)
 * and its MIME rendering, so POST /emails refuses it with 422
 * `invalid_attachment` (docs/reference/errors.md#error-body, the attachment error; downloads need a clean type).
 */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t \x21\x23-\x5b\x5d-\x7e]|\\[\t \x21-\x7e])*"))*[ \t]*$/;


/**
 * The bytes of an attachment's `content` in any of the forms the spec's
 * `AttachmentContent` accepts (ajv has checked the shape): a Base64 string
 * (whitespace ignored), an array of byte values, or a Node Buffer as
 * `JSON.stringify` writes it (`{type: 'Buffer', data: [...]}`). The same bytes
 * in any form give the same Buffer, so they count the same toward the 40 MB
 * limit. Throws 422 `invalid_attachment` for a string that is not Base64.
 */
export function attachmentBytes(content: SchemaOf<'AttachmentContent'>): Buffer {
  if (Array.isArray(content)) return Buffer.from(content);
  if (typeof content === 'object') return Buffer.from(content.data);
  const b64 = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) {
    throw emailMessages.attachmentNotBase64();
  }
  return Buffer.from(b64, 'base64');
}

/**
 * Reads the `scheduled_at` of an email or a broadcast (`readScheduledAt`: ISO
 * 8601 or natural language, on the emulated clock at `nowMs`), the one
 * parser of both. Returns emulated ms since the epoch. Throws 422
 * `validation_error` when unreadable, or when it lies more than
 * `maxAheadMs` after `nowMs`: an email's is `DELAYS.emailScheduleLimit`
 * (30 days, docs/reference/resources.md#emails); `null` for none (a
 * broadcast: the records give it no limit).
 */
export function parseScheduledAt(input: string, nowMs: number, maxAheadMs: number | null): number {
  const at = readScheduledAt(input, nowMs);
  if (at === null) {
    throw emailMessages.scheduledAtUnreadable();
  }
  if (maxAheadMs !== null && at > nowMs + maxAheadMs) {
    throw emailMessages.scheduledAtTooFar();
  }
  return at;
}

function checkRecipients(field: 'to' | 'cc' | 'bcc' | 'reply_to', values: string[]): string[] {
  for (const v of values) if (!parseAddress(v)) throw emailMessages.invalidAddress(field);
  return values;
}

/**
 * Validates and records an email, and schedules its lifecycle on the clock
 * (queued/scheduled → sent → delivered | bounced | ...), raising the email.*
 * webhook events. Synchronous: may run inside the caller's transaction.
 * Returns the new email's id. Throws `ApiError` with the real service's
 * status and name for every rejected input (unverified `from` domain 403
 * `validation_error`, missing template variable 422, ...); the table at the
 * top of this file lists them. Nothing is written when it throws.
 */
export function sendEmail(ctx: Emulator, input: SendEmailInput, sc: SendContext): { id: string } {
  // The plan's daily and monthly quotas (429 over them), checked first: a send over quota is refused whatever its body.
  const quota = countsTowardQuota(sc.source) ? (sc.quota !== undefined ? sc.quota : EmailQuota.read(ctx, sc.teamId)) : null;
  if (!quota) return storeEmail(ctx, input, sc);
  const recipients = recipientCount(input);
  quota.take(recipients);
  try {
    return storeEmail(ctx, input, sc);
  } catch (err) {
    quota.giveBack(recipients);
    throw err;
  }
}

/** `sendEmail` once the quota let it through: the rules, then the row, its attachments and its send job in one transaction. */
function storeEmail(ctx: Emulator, input: SendEmailInput, sc: SendContext): { id: string } {
  const teamId = sc.teamId;
  const now = ctx.clock.nowMs();

  // Template (docs/reference/resources.md#emails: excludes html/text; payload from/subject/reply_to win).
  let rendered: ReturnType<typeof renderTemplate> | null = null;
  let templateId: string | null = null;
  if (input.template) {
    if (input.html !== undefined || input.text !== undefined) {
      throw emailMessages.templateWithContent();
    }
    const tpl = resolvePublishedTemplate(ctx, teamId, input.template.id);
    rendered = renderTemplate(tpl, input.template.variables ?? {});
    templateId = tpl.id;
  }
  // resend-go's `SendEmailRequest` has no `omitempty` on `from` and `subject`: `""` is what it sends for "the template's".
  const given = (v: string | undefined) => (rendered && v === '' ? undefined : v);
  if (!rendered && input.from === '') throw emailMessages.emptyFrom();
  const fromRaw = given(input.from) ?? rendered?.from ?? undefined;
  if (fromRaw === undefined || fromRaw === null) throw emailMessages.missingFrom();
  const subject = given(input.subject) ?? rendered?.subject ?? undefined;
  if (subject === undefined || subject === null) throw errors.missingField('subject');
  // An empty `reply_to` (`[]`, what SDK-based tools send by default) is "none given": the template's applies.
  const replyTo = input.reply_to !== undefined && asList(input.reply_to).length ? asList(input.reply_to) : asList(rendered?.reply_to ?? null);

  const from = parseAddress(fromRaw);
  if (!from) throw emailMessages.invalidAddress('from');
  const to = checkRecipients('to', asList(input.to));
  const cc = checkRecipients('cc', asList(input.cc));
  const bcc = checkRecipients('bcc', asList(input.bcc));
  checkRecipients('reply_to', replyTo);

  // Sender rules (docs/reference/errors.md#error-names-and-statuses 403 rows; docs/reference/design.md#auth).
  const checked = sc.checkedSender;
  const domainId = checked && checked.domain === from.domain && from.domain !== 'resend.dev' ? checked.domainId : checkSender(ctx, teamId, from.domain, [...to, ...cc, ...bcc]);
  if (sc.restrictDomainId && sc.restrictDomainId !== domainId) {
    const allowed = domainNameOf(ctx, sc.restrictDomainId);
    throw emailMessages.keyRestrictedToDomain(allowed ?? sc.restrictDomainId);
  }

  // Attachments: `content` (Base64, byte array or Buffer) is stored; `path` is recorded, never fetched.
  // `inline_content_id` is the older name of `content_id` (the Python SDK's `Attachment` type),
  // `contentType` resend-rust's name of `content_type`; the document's names win.
  const attachments = (input.attachments ?? []).map((a) => {
    const content = a.content !== undefined ? attachmentBytes(a.content) : null;
    const contentType = a.content_type ?? a.contentType;
    if (contentType !== undefined && !MEDIA_TYPE.test(contentType)) {
      throw emailMessages.attachmentContentType(contentType);
    }
    const filename = a.filename ?? (a.path ? decodeURIComponent(a.path.split(/[?#]/)[0].split('/').pop() || '') || null : null);
    return { filename, path: a.path ?? null, content, content_type: contentType ?? contentTypeOf(filename), content_id: a.content_id ?? a.inline_content_id ?? null };
  });
  const totalBytes = attachments.reduce((n, a) => n + (a.content?.length ?? 0), 0);
  if (totalBytes > MAX_ATTACHMENTS_BYTES) throw emailMessages.attachmentsTooLarge();

  const scheduledAt = input.scheduled_at !== undefined ? parseScheduledAt(input.scheduled_at, now, DELAYS.emailScheduleLimit) : null;
  if (input.topic_id !== undefined) getTopicOr404(ctx, teamId, input.topic_id);

  const html = input.html ?? rendered?.html ?? null;
  let text: string | null = input.text ?? rendered?.text ?? null;
  if (input.text === '') text = null;
  else if (text === null && html !== null && input.text === undefined) text = htmlToText(html);

  const id = newId();
  const write = () => {
    const lastEvent = scheduledAt !== null ? 'scheduled' : 'queued';
    const row = insertEmail(ctx, {
      id, team_id: teamId, message_id: messageId(id, now, from.domain), from_addr: fromRaw.trim(), to_addrs: JSON.stringify(to),
      cc: cc.length ? JSON.stringify(cc) : null, bcc: bcc.length ? JSON.stringify(bcc) : null, reply_to: replyTo.length ? JSON.stringify(replyTo) : null,
      subject, html, text,
      headers: input.headers && Object.keys(input.headers).length ? JSON.stringify(input.headers) : null,
      tags: input.tags?.length ? JSON.stringify(input.tags.map((t) => ({ name: t.name, value: t.value }))) : null,
      last_event: lastEvent, scheduled_at: scheduledAt, created_at: now, source: sc.source, domain_id: domainId,
      broadcast_id: sc.broadcastId ?? null, template_id: templateId, topic_id: input.topic_id ?? null, automation_run_id: sc.automationRunId ?? null,
      contact_id: sc.contactId ?? null, events: firstEvents(lastEvent, now),
    });
    for (const a of attachments) insertAttachment(ctx, { id: newId(), emailId: id, teamId, ...a });
    // The row is stored with its first step already (`last_event`, `events`): no read-back, no UPDATE.
    recordStep(ctx, row, lastEvent, { stored: true });
    if (scheduledAt === null && sc.batch) sc.batch.add(id);
    else emailSendJob.schedule(ctx, { email_id: id }, { dueAt: scheduledAt !== null ? Math.max(scheduledAt, now) : now + DELAYS.emailSend, teamId });
    return { id };
  };
  if (!sc.batch || !ctx.db.inTransaction) return ctx.db.transaction(write)();
  // In a batch, inside the caller's transaction: no savepoint of its own (one per email is a measurable share of a broadcast: docs/benchmarks.md#figures-behind-the-code).
  // Every rule was checked above; a write that still fails is rethrown as a plain Error, never an `ApiError` a
  // caller could skip past, so the caller's whole transaction rolls back and no email is left half-written.
  try {
    return write();
  } catch (err) {
    if (err instanceof ApiError) throw new Error(`storing email ${id} failed: ${err.message}`, { cause: err });
    throw err;
  }
}

