/**
 * Handlers of the /emails operations (the table is in `index.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { Emulator } from '../../context.js';
import { JsonText, Reply } from '../../module.js';
import { parseDuration } from '../../clock/clock.js';
import { ApiError, errors } from '../../http/errors.js';
import { isoTime } from '../../http/format.js';
import { withIdempotency } from '../../http/idempotency.js';
import { paginate } from '../../http/pagination.js';
import { loadSpec } from '../../http/spec.js';
import { compileBodySchema, toApiError } from '../../http/validate.js';
import { parseScheduledAt, sendEmail, type SendEmailInput } from './send.js';
import { emailSendJob } from './jobs.js';
import { checkEmailQuota, quotaHeaders, recipientCount } from '../usage/service.js';
import {
  EMAIL_ATTACHMENTS, findEmailAttachment, getEmailOr404, LIST_PAGE_COLUMNS, listItemsJson, notifyEmail, pageEmails, recordStep, setScheduledAt, toEmail,
  type AttachmentRow, type EmailRow,
} from './store.js';
import type { Answer, Req, OperationHandlers, ListItem } from '../../http/document-types.js';

/** Longest and default life of a share link: 48 h (API-FACTS §5.1). */
export const SHARE_MAX_MS = 48 * 3_600_000;
/** Life of an attachment `download_url` (emulator choice: 1 h of emulated time). */
export const DOWNLOAD_URL_TTL_MS = 3_600_000;

/**
 * A send's answer (`result`: the body, or the `Reply` of an idempotent
 * replay) with the quota headers of `--plan` (usage's `quotaHeaders`: the
 * emails used so far today and this month); `result` as it is without a plan.
 */
function withQuotaHeaders<B>(ctx: Emulator, teamId: string, result: B | Reply<200, B>): B | Reply<200, B> {
  const headers = quotaHeaders(ctx, teamId);
  if (Object.keys(headers).length === 0) return result;
  if (result instanceof Reply) return new Reply(result.status, result.body, { ...result.headers, ...headers }, result.contentType);
  return new Reply(200, result, headers);
}

function send(ctx: Emulator, req: Req<'emails/send'>): Answer<'emails/send'> {
  const result = withIdempotency(ctx, req, 'emails/send', 200, () => {
    // The plan's daily and monthly quotas (429 over them; usage's service).
    checkEmailQuota(ctx, req.auth!.teamId, recipientCount(req.body));
    return sendEmail(ctx, req.body, { teamId: req.auth!.teamId, restrictDomainId: req.auth!.domainId, source: 'api' });
  });
  return withQuotaHeaders(ctx, req.auth!.teamId, result);
}

let itemValidator: Promise<ValidateFunction> | null = null;

/** The validator of one batch item: the `emails/send` body schema of spec/openapi.yaml. */
function batchItemValidator(): Promise<ValidateFunction> {
  itemValidator ??= loadSpec().then(({ operations }) => {
    const op = operations.find((o) => o.operationId === 'emails/send');
    if (!op?.body) throw new Error('spec/openapi.yaml lacks the emails/send body');
    return compileBodySchema(op.body.schema);
  });
  return itemValidator;
}

/**
 * POST /emails/batch (API-FACTS §5.2): each item is a POST /emails body
 * without `attachments`. `strict` (default): the first bad item fails the
 * whole request and nothing is sent. `permissive`: good items are sent,
 * bad ones reported as `errors: [{index, message}]`.
 */
async function batch(ctx: Emulator, req: Req<'emails/send-batch'>): Promise<Answer<'emails/send-batch'>> {
  const header = req.headers['x-batch-validation'];
  const mode = (Array.isArray(header) ? header[0] : header ?? 'strict').toLowerCase();
  if (mode !== 'strict' && mode !== 'permissive') {
    throw errors.validation('Invalid `x-batch-validation` header. Must be one of: strict, permissive.', 422);
  }
  const validate = await batchItemValidator();
  const sc = { teamId: req.auth!.teamId, restrictDomainId: req.auth!.domainId, source: 'batch' as const };
  const one = (item: unknown): string => {
    if (!validate(item)) throw toApiError(validate.errors, 'body');
    const email = item as SendEmailInput;
    if (email.attachments !== undefined) throw errors.validation('Attachments are not supported in batch emails.', 422);
    // Inside the batch's transaction, so the items before this one count too.
    checkEmailQuota(ctx, sc.teamId, recipientCount(email));
    return sendEmail(ctx, email, sc).id;
  };
  const result = withIdempotency(ctx, req, 'emails/send-batch', 200, () => {
    if (mode === 'strict') {
      return ctx.db.transaction(() => ({ data: req.body.map((item) => ({ id: one(item) })) }))();
    }
    const data: { id: string }[] = [];
    const errs: { index: number; message: string }[] = [];
    ctx.db.transaction(() => {
      req.body.forEach((item, index) => {
        try {
          data.push({ id: one(item) });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          errs.push({ index, message: err.message });
        }
      });
    })();
    return { data, errors: errs };
  });
  return withQuotaHeaders(ctx, req.auth!.teamId, result);
}

