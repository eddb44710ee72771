/**
 * Replies and forwards of a thread email (docs/reference/inboxes.md#thread-emails; docs/reference/inboxes.md#reply-and-forward): who a
 * reply goes to (`reply_all` adds the original's `to` and `cc`, never the
 * inbox itself), the forwarded-message banner, the original's files on a
 * forward; the message is then sent from the inbox into the thread
 * (`sendFromInbox`, mail.ts).
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import type { Req } from '../../http/document-types.js';
import { asList, bareAddress } from '../emails/service.js';
import { checkAttachments, checkCustomHeaders, prefixed, replyRecipients, sendFromInbox, type AttachmentInput, type OutboundMessage } from './mail.js';
import { threadEmailFiles, type ThreadEmail } from './thread-emails.js';
import type { InboxRow, ThreadRow } from './store.js';

/** Unique by bare address (case-insensitive), without the `exclude` addresses (the inbox's own); first spelling kept. */
export function uniqueRecipients(list: string[], exclude: string[] = []): string[] {
  const seen = new Set(exclude.map(bareAddress));
  return list.filter((a) => {
    const k = bareAddress(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** At most 50 recipients in `to`, `cc` and `bcc` together: 422 otherwise. */
function checkRecipientCount(to: string[], cc: string[], bcc: string[]): void {
  const n = to.length + cc.length + bcc.length;
  if (n > 50) throw inboxMessages.tooManyRecipients(n);
}

/** `&`, `<` and `>` as HTML entities: text put into an HTML body. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The forwarded-message banner and the original's text (docs/reference/inboxes.md#reply-and-forward, the documented example). */
export function forwardBodies(m: ThreadEmail, note: { html?: string; text?: string }): { html?: string; text: string } {
  const lines = ['---------- Forwarded message ---------', `From: ${m.from}`, `Date: ${new Date(m.received_at).toUTCString()}`, `Subject: ${m.subject ?? ''}`, `To: ${m.to.join(', ')}`];
  const text = [note.text ?? '', '', ...lines, '', m.text ?? ''].join('\n').replace(/^\n+/, '');
  const original = m.html ?? escapeHtml(m.text ?? '').replace(/\n/g, '<br>');
  const html = m.html !== null || note.html !== undefined ? `${note.html ?? escapeHtml(note.text ?? '')}<br><br>${lines.map(escapeHtml).join('<br>')}<br><br>${original}` : undefined;
  return { html, text };
}

/**
 * The reply to `original` as a message to send (nothing sent yet): to the
 * original's author (its `Reply-To` first), with `reply_all` its other
 * recipients too; subject `Re: <thread subject>` unless given. Throws 422:
 * neither `html` nor `text`, bad headers or attachments, over 50 recipients.
 */
export function replyMessage(inbox: InboxRow, thread: ThreadRow, original: ThreadEmail, b: Req<'inboxes/threads/emails/reply'>['body']): OutboundMessage {
  if (b.html === undefined && b.text === undefined) throw inboxMessages.replyBodyMissing();
  const headers = checkCustomHeaders(b.headers);
  const attachments = b.attachments ?? [];
  checkAttachments(attachments);
  const self = [inbox.email_address];
  let to = uniqueRecipients(replyRecipients(original), self);
  let cc = asList(b.cc);
  if (b.reply_all) {
    to = uniqueRecipients([...to, ...original.to], self);
    cc = uniqueRecipients([...original.cc, ...cc], [...self, ...to]);
  }
  const bcc = asList(b.bcc);
  checkRecipientCount(to, cc, bcc);
  return { to, cc, bcc, subject: b.subject ?? prefixed('Re:', thread.subject), html: b.html, text: b.text, attachments, headers, replyTo: original, threadId: thread.id };
}

/**
 * The forward of `original` as a message to send (nothing sent yet): the
 * banner and the original's bodies after the note, the original's files
 * then the given ones, subject `Fwd: <subject>` unless given. Throws 422:
 * an original file sent from a URL (`invalid_attachment`), bad headers or
 * attachments, over 50 recipients.
 */
export function forwardMessage(ctx: Emulator, thread: ThreadRow, original: ThreadEmail, b: Req<'inboxes/threads/emails/forward'>['body']): OutboundMessage {
  const headers = checkCustomHeaders(b.headers);
  const originals = threadEmailFiles(ctx, original);
  if (originals.some((a) => a.content === null)) {
    throw inboxMessages.forwardPathAttachment();
  }
  const attachments: AttachmentInput[] = [
    ...originals.map((a) => ({ content: a.content!, ...(a.filename ? { filename: a.filename } : {}), content_type: a.content_type })),
    ...(b.attachments ?? []),
  ];
  checkAttachments(attachments);
  const to = uniqueRecipients(asList(b.to));
  const cc = asList(b.cc);
  const bcc = asList(b.bcc);
  checkRecipientCount(to, cc, bcc);
  const bodies = forwardBodies(original, { html: b.html, text: b.text });
  return { to, cc, bcc, subject: b.subject ?? prefixed('Fwd:', original.subject ?? thread.subject), ...bodies, attachments, headers, replyTo: null, threadId: thread.id };
}

/** Sends a reply or forward from the inbox into its thread (one transaction); the sent email's id. */
export function sendInThread(ctx: Emulator, inbox: InboxRow, msg: OutboundMessage): string {
  return ctx.db.transaction(() => sendFromInbox(ctx, inbox, msg))().emailId;
}
