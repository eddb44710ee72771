/**
 * How mail enters and leaves an inbox (docs/reference/inboxes.md#inboxes-and-arriving-mail; docs/reference/inboxes.md#threading; docs/reference/inboxes.md#folders-and-read-state; docs/reference/inboxes.md#draft-rules; docs/reference/inboxes.md#reply-and-forward):
 * - `fileInbound`: a received message lands in every inbox of the team it
 *   was addressed to, in the thread it replies to or a new one;
 * - `sendFromInbox`: a reply, forward or sent draft goes through the emails
 *   resource's `sendEmail` (same validation, domain rules, suppression,
 *   lifecycle on the clock, `email.*` webhooks) and joins its thread.
 *
 * Threading (RFC 5322 §3.6.4): a message joins the thread of the inbox's
 * first email whose `Message-ID` is its `In-Reply-To`, else one of its
 * `References` (last to first); otherwise it starts a thread. Never by
 * subject.
 */
import type { Emulator, InboxRouter, ReceivedForInbox } from '../../context.js';
import { inboxMessages } from './messages.js';
import { contentTypeOf, newId } from '../../http/format.js';
import type { SchemaOf } from '../../http/document-types.js';
import { loadEmail, seedEmail, sendEmail, type SendEmailInput } from '../emails/service.js';
import { storeReceivedEmail } from '../receiving/service.js';
import { emitInboxEvent, threadEventData, toEventEmail } from './shapes.js';
import { messageIdsIn, threadEmail, type ThreadEmail } from './thread-emails.js';
import {
  findInboxMessage,
  findThread,
  inboxesForAddress,
  inboxesForReceivingAddress,
  insertInbox,
  insertMessage,
  insertThread,
  setThreadFolder,
  threadOfMessageId,
  touchThread,
  type Folder,
  type InboxRow,
  type StoredAttachment,
} from './store.js';

/** The thread of the inbox a message with these headers replies to, or undefined (see the top of this file). */
function threadRepliedTo(ctx: Emulator, inboxId: string, inReplyTo: string[], references: string[]): string | undefined {
  for (const id of inReplyTo) {
    const t = threadOfMessageId(ctx, inboxId, id);
    if (t) return t;
  }
  for (let i = references.length - 1; i >= 0; i--) {
    const t = threadOfMessageId(ctx, inboxId, references[i]);
    if (t) return t;
  }
  return undefined;
}

/**
 * Files a received email (just stored by the receiving resource for
 * `teamId`) in every inbox of the team that one of `receivedFor` addresses
 * (the inbox address or its `receiving_address`), once per inbox: the
 * thread email is that received email, by its id (docs/reference/inboxes.md#inbound-identity),
 * never a copy. A new thread starts in `inbox`; a reply joins its thread,
 * which becomes unread and returns to `inbox` from `sent` or `archive`
 * (spam and trash stay, docs/reference/inboxes.md#folders-and-read-state). Raises `inbox.thread.created`
 * (new thread) and `inbox.email.received`, source `system`. Synchronous:
 * call it inside the transaction that stores the received email. Returns the
 * ids of the inboxes it landed in.
 */
export function fileInbound(ctx: Emulator, teamId: string, receivedFor: string[], m: ReceivedForInbox): string[] {
  const inboxes = new Map<string, InboxRow>();
  for (const a of receivedFor) for (const inbox of inboxesForAddress(ctx, teamId, a)) inboxes.set(inbox.id, inbox);
  if (inboxes.size === 0) return [];
  const now = ctx.clock.nowMs();
  const inReplyTo = messageIdsIn(m.headers['in-reply-to']);
  const references = messageIdsIn(m.headers['references']);
  for (const inbox of inboxes.values()) {
    let threadId = threadRepliedTo(ctx, inbox.id, inReplyTo, references);
    let created = false;
    if (threadId === undefined) {
      threadId = newId();
      insertThread(ctx, { id: threadId, inbox_id: inbox.id, subject: m.subject, folder: 'inbox', created_at: now });
      created = true;
    }
    insertMessage(ctx, { id: m.id, inbox_id: inbox.id, thread_id: threadId, direction: 'inbound', message_id: m.messageId, read: 0, received_at: now });
    touchThread(ctx, threadId);
    const thread = findThread(ctx, inbox.id, threadId)!;
    if (!created && (thread.folder === 'sent' || thread.folder === 'archive')) {
      const from = thread.folder;
      setThreadFolder(ctx, threadId, 'inbox', now);
      // The SDK's folder event names only the movable folders: the automatic sent → inbox raises none.
      if (from === 'archive') emitInboxEvent(ctx, inbox, 'inbox.thread.folder.updated', 'system', () => ({ ...threadEventData(ctx, inbox.id, threadId!), from, to: 'inbox' }));
    }
    const emailData = () => ({ ...threadEventData(ctx, inbox.id, threadId!), ...eventEmail(ctx, inbox.id, m.id) });
    if (created) emitInboxEvent(ctx, inbox, 'inbox.thread.created', 'system', emailData);
    emitInboxEvent(ctx, inbox, 'inbox.email.received', 'system', emailData);
  }
  return [...inboxes.keys()];
}