function listEmails(ctx: Emulator, req: Req<'emails/list'>): Answer<'emails/list'> {
  // The items' JSON comes from the emails store's cache of their unchanging parts.
  const page = pageEmails(ctx.db, req, { defaultLimit: 20, columns: LIST_PAGE_COLUMNS, map: (r: EmailRow) => r });
  return new JsonText(`{"object":"list","has_more":${page.has_more},"data":${listItemsJson(ctx, page.data)}}`);
}

function get(ctx: Emulator, req: Req<'emails/get'>): Answer<'emails/get'> {
  return toEmail(getEmailOr404(ctx, req.auth!.teamId, req.params.email_id));
}

function notScheduled(row: EmailRow, what: string): ApiError {
  return errors.validation(`Email \`${row.id}\` is \`${row.last_event}\`; only scheduled emails can be ${what}.`, 422);
}

/** PATCH /emails/{id} `{scheduled_at}`: moves a `scheduled` email's send job. */
function update(ctx: Emulator, req: Req<'emails/update'>): Answer<'emails/update'> {
  const row = getEmailOr404(ctx, req.auth!.teamId, req.params.email_id);
  if (row.last_event !== 'scheduled') throw notScheduled(row, 'updated');
  const now = ctx.clock.nowMs();
  const at = parseScheduledAt(req.body.scheduled_at, now);
  ctx.db.transaction(() => {
    emailSendJob.cancel(ctx, 'email_id', row.id);
    setScheduledAt(ctx, row.id, at);
    emailSendJob.schedule(ctx, { email_id: row.id }, { dueAt: Math.max(at, now), teamId: row.team_id });
  })();
  notifyEmail(ctx, row.id);
  return { object: 'email', id: row.id };
}

/** POST /emails/{id}/cancel: `scheduled` → `canceled` (final; API-FACTS §5.1). */
function cancel(ctx: Emulator, req: Req<'emails/cancel'>): Answer<'emails/cancel'> {
  const row = getEmailOr404(ctx, req.auth!.teamId, req.params.email_id);
  if (row.last_event !== 'scheduled') throw notScheduled(row, 'canceled');
  ctx.db.transaction(() => {
    emailSendJob.cancel(ctx, 'email_id', row.id);
    recordStep(ctx, row, 'canceled');
  })();
  return { object: 'email', id: row.id };
}

/**
 * POST /emails/{id}/share `{expires_in}` (≤ 48 h, default 48 h): a link to
 * the email in the emulator's admin API (emulator choice; nothing is stored).
 */
function share(ctx: Emulator, req: Req<'emails/share'>): Answer<'emails/share'> {
  const row = getEmailOr404(ctx, req.auth!.teamId, req.params.email_id);
  const ttl = req.body?.expires_in !== undefined ? parseDuration(req.body.expires_in) : SHARE_MAX_MS;
  if (ttl === null || ttl <= 0 || ttl > SHARE_MAX_MS) {
    throw errors.validation('Invalid `expires_in` field. Use a duration like `10m`, `2 hours` or `1 day`, at most 48 hours.', 422);
  }
  const expires = isoTime(ctx.clock.nowMs() + ttl)!;
  const token = randomBytes(16).toString('hex');
  return { object: 'email', id: row.id, url: `${ctx.config.baseUrl}/_emulator/emails/${row.id}?share=${token}&expires_at=${encodeURIComponent(expires)}` };
}

/**
 * The attachment shape of GET /emails/{id}/attachments[/{aid}] (API-FACTS §5.1).
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
    download_url: a.path ?? `${ctx.config.baseUrl}/_emulator/emails/${a.email_id}/attachments/${a.id}`,
    expires_at: isoTime(ctx.clock.nowMs() + DOWNLOAD_URL_TTL_MS)!,
    size: a.size,
  };
}

function listAttachments(ctx: Emulator, req: Req<'emails/list-attachments'>): Answer<'emails/list-attachments'> {
  const row = getEmailOr404(ctx, req.auth!.teamId, req.params.email_id);
  return paginate(ctx.db, { table: EMAIL_ATTACHMENTS, where: 'email_id = ?', params: [row.id], query: req.query, defaultLimit: null, map: (a: AttachmentRow) => toAttachment(ctx, a) });
}

function getAttachment(ctx: Emulator, req: Req<'emails/get-attachment'>): Answer<'emails/get-attachment'> {
  const row = getEmailOr404(ctx, req.auth!.teamId, req.params.email_id);
  const a = findEmailAttachment(ctx, row.id, req.params.attachment_id);
  if (!a) throw errors.notFound('Attachment');
  return { object: 'attachment', ...toAttachment(ctx, a) };
}

export const emailOperations = {
  'emails/send': send,
  'emails/send-batch': batch,
  'emails/list': listEmails,
  'emails/get': get,
  'emails/update': update,
  'emails/cancel': cancel,
  'emails/share': share,
  'emails/list-attachments': listAttachments,
  'emails/get-attachment': getAttachment,
} satisfies OperationHandlers;
