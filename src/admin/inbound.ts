/**
 * Admin API for received emails (spec/paths/admin-inbound.yaml; no auth):
 * | operationId | rule |
 * |---|---|
 * | admin/inbound | `POST /_emulator/inbound`: a raw message (`message/rfc822` or `text/plain`) or JSON fields `{from, to, cc?, bcc?, reply_to?, subject, html?, text?, headers?, message_id?, attachments?[{filename, content (base64), content_type?, content_id?, content_disposition?}]}` (composed to MIME first by nodemailer's MailComposer, so both go through one parser); `rcpt_to` query = envelope recipients; stored for each team whose domain receives for a recipient, `email.received` raised; → 201 `{object: "inbound", id, team_id, received_for, emails[]}`; no receiving domain → 422 `validation_error` naming the domains |
 * | admin/inbound-attachment | `GET /_emulator/inbound/attachments/{id}`: the attachment's bytes (its content type, `content-disposition` with the file name); unknown → 404 |
 * | admin/inbound-raw | `GET /_emulator/inbound/emails/{id}/raw`: the message as received, `message/rfc822`; unknown → 404 |
 * The download URLs do not expire (their `expires_at` is informative).
 */
import type { Emulator } from '../context.js';
import { errors } from '../http/errors.js';
import { isMailboxAddress } from '../http/addresses.js';
import { Reply, type ResourceModule } from '../module.js';
import { buildMime, givenParts, findAttachment, findEmail, parseAddressField, receiveMessage, receivedRaw } from '../resources/receiving/service.js';
import type { Answer, Req, OperationHandlers } from '../http/document-types.js';

/** Envelope recipients from `rcpt_to` (comma-separated), or `undefined`. Throws 422 for an entry that is not a bare address (`isMailboxAddress`, the rule of the `to` field it stands for). */
function envelopeFrom(query: Record<string, any>): string[] | undefined {
  if (query.rcpt_to === undefined) return undefined;
  const list = String(query.rcpt_to).split(',').map((a) => a.trim()).filter(Boolean);
  for (const a of list) if (!isMailboxAddress(a)) throw errors.validation(`Invalid \`rcpt_to\` address \`${a}\`.`, 422);
  return list;
}

async function inbound(ctx: Emulator, req: Req<'admin/inbound'>): Promise<Answer<'admin/inbound'>> {
  let raw: Buffer;
  let envelope = envelopeFrom(req.query);
  let given: ReturnType<typeof givenParts> | undefined;
  if (Buffer.isBuffer(req.body)) {
    if (req.body.length === 0) throw errors.validation('The request body is empty: send a raw message (message/rfc822) or JSON fields.', 422);
    raw = req.body;
  } else {
    const b = req.body;
    raw = (await buildMime(b, ctx.clock.nowMs())).raw;
    given = givenParts(b);
    if (!envelope) {
      envelope = [...parseAddressField('to', b.to), ...parseAddressField('cc', b.cc), ...parseAddressField('bcc', b.bcc)].map((m) => m.address);
    }
  }
  const copies = await receiveMessage(ctx, raw, envelope, given);
  return new Reply(201, { object: 'inbound', id: copies[0].id, team_id: copies[0].team_id, received_for: copies[0].received_for, emails: copies });
}

/**
 * A `content-disposition` value: `filename="x"` for printable-ASCII names
 * without `"` or `\`, RFC 5987 `filename*=UTF-8''…` (percent-encoded)
 * otherwise, so any name (non-ASCII, NUL, line breaks) makes a valid header.
 */
export function dispositionHeader(kind: 'inline' | 'attachment', filename: string): string {
  return /^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)
    ? `${kind}; filename="${filename}"`
    : `${kind}; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function attachment(ctx: Emulator, req: Req<'admin/inbound-attachment'>): Answer<'admin/inbound-attachment'> {
  const a = findAttachment(ctx, req.params.attachment_id);
  if (!a) throw errors.notFound('Attachment');
  return new Reply(200, Buffer.from(a.content, 'base64'), { 'content-disposition': dispositionHeader('attachment', a.filename ?? a.id) }, a.content_type);
}

async function raw(ctx: Emulator, req: Req<'admin/inbound-raw'>): Promise<Answer<'admin/inbound-raw'>> {
  const e = findEmail(ctx, req.params.email_id);
  if (!e) throw errors.notFound('Email');
  return new Reply(200, await receivedRaw(ctx, e), { 'content-disposition': dispositionHeader('attachment', `${e.id}.eml`) }, 'message/rfc822');
}

export const inboundModule: ResourceModule = {
  name: 'admin-inbound',
  operations: {
    'admin/inbound': inbound,
    'admin/inbound-attachment': attachment,
    'admin/inbound-raw': raw,
  } satisfies OperationHandlers,
};
