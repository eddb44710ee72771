/**
 * Received (inbound) emails (docs/reference/resources.md#received-emails; reference operationIds; SDK
 * `resend.emails.receiving`). Mail comes in through the admin API
 * (`POST /_emulator/inbound`, src/admin/inbound.ts → `receive.ts`).
 * | operationId | rule |
 * |---|---|
 * | emails/list-receiving | the team's received emails, newest first; items id, to, from, created_at, subject, bcc, cc, reply_to, received_for, message_id, attachments; all when `limit` is omitted (docs/reference/formats.md#page-size); times ISO `Z` |
 * | emails/get-receiving | adds `object: "email"`, html, text, headers, `raw` {download_url, expires_at}; `html_format` `data_uri` (default) inlines `cid:` images, `cid` keeps them; another team's email → 404 "Email not found" |
 * | emails/list-receiving-attachments | attachments in message order with `download_url` (admin URL serving the bytes) and `expires_at` (now + 1 h); all when `limit` is omitted; unknown email → 404 |
 * | emails/get-receiving-attachment | one attachment plus `object: "attachment"`; unknown → 404 "Attachment not found" |
 * Files: `store.ts` (tables), `mime.ts` (build/parse MIME), `receive.ts`
 * (routing to teams, `email.received`), `render.ts` (shapes).
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import {
  attachmentMeta, attachmentsOf, ATTACHMENT_META_COLUMNS, getEmailOr404, pageReceivedEmails, RECEIVED_ATTACHMENTS, RECEIVED_LIST_COLUMNS,
  type ReceivedAttachmentMeta, type ReceivedEmailListRow,
} from './store.js';
import { attachmentData, fullEmail, listItem } from './render.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

function list(ctx: Emulator, req: Req<'emails/list-receiving'>): Answer<'emails/list-receiving'> {
  return pageReceivedEmails(ctx.db, req, {
    defaultLimit: null,
    columns: RECEIVED_LIST_COLUMNS,
    map: (r: ReceivedEmailListRow) => listItem(r, attachmentsOf(ctx, r.id)),
  });
}

function get(ctx: Emulator, req: Req<'emails/get-receiving'>): Answer<'emails/get-receiving'> {
  const row = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  return fullEmail(ctx, row, attachmentsOf(ctx, row.id, true), req.query.html_format ?? 'data_uri');
}

function listAttachments(ctx: Emulator, req: Req<'emails/list-receiving-attachments'>): Answer<'emails/list-receiving-attachments'> {
  const email = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  return paginate(ctx.db, {
    table: RECEIVED_ATTACHMENTS,
    where: 'email_id = ? AND team_id = ?',
    params: [email.id, email.team_id],
    query: req.query,
    defaultLimit: null,
    columns: ATTACHMENT_META_COLUMNS,
    map: (a: ReceivedAttachmentMeta) => attachmentData(ctx, a, false),
  });
}

function getAttachment(ctx: Emulator, req: Req<'emails/get-receiving-attachment'>): Answer<'emails/get-receiving-attachment'> {
  const email = getEmailOr404(ctx, req.auth.teamId, req.params.email_id);
  const a = attachmentMeta(ctx, email.id, req.params.attachment_id);
  if (!a) throw errors.notFound('Attachment');
  return attachmentData(ctx, a, true);
}

/** The receiving operations, by operationId. */
export const operations = {
  'emails/list-receiving': list,
  'emails/get-receiving': get,
  'emails/list-receiving-attachments': listAttachments,
  'emails/get-receiving-attachment': getAttachment,
} satisfies OperationHandlers;
