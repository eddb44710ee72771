/**
 * A thread's emails as the inbox shows them (SDK `InboxMessage`), read from
 * where the emulator stores each email, never copied (so an inbox and the email lists can never disagree, "one fact,
 * one row"): an inbound thread email is the received email with its id
 * (the receiving resource's service), an outbound one the sent email with
 * its id (the emails resource's service). The inbox's own row
 * (`inbox_messages`, store.ts) adds only what belongs to the inbox: the
 * thread, `read`, and when the email joined it.
 *
 * A row whose email is no longer stored is not shown (not listed, 404 to
 * get, not counted in `email_count`), so the thread and the emails never
 * disagree (no operation deletes a received or
 * sent email today; reset and snapshot import replace every table at once).
 */
import type { Emulator } from '../../context.js';
import { attachmentMetaOfEmails, attachmentsOf as sentAttachmentsOf, emailsByIds, headersOf, list } from '../emails/service.js';
import { receivedAttachmentsOf, receivedAttachmentsOfEmails, receivedEmailsByIds } from '../receiving/service.js';
import type { MessageRow } from './store.js';

/** An attachment of a thread email as the inbox lists it (`size` in bytes, null for a sent `path` attachment, never fetched). */
export interface ThreadEmailAttachment {
  id: string;
  filename: string | null;
  size: number | null;
  content_type: string;
}

/** A thread email: its place in the inbox (`MessageRow`) and the email it is. Times in emulated ms. */
export interface ThreadEmail {
  id: string;
  inbox_id: string;
  thread_id: string;
  direction: 'inbound' | 'outbound';
  /** As written (`Name <a@b>` kept). */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string | null;
  /** With angle brackets. */
  message_id: string | null;
  /** The Message-IDs it answers (References, then an In-Reply-To not among them), oldest first. */
  refs: string[];
  /** Null unless read with bodies. */
  html: string | null;
  text: string | null;
  attachments: ThreadEmailAttachment[];
  read: boolean;
  received_at: number;
}

/** `<a@b>` message ids in a header value, in order. */
export function messageIdsIn(value: string | undefined | null): string[] {
  if (!value) return [];
  return value.match(/<[^<>\s]+>/g) ?? [];
}

/** A header's value by case-insensitive name, or undefined. */
function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** The Message-IDs an email with these headers answers: its References, then its In-Reply-To ids not among them. */
export function refsOf(headers: Record<string, string>): string[] {
  const references = messageIdsIn(header(headers, 'references'));
  const inReplyTo = messageIdsIn(header(headers, 'in-reply-to'));
  return [...references, ...inReplyTo.filter((x) => !references.includes(x))];
}

const parseList = (s: string | null): string[] => (s ? (JSON.parse(s) as string[]) : []);

/**
 * The thread emails of `rows` (an inbox's rows, in their order), each read
 * from its received or sent email: one query per kind for the emails, one
 * for their attachments. `bodies`: read `html` and `text` too (null
 * otherwise). Rows whose email is not stored are left out.
 */
export function threadEmails(ctx: Emulator, rows: readonly MessageRow[], bodies: boolean): ThreadEmail[] {
  if (rows.length === 0) return [];
  const inboundIds = [...new Set(rows.filter((r) => r.direction === 'inbound').map((r) => r.id))];
  const outboundIds = [...new Set(rows.filter((r) => r.direction === 'outbound').map((r) => r.id))];
  const attachments = new Map<string, ThreadEmailAttachment[]>();
  const addAttachment = (emailId: string, a: ThreadEmailAttachment) => {
    const listed = attachments.get(emailId);
    if (listed) listed.push(a);
    else attachments.set(emailId, [a]);
  };
  for (const a of receivedAttachmentsOfEmails(ctx, inboundIds)) addAttachment(a.email_id, { id: a.id, filename: a.filename, size: a.size, content_type: a.content_type });
  for (const a of attachmentMetaOfEmails(ctx, outboundIds)) addAttachment(a.email_id, { id: a.id, filename: a.filename, size: a.path !== null ? null : a.size, content_type: a.content_type });
  type Email = Omit<ThreadEmail, 'id' | 'inbox_id' | 'thread_id' | 'direction' | 'read' | 'received_at' | 'attachments'>;
  const inbound = new Map<string, Email>();
  for (const r of receivedEmailsByIds(ctx, inboundIds, bodies)) {
    inbound.set(r.id, {
      from: r.from_header, to: parseList(r.to_addresses), cc: parseList(r.cc_addresses), bcc: parseList(r.bcc_addresses), reply_to: parseList(r.reply_to_addresses),
      subject: r.subject, message_id: r.message_id, refs: refsOf(JSON.parse(r.headers) as Record<string, string>), html: r.html ?? null, text: r.text ?? null,
    });
  }
  const outbound = new Map<string, Email>();
  for (const r of emailsByIds(ctx, outboundIds, bodies)) {
    outbound.set(r.id, {
      from: r.from_addr, to: list(r.to_addrs), cc: list(r.cc), bcc: list(r.bcc), reply_to: list(r.reply_to),
      subject: r.subject, message_id: r.message_id, refs: refsOf(headersOf(r)), html: r.html ?? null, text: r.text ?? null,
    });
  }
  const out: ThreadEmail[] = [];
  for (const row of rows) {
    const email = (row.direction === 'inbound' ? inbound : outbound).get(row.id);
    if (!email) continue;
    out.push({
      id: row.id, inbox_id: row.inbox_id, thread_id: row.thread_id, direction: row.direction, ...email,
      attachments: attachments.get(row.id) ?? [], read: row.read === 1, received_at: row.received_at,
    });
  }
  return out;
}

/** One thread email (see `threadEmails`), or undefined when its email is not stored. */
export function threadEmail(ctx: Emulator, row: MessageRow, bodies: boolean): ThreadEmail | undefined {
  return threadEmails(ctx, [row], bodies)[0];
}

/** A file of a thread email with its content (base64; null for a sent `path` attachment, with its `path`). */
export interface ThreadEmailFile {
  filename: string | null;
  content_type: string;
  content: string | null;
  path: string | null;
}

/** The files of a thread email with their contents, in message order: what a forward sends again. */
export function threadEmailFiles(ctx: Emulator, email: Pick<ThreadEmail, 'id' | 'direction'>): ThreadEmailFile[] {
  if (email.direction === 'inbound') {
    return receivedAttachmentsOf(ctx, email.id, true).map((a) => ({ filename: a.filename, content_type: a.content_type, content: a.content, path: null }));
  }
  return sentAttachmentsOf(ctx, email.id).map((a) => ({ filename: a.filename, content_type: a.content_type, content: a.content, path: a.path }));
}