/** `email_id` and `email` (SDK `InboxEventEmail`, read from the email) of the inbox's thread email. */
function eventEmail(ctx: Emulator, inboxId: string, emailId: string): { email_id: string; email?: ReturnType<typeof toEventEmail> } {
  const row = findInboxMessage(ctx, inboxId, emailId);
  const email = row ? threadEmail(ctx, row, false) : undefined;
  return email ? { email_id: emailId, email: toEventEmail(email) } : { email_id: emailId };
}

/** The inboxes as the receiving resource reaches them (`ctx.inboxes`, src/context.ts `InboxRouter`). */
export const inboxRouter: InboxRouter = {
  forwardingTeamOf: (ctx, address) => inboxesForReceivingAddress(ctx, address)[0]?.team_id ?? null,
  fileReceived: fileInbound,
};

/** Headers Resend sets itself on replies, forwards and sent drafts (SDK JSDoc of `headers`). */
const RESERVED_HEADERS = new Set(['in-reply-to', 'references', 'reply-to']);

/**
 * Checks the custom `headers` of a reply, forward or draft send (SDK JSDoc):
 * `In-Reply-To`, `References`, `Reply-To` in any case, an empty name, or a
 * CR, LF or NUL in a name or value → 422 `validation_error`. `null` = none.
 */
export function checkCustomHeaders(headers: Record<string, string> | null | undefined): Record<string, string> {
  if (!headers) return {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.trim() === '') throw inboxMessages.headerNameEmpty();
    if (/[\r\n\0]/.test(name) || /[\r\n\0]/.test(value)) throw inboxMessages.headerLineBreak(name.replace(/[\r\n\0]/g, ' '));
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw inboxMessages.headerReserved(name);
  }
  return headers;
}

/** Most files a reply or forward carries (SDK JSDoc). */
export const MAX_FILES = 10;
/** Most bytes of `content` a reply, forward or draft carries: 25 MB (SDK JSDoc). */
export const MAX_CONTENT_BYTES = 25 * 1024 * 1024;

/** An attachment as a reply, a forward or a draft takes it (the document's `AttachmentInput`, the shape of POST /emails after the SDK's `parseAttachments`). */
export type AttachmentInput = SchemaOf<'AttachmentInput'>;

/**
 * Checks one file (SDK JSDoc of `attachments`): empty `content` → 422
 * `invalid_attachment`; a `path` that is not an `http(s)` URL or points to
 * `localhost`, `127.0.0.1`, `0.0.0.0` or `[::1]` → 422 `invalid_attachment`.
 * Returns its decoded `content` bytes (0 for a `path`).
 */
export function checkAttachmentFile(a: AttachmentInput): number {
  if (a.content !== undefined) {
    const n = Buffer.from(a.content, 'base64').length;
    if (n === 0) throw inboxMessages.attachmentEmpty(a.filename ?? 'file');
    return n;
  }
  if (a.path !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(a.path);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || ['localhost', '127.0.0.1', '0.0.0.0', '[::1]'].includes(url.hostname)) {
      throw inboxMessages.attachmentPathRefused();
    }
  }
  return 0;
}

/**
 * Checks the attachments of a reply or forward against the SDK's limits: at
 * most 10 files, each file as `checkAttachmentFile`, at most 25 MB of
 * decoded `content`. Throws 422 `validation_error` naming `attachments`.
 */
export function checkAttachments(list: AttachmentInput[]): void {
  if (list.length > MAX_FILES) throw inboxMessages.tooManyAttachments(MAX_FILES, list.length);
  let bytes = 0;
  for (const a of list) bytes += checkAttachmentFile(a);
  if (bytes > MAX_CONTENT_BYTES) throw inboxMessages.attachmentsTooLarge();
}

