/**
 * Handlers of the /emails operations (the table is in `index.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { Auth, Emulator } from '../../context.js';
import { JsonText, Reply } from '../../module.js';
import { parseDuration } from '../../clock/clock.js';
import { errors } from '../../http/errors.js';
import { emailMessages } from './messages.js';
import { isoTime } from '../../http/format.js';
import { paginate } from '../../http/pagination.js';
import { sendEmail } from './send.js';
import { batchItemValidator, sendBatch } from './batch.js';
import { cancelScheduled, reschedule } from './schedule.js';
import { EmailQuota } from './quota.js';
import {
  EMAIL_ATTACHMENTS, findEmailAttachment, getEmailOr404, LIST_PAGE_COLUMNS, listItemsJson, pageEmails, toEmail, type AttachmentRow, type EmailRow,
} from './store.js';
import type { Answer, Req, OperationHandlers, ListItem } from '../../http/document-types.js';

/** Longest and default life of a share link: 48 h (docs/reference/resources.md#emails). */
export const SHARE_MAX_MS = 48 * 3_600_000;
/** Life of an attachment `download_url` (emulator choice: 1 h of emulated time). */
export const DOWNLOAD_URL_TTL_MS = 3_600_000;

/**
 * A send's answer (`result`: the body) with the quota headers of `--plan`
 * (`quota.headers()`: the emails used so far today and this month, this
 * request's sends included); `result` as it is without a plan. An
 * idempotent replay gets them from `quotaReplayHeaders` (the module's
 * `replayHeaders`).
 */
function withQuotaHeaders<B>(quota: EmailQuota | null, result: B): B | Reply<200, B> {
  return quota ? new Reply(200, result, quota.headers()) : result;
}

/**
 * The quota headers of now for an idempotent replay of a send (a replay
 * sends nothing: the emails used so far, docs/reference/formats.md#quotas); none
 * without a plan.
 */
export function quotaReplayHeaders(ctx: Emulator, auth: Auth): Record<string, string> {
  return EmailQuota.read(ctx, auth.teamId)?.headers() ?? {};
}

/**
 * POST /emails, and POST /email, the 0.x SDKs' path of the same send
 * (docs/reference/transport.md#the-0x-sdks-path-email): one handler, so
 * the alias answers exactly as `/emails` does.
 */
function send(ctx: Emulator, req: Req<'emails/send'> | Req<'emails/send-legacy'>): Answer<'emails/send'> {
  // The team's usage, read once: `sendEmail` checks the send against it, the reply's headers report it.
  const quota = EmailQuota.read(ctx, req.auth.teamId);
  const result = sendEmail(ctx, req.body, { teamId: req.auth.teamId, restrictDomainId: req.auth.domainId, source: 'api', quota });
  return withQuotaHeaders(quota, result);
}

/**
 * POST /emails/batch (docs/reference/resources.md#batch-sends): the `x-batch-validation` mode
 * (`strict` by default, or `permissive`: 422 otherwise), then the items sent
 * by `sendBatch` (batch.ts), once per idempotency key. Synchronous, as every
 * handler of an operation with an `Idempotency-Key` (`OperationHandlers`):
 * the emails and the key's record commit in one transaction.
 */
function batch(ctx: Emulator, req: Req<'emails/send-batch'>): Answer<'emails/send-batch'> {
  const header = req.headers['x-batch-validation'];
  const mode = (Array.isArray(header) ? header[0] : header ?? 'strict').toLowerCase();
  if (mode !== 'strict' && mode !== 'permissive') {
    throw emailMessages.batchValidationHeader();
  }
  const check = batchItemValidator();
  // The team's usage, read once for every item: each send takes its recipients from it (the items before count too).
  const quota = EmailQuota.read(ctx, req.auth.teamId);
  const sc = { teamId: req.auth.teamId, restrictDomainId: req.auth.domainId, source: 'batch' as const, quota };
  return withQuotaHeaders(quota, sendBatch(ctx, req.body, mode, check, sc));
}

