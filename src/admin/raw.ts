/**
 * The raw message of a sent email, as the service would have put it on the
 * wire (every email inspectable down to its bytes, docs/reference/design.md#contracts): built with
 * nodemailer's `MailComposer` (RFC 5322 / MIME by a well-kept library, not
 * by hand).
 *
 * Headers: From, To, Cc, Reply-To, Subject, Date, Message-ID (the email's
 * `message_id`), MIME-Version, and the custom headers given at send (a
 * broadcast email's `List-Unsubscribe` and `List-Unsubscribe-Post` are among
 * them, set by src/resources/broadcasts/jobs.ts). No Bcc header (Bcc
 * recipients are envelope-only, as on the wire).
 * Body: `multipart/alternative` of text and HTML when both are given;
 * attachments with a `content_id` are inline parts (`multipart/related` with
 * the HTML), the others `multipart/mixed` attachments. Attachments sent by
 * `path` are left out: the emulator never fetches them. An attachment
 * stored without a file name (a forwarded nameless inline image) is written
 * without `filename`/`name` parameters, as received.
 * Date: the emulated time of the email's `sent` event, else its
 * `scheduled_at`, else its `created_at`.
 */
import type MailComposerClass from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { requirePackage } from '../lazy.js';
import type { Emulator } from '../context.js';
import { attachmentsOf, eventsOf, headersOf, list, type EmailRow } from '../resources/emails/service.js';

/** Emulated ms the message is dated with (see the module comment). */
export function messageDate(ctx: Emulator, r: EmailRow): number {
  const sent = eventsOf(ctx, r.id).find((e) => e.type === 'sent');
  return sent?.at ?? r.scheduled_at ?? r.created_at;
}

/**
 * The email as an RFC 5322 message (`message/rfc822` bytes, CRLF line ends).
 * Rejects only if nodemailer fails to encode (not for any stored email).
 */
export async function rawMessage(ctx: Emulator, r: EmailRow): Promise<Buffer> {
  const cc = list(r.cc);
  const replyTo = list(r.reply_to);
  const attachments = attachmentsOf(ctx, r.id)
    .filter((a) => a.content !== null)
    .map((a): Mail.Attachment => ({
      // `false`: a nameless attachment stays nameless (nodemailer would otherwise invent `attachment-1.png`).
      filename: a.filename ?? false,
      content: Buffer.from(a.content!, 'base64'),
      contentType: a.content_type,
      ...(a.content_id ? { cid: a.content_id, contentDisposition: 'inline' as const } : {}),
    }));
  const MailComposer = requirePackage<typeof MailComposerClass>('nodemailer/lib/mail-composer');
  const composer = new MailComposer({
    from: r.from_addr,
    to: list(r.to_addrs),
    ...(cc.length ? { cc } : {}),
    ...(replyTo.length ? { replyTo } : {}),
    subject: r.subject,
    date: new Date(messageDate(ctx, r)),
    messageId: r.message_id,
    headers: headersOf(r),
    ...(r.text !== null ? { text: r.text } : {}),
    ...(r.html !== null ? { html: r.html } : {}),
    attachments,
  });
  return composer.compile().build();
}
