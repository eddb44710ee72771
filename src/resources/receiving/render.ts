/**
 * The shapes of received emails and their attachments as the API shows them
 * (reference document schemas ListReceivedEmailsResponse,
 * GetReceivedEmailResponse, RetrievedAttachment; SDK types
 * GetReceivingEmailResponseSuccess, InboundAttachment, AttachmentData).
 * Times are ISO 8601 `Z` (docs/reference/resources.md#received-emails).
 */
import type { Emulator } from '../../context.js';
import { isoTime } from '../../http/format.js';
import type { ReceivedAttachmentMeta, ReceivedAttachmentRow, ReceivedEmailListRow, ReceivedEmailRow } from './store.js';
import type { ResponseBody, ListItem } from '../../http/document-types.js';

/** How long a download URL is said to be valid, in emulated ms (1 hour; not enforced). */
export const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;

/** The admin URL that serves an attachment's bytes. */
export function attachmentUrl(ctx: Emulator, attachmentId: string): string {
  return `${ctx.runtime.baseUrl}/_emulator/inbound/attachments/${attachmentId}`;
}

/** The admin URL that serves the message as received (`message/rfc822`). */
export function rawUrl(ctx: Emulator, emailId: string): string {
  return `${ctx.runtime.baseUrl}/_emulator/inbound/emails/${emailId}/raw`;
}

/** Attachment metadata embedded in a received email: nullable fields stay `null`. */
export function embeddedAttachment(a: ReceivedAttachmentMeta) {
  return {
    id: a.id,
    filename: a.filename,
    size: a.size,
    content_type: a.content_type,
    content_id: a.content_id,
    content_disposition: a.content_disposition,
  };
}

/**
 * An attachment as the attachment endpoints show it: `filename`/`content_id`
 * left out when absent, `content_disposition` `attachment` unless `inline`,
 * `download_url` to the admin API, `expires_at` = now + 1 h.
 */
export function attachmentData(ctx: Emulator, a: ReceivedAttachmentMeta, withObject: true): ResponseBody<'emails/get-receiving-attachment'>;
export function attachmentData(ctx: Emulator, a: ReceivedAttachmentMeta, withObject: false): ListItem<'emails/list-receiving-attachments'>;
export function attachmentData(ctx: Emulator, a: ReceivedAttachmentMeta, withObject: boolean): ListItem<'emails/list-receiving-attachments'> {
  return {
    ...(withObject ? { object: 'attachment' } : {}),
    id: a.id,
    ...(a.filename !== null ? { filename: a.filename } : {}),
    size: a.size,
    content_type: a.content_type,
    content_disposition: a.content_disposition === 'inline' ? 'inline' : 'attachment',
    ...(a.content_id !== null ? { content_id: a.content_id } : {}),
    download_url: attachmentUrl(ctx, a.id),
    expires_at: isoTime(ctx.clock.nowMs() + DOWNLOAD_URL_TTL_MS),
  };
}

/** A list item: no html, text, headers or object. */
export function listItem(row: ReceivedEmailListRow, attachments: ReceivedAttachmentMeta[]) {
  return {
    id: row.id,
    to: JSON.parse(row.to_addresses) as string[],
    from: row.from_header,
    created_at: isoTime(row.created_at),
    subject: row.subject,
    bcc: JSON.parse(row.bcc_addresses) as string[],
    cc: JSON.parse(row.cc_addresses) as string[],
    reply_to: JSON.parse(row.reply_to_addresses) as string[],
    received_for: JSON.parse(row.received_for) as string[],
    message_id: row.message_id,
    attachments: attachments.map(embeddedAttachment),
  };
}

/**
 * Replaces `cid:<content_id>` references in `html` with `data:` URIs of the
 * matching attachments (the SDK's `html_format: 'data_uri'`, its default).
 */
export function inlineImages(html: string, attachments: ReceivedAttachmentRow[]): string {
  const byCid = new Map(attachments.filter((a) => a.content_id).map((a) => [a.content_id!, a]));
  if (byCid.size === 0) return html;
  return html.replace(/cid:([^"'\s)>]+)/gi, (match, cid: string) => {
    let key = cid;
    try {
      key = decodeURIComponent(cid);
    } catch {
      /* keep as written */
    }
    const a = byCid.get(key) ?? byCid.get(cid);
    return a ? `data:${a.content_type};base64,${a.content}` : match;
  });
}

/** The single email: the list fields plus `object`, html, text, headers and `raw`. */
export function fullEmail(ctx: Emulator, row: ReceivedEmailRow, attachments: ReceivedAttachmentRow[], htmlFormat: 'data_uri' | 'cid'): ResponseBody<'emails/get-receiving'> {
  const item = listItem(row, attachments);
  return {
    object: 'email',
    id: item.id,
    to: item.to,
    from: item.from,
    created_at: item.created_at,
    subject: item.subject,
    bcc: item.bcc,
    cc: item.cc,
    reply_to: item.reply_to,
    received_for: item.received_for,
    html: row.html !== null && htmlFormat === 'data_uri' ? inlineImages(row.html, attachments) : row.html,
    text: row.text,
    headers: JSON.parse(row.headers) as Record<string, string>,
    message_id: item.message_id,
    raw: { download_url: rawUrl(ctx, row.id), expires_at: isoTime(ctx.clock.nowMs() + DOWNLOAD_URL_TTL_MS) },
    attachments: item.attachments,
  };
}