function listEmails(ctx: Emulator, req: Req<'emails/list'>): Answer<'emails/list'> {
  // The items' JSON comes from the emails store's cache of their unchanging parts.
  const page = pageEmails(ctx.db, req, { defaultLimit: 20, columns: LIST_PAGE_COLUMNS, map: (r: EmailRow) => r });
  return new JsonText(`{"object":"list","has_more":${page.has_more},"data":${listItemsJson(ctx, page.data)}}`);
}

function get(ctx: Emulator, req: Req<'emails/get'>): Answer<'emails/get'> {
  return toEmail(getEmailOr404(ctx, req.auth.teamId, req.params.email_id));
}

/** PATCH /emails/{id} `{scheduled_at}`: moves a `scheduled` email's send (schedule.ts). */
function update(ctx: Emulator, req: Req<'emails/update'>): Answer<'emails/update'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  reschedule(ctx, row, req.body.scheduled_at);
  return { object: 'email', id: row.id };
}

/** POST /emails/{id}/cancel: `scheduled` → `canceled` (final; docs/reference/resources.md#emails; schedule.ts). */
function cancel(ctx: Emulator, req: Req<'emails/cancel'>): Answer<'emails/cancel'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  cancelScheduled(ctx, row);
  return { object: 'email', id: row.id };
}

/**
 * POST /emails/{id}/share `{expires_in}` (≤ 48 h, default 48 h): a link to
 * the email in the emulator's admin API (emulator choice; nothing is stored).
 */
function share(ctx: Emulator, req: Req<'emails/share'>): Answer<'emails/share'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  const ttl = req.body?.expires_in !== undefined ? parseDuration(req.body.expires_in) : SHARE_MAX_MS;
  if (ttl === null || ttl <= 0 || ttl > SHARE_MAX_MS) {
    throw emailMessages.shareExpiresIn();
  }
  const expires = isoTime(ctx.clock.nowMs() + ttl)!;
  const token = randomBytes(16).toString('hex');
  return { object: 'email', id: row.id, url: `${ctx.runtime.baseUrl}/_emulator/emails/${row.id}?share=${token}&expires_at=${encodeURIComponent(expires)}` };
}

/**
 * The attachment shape of GET /emails/{id}/attachments[/{aid}] (docs/reference/resources.md#emails).
 * `content_id` is left out when the attachment has none: the reference
 * document types it as a string and the SDK's `AttachmentData` as optional
 * (`content_id?: string`), as the received-email attachment endpoints do.
 */
function toAttachment(ctx: Emulator, a: AttachmentRow): ListItem<'emails/list-attachments'> {
  return {
    id: a.id,
    filename: a.filename,
    content_type: a.content_type,
    ...(a.content_id !== null ? { content_id: a.content_id } : {}),
    content_disposition: a.content_id ? 'inline' : 'attachment',
    download_url: a.path ?? `${ctx.runtime.baseUrl}/_emulator/emails/${a.email_id}/attachments/${a.id}`,
    expires_at: isoTime(ctx.clock.nowMs() + DOWNLOAD_URL_TTL_MS)!,
    size: a.size,
  };
}

function listAttachments(ctx: Emulator, req: Req<'emails/list-attachments'>): Answer<'emails/list-attachments'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  return paginate(ctx.db, { table: EMAIL_ATTACHMENTS, where: 'email_id = ?', params: [row.id], query: req.query, defaultLimit: null, map: (a: AttachmentRow) => toAttachment(ctx, a) });
}

function getAttachment(ctx: Emulator, req: Req<'emails/get-attachment'>): Answer<'emails/get-attachment'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  const a = findEmailAttachment(ctx, row.id, req.params.attachment_id);
  if (!a) throw errors.notFound('Attachment');
  return { object: 'attachment', ...toAttachment(ctx, a) };
}

export const emailOperations = {
  'emails/send': send,
  'emails/send-legacy': send,
  'emails/send-batch': batch,
  'emails/list': listEmails,
  'emails/get': get,
  'emails/update': update,
  'emails/cancel': cancel,
  'emails/share': share,
  'emails/list-attachments': listAttachments,
  'emails/get-attachment': getAttachment,
} satisfies OperationHandlers;