/**
 * An attachment as stored on a thread email or a draft: `filename` as given,
 * else the last segment of its `path`; `size` the decoded `content` bytes
 * (null for a `path`, never fetched); `content_type` as given, else from the
 * file name (`contentTypeOf`, as POST /emails does).
 */
export function storedAttachment(a: AttachmentInput): StoredAttachment {
  const filename = a.filename ?? (a.path ? a.path.split(/[?#]/)[0].split('/').pop() || null : null);
  return {
    id: newId(),
    filename,
    size: a.content !== undefined ? Buffer.from(a.content, 'base64').length : null,
    content_type: a.content_type ?? contentTypeOf(filename),
    content: a.content ?? null,
    path: a.path ?? null,
  };
}

/** The address mail from the inbox is sent from: `"from_name <address>"` when `from_name` is set (docs/reference/inboxes.md#draft-rules). */
export function senderOf(inbox: InboxRow): string {
  return inbox.from_name ? `${inbox.from_name.replace(/["\\]/g, '')} <${inbox.email_address}>` : inbox.email_address;
}

/** What `sendFromInbox` sends. */
export interface OutboundMessage {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html?: string;
  text?: string;
  attachments: AttachmentInput[];
  headers: Record<string, string>;
  /** The email replied to (its Message-ID and References make the reply's headers), or null. */
  replyTo: ThreadEmail | null;
  /** The thread it joins, or null for a new thread (folder `sent`). */
  threadId: string | null;
}

/**
 * Sends a message from the inbox through the emails resource's `sendEmail`
 * (throws what it throws: unverified domain 403, bad address 422, …) and
 * adds it to its thread as an outbound, read email with the sent email's id
 * and Message-ID. A reply carries `In-Reply-To` (the replied Message-ID) and
 * `References` (its References, then its Message-ID). A new thread starts in
 * `sent`. Raises `inbox.thread.created` (new thread) and `inbox.email.sent`,
 * source `system`, unless `events` is false (a sent draft raises them after
 * `inbox.draft.sent`, through `emitSent`). Synchronous; call it in a
 * transaction. Returns the email id and thread id.
 */
export function sendFromInbox(ctx: Emulator, inbox: InboxRow, msg: OutboundMessage, events = true): { emailId: string; threadId: string; created: boolean } {
  const headers: Record<string, string> = { ...msg.headers };
  const refs: string[] = [];
  if (msg.replyTo?.message_id) {
    refs.push(...msg.replyTo.refs, msg.replyTo.message_id);
    headers['In-Reply-To'] = msg.replyTo.message_id;
    headers['References'] = refs.join(' ');
  }
  const input: SendEmailInput = {
    from: senderOf(inbox),
    to: msg.to,
    subject: msg.subject,
    ...(msg.cc.length ? { cc: msg.cc } : {}),
    ...(msg.bcc.length ? { bcc: msg.bcc } : {}),
    ...(msg.html !== undefined ? { html: msg.html } : {}),
    ...(msg.text !== undefined ? { text: msg.text } : {}),
    ...(msg.attachments.length ? { attachments: msg.attachments } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
  if (msg.to.length === 0) throw inboxMessages.noRecipient();
  const { id } = sendEmail(ctx, input, { teamId: inbox.team_id, source: 'api' });
  const sent = loadEmail(ctx, id)!;
  const now = ctx.clock.nowMs();
  let threadId = msg.threadId;
  let created = false;
  if (threadId === null || !findThread(ctx, inbox.id, threadId)) {
    threadId = newId();
    insertThread(ctx, { id: threadId, inbox_id: inbox.id, subject: msg.subject, folder: 'sent', created_at: now });
    created = true;
  }
  // The thread email is the sent email (same id): nothing of it is copied here.
  insertMessage(ctx, { id, inbox_id: inbox.id, thread_id: threadId, direction: 'outbound', message_id: sent.message_id, read: 1, received_at: now });
  touchThread(ctx, threadId);
  if (events) emitSent(ctx, inbox, threadId, id, created);
  return { emailId: id, threadId, created };
}

/** Raises `inbox.thread.created` (when `created`) and `inbox.email.sent` for an outbound thread email, source `system`. */
export function emitSent(ctx: Emulator, inbox: InboxRow, threadId: string, emailId: string, created: boolean): void {
  const data = () => ({ ...threadEventData(ctx, inbox.id, threadId), ...eventEmail(ctx, inbox.id, emailId) });
  if (created) emitInboxEvent(ctx, inbox, 'inbox.thread.created', 'system', data);
  emitInboxEvent(ctx, inbox, 'inbox.email.sent', 'system', data);
}

/** Who a reply goes to (docs/reference/inboxes.md#reply-and-forward): the replied email's `Reply-To`, else its author; when the inbox sent it, its `to`. */
export function replyRecipients(m: Pick<ThreadEmail, 'direction' | 'to' | 'reply_to' | 'from'>): string[] {
  if (m.direction === 'outbound') return m.to;
  return m.reply_to.length ? m.reply_to : [m.from];
}

/** `subject` with `prefix` (`Re:`/`Fwd:`) unless it already starts with it (case-insensitive). */
export function prefixed(prefix: 'Re:' | 'Fwd:', subject: string | null): string {
  const s = subject ?? '';
  return s.toLowerCase().startsWith(prefix.toLowerCase()) ? s : `${prefix} ${s}`.trim();
}

/** Folders a thread can be moved to by the API (SDK `MOVE_THREAD_FOLDERS`). */
export const MOVE_FOLDERS: readonly Folder[] = ['inbox', 'archive', 'spam', 'trash'];

/**
 * One inbox of the fixtures file (`inboxes[]`, docs/fixtures.md):
 * `{id, team_id, email_address, name?, from_name?, created_at?, threads?:
 * [{id, subject, folder?, emails: [{id, direction?, from, to, cc?, subject?,
 * text?, html?, message_id?, read?, received_at?}]}]}`. Its domain is the
 * team's domain of that name (seeded before it).
 */
export interface FixtureInbox {
  id: string;
  team_id: string;
  email_address: string;
  name?: string;
  from_name?: string | null;
  created_at?: string;
  threads?: {
    id: string;
    subject: string | null;
    folder?: Folder;
    emails: { id: string; direction?: 'inbound' | 'outbound'; from: string; to: string[]; cc?: string[]; subject?: string | null; text?: string | null; html?: string | null; message_id?: string | null; read?: boolean; received_at?: string }[];
  }[];
}

/**
 * Seeds one fixtures inbox with its threads (no events). Each thread email
 * is stored where its kind of email lives (one fact, one row: never a copy that could disagree): an
 * inbound one as a received email (`GET /emails/receiving`, its raw
 * message built from the fixture), an outbound one as a sent email
 * (`GET /emails`, `delivered`), then filed in its thread by id. Throws a
 * plain Error when its domain is not a domain of the team.
 */
export function seedInbox(ctx: Emulator, f: FixtureInbox, domainId: string | null): void {
  if (!domainId) throw new Error(`fixtures: inbox ${f.email_address}: its domain is not a domain of team ${f.team_id}`);
  const at = f.created_at ? Date.parse(f.created_at) : ctx.clock.nowMs();
  insertInbox(ctx, { id: f.id, team_id: f.team_id, domain_id: domainId, email_address: f.email_address, name: f.name ?? f.email_address, from_name: f.from_name ?? null, receiving_address: null, created_at: at, updated_at: at });
  for (const t of f.threads ?? []) {
    insertThread(ctx, { id: t.id, inbox_id: f.id, subject: t.subject, folder: t.folder ?? 'inbox', created_at: at });
    for (const m of t.emails) {
      const receivedAt = m.received_at ? Date.parse(m.received_at) : at;
      const direction = m.direction ?? 'inbound';
      const subject = m.subject ?? t.subject ?? '';
      let messageId: string | null;
      if (direction === 'inbound') {
        messageId = storeReceivedEmail(ctx, f.team_id, {
          from: m.from, to: m.to, ...(m.cc ? { cc: m.cc } : {}), subject, ...(m.text != null ? { text: m.text } : {}), ...(m.html != null ? { html: m.html } : {}),
          ...(m.message_id ? { message_id: m.message_id } : {}),
        }, { id: m.id, receivedFor: [f.email_address], atMs: receivedAt }).messageId;
      } else {
        messageId = seedEmail(ctx, {
          id: m.id, team_id: f.team_id, from: m.from, to: m.to, cc: m.cc ?? null, subject, html: m.html ?? null, text: m.text ?? null,
          message_id: m.message_id ?? null, created_at: new Date(receivedAt).toISOString(),
        }).message_id;
      }
      insertMessage(ctx, { id: m.id, inbox_id: f.id, thread_id: t.id, direction, message_id: messageId, read: m.read ? 1 : 0, received_at: receivedAt });
    }
  }
}
