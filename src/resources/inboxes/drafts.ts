/**
 * An inbox's drafts (docs/reference/inboxes.md#drafts; docs/reference/inboxes.md#draft-rules): standalone or reply
 * drafts (`thread_id` with `reply_to_email_id`), at least one non-empty
 * field, at most 50 recipients, files checked as on a reply (25 MB in all);
 * a second unsent reply draft for an email is the first; sending one sends
 * it from the inbox (a reply into its thread) and it leaves the list; a
 * sent draft can be neither edited nor sent again (409).
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import { newId } from '../../http/format.js';
import type { Req, SchemaOf } from '../../http/document-types.js';
import { asList, parseAddress } from '../emails/service.js';
import { checkAttachmentFile, emitSent, prefixed, replyRecipients, sendFromInbox, storedAttachment, MAX_CONTENT_BYTES, type AttachmentInput } from './mail.js';
import { uniqueRecipients } from './replies.js';
import { attachmentsOfDraft, emitInboxEvent, threadEventData, toEventDraft, toEventEmail, type InboxEventSource } from './shapes.js';
import { threadEmail, type ThreadEmail } from './thread-emails.js';
import { messageOr404, threadOr404 } from './threads.js';
import {
  deleteDraft,
  findDraft,
  findInboxMessage,
  findMessage,
  findThread,
  insertDraft,
  markDraftSent,
  unsentReplyDraft,
  updateDraft,
  type DraftRow,
  type InboxRow,
  type StoredAttachment,
} from './store.js';

/** The inbox's draft, or 404 `Draft not found.` */
export function draftOr404(ctx: Emulator, inbox: InboxRow, id: string): DraftRow {
  const d = findDraft(ctx, inbox.id, id);
  if (!d) throw inboxMessages.draftNotFound();
  return d;
}

/** Draft attachments as stored (`storedAttachment`): each file checked as on a reply (`checkAttachmentFile`), at most 25 MB of `content` in all (docs/reference/inboxes.md#draft-rules). */
function draftAttachments(list: AttachmentInput[]): StoredAttachment[] {
  let bytes = 0;
  for (const a of list) bytes += checkAttachmentFile(a);
  if (bytes > MAX_CONTENT_BYTES) throw inboxMessages.draftFilesTooLarge();
  return list.map(storedAttachment);
}

/** Whether a draft has at least one non-empty field (a recipient, a file, a subject or a body). */
const nonEmpty = (d: Pick<DraftRow, 'to_addrs' | 'cc' | 'bcc' | 'subject' | 'html' | 'text' | 'attachments'>): boolean =>
  [d.to_addrs, d.cc, d.bcc, d.attachments].some((j) => j !== null && (JSON.parse(j) as unknown[]).length > 0) || [d.subject, d.html, d.text].some((s) => s !== null && s !== '');

/** A recipient field as stored: a JSON array, or null when not given. */
const listOrNull = (v: string | string[] | null | undefined): string | null => (v === null || v === undefined ? null : JSON.stringify(asList(v)));

/** At most 50 recipients, each an address: 422 otherwise. */
function checkDraftRecipients(d: Pick<DraftRow, 'to_addrs' | 'cc' | 'bcc'>): void {
  const all = [d.to_addrs, d.cc, d.bcc].flatMap((j) => (j === null ? [] : (JSON.parse(j) as string[])));
  if (all.length > 50) throw inboxMessages.draftTooManyRecipients(all.length);
  for (const a of all) if (!parseAddress(a)) throw inboxMessages.draftInvalidRecipient(a);
}

/** The draft events' `draft_id`, `draft` and (reply drafts) `thread_id`, `thread` (SDK `InboxDraftEventData`). */
function draftEventData(ctx: Emulator, inbox: InboxRow, draft: DraftRow): Record<string, unknown> {
  const d = findDraft(ctx, inbox.id, draft.id);
  return { ...(draft.thread_id ? threadEventData(ctx, inbox.id, draft.thread_id) : {}), draft_id: draft.id, ...(d ? { draft: toEventDraft(ctx, d) } : {}) };
}

/** What a draft is created from (the API's body, or the agent hook's): the document's `CreateDraftBody`. */
export type DraftInput = SchemaOf<'CreateDraftBody'>;

/**
 * Creates a draft (the API and the agent hook). A reply draft without `to`
 * goes to the replied email's author (docs/reference/inboxes.md#draft-rules). A second unsent
 * reply draft for the same email returns the first (`existing: true`).
 * Raises `inbox.draft.created`. Throws 404 thread/email, 422 rules.
 */
export function createDraft(ctx: Emulator, inbox: InboxRow, b: DraftInput, source: InboxEventSource): { draft: DraftRow; existing: boolean } {
  if ((b.thread_id === undefined) !== (b.reply_to_email_id === undefined)) {
    throw inboxMessages.draftReplyFieldsApart();
  }
  let replied: ThreadEmail | null = null;
  if (b.thread_id !== undefined) {
    const thread = threadOr404(ctx, inbox, b.thread_id);
    replied = messageOr404(ctx, thread, b.reply_to_email_id!);
    const existing = unsentReplyDraft(ctx, inbox.id, thread.id, replied.id);
    if (existing) return { draft: existing, existing: true };
  }
  const now = ctx.clock.nowMs();
  const row: Omit<DraftRow, 'seq' | 'activity'> = {
    id: newId(), inbox_id: inbox.id, type: replied ? 'reply' : 'standalone',
    to_addrs: listOrNull(b.to), cc: listOrNull(b.cc) ?? '[]', bcc: listOrNull(b.bcc) ?? '[]', subject: b.subject ?? null, html: b.html ?? null, text: b.text ?? null,
    thread_id: b.thread_id ?? null, reply_to_email_id: b.reply_to_email_id ?? null, email_id: null,
    attachments: JSON.stringify(draftAttachments(b.attachments ?? [])), created_at: now, updated_at: now,
  };
  if (!nonEmpty(row)) throw inboxMessages.draftEmpty();
  if (replied && (row.to_addrs === null || row.to_addrs === '[]')) row.to_addrs = JSON.stringify(uniqueRecipients(replyRecipients(replied), [inbox.email_address]));
  checkDraftRecipients(row);
  return ctx.db.transaction(() => {
    insertDraft(ctx, row);
    const draft = findDraft(ctx, inbox.id, row.id)!;
    emitInboxEvent(ctx, inbox, 'inbox.draft.created', source, () => draftEventData(ctx, inbox, draft));
    return { draft, existing: false };
  })();
}

/**
 * Changes the given fields of an unsent draft and raises
 * `inbox.draft.updated`; it becomes the inbox's most recently updated.
 * Throws 409 when sent, 422 for no field, an emptied draft, recipients or files.
 */
export function editDraft(ctx: Emulator, inbox: InboxRow, draft: DraftRow, b: Req<'inboxes/drafts/update'>['body']): void {
  if (draft.email_id !== null) throw inboxMessages.draftAlreadySent();
  if (Object.keys(b).length === 0) throw inboxMessages.draftUpdateEmpty();
  const next = {
    id: draft.id,
    to_addrs: b.to !== undefined ? listOrNull(b.to) : draft.to_addrs,
    cc: b.cc !== undefined ? listOrNull(b.cc) ?? '[]' : draft.cc,
    bcc: b.bcc !== undefined ? listOrNull(b.bcc) ?? '[]' : draft.bcc,
    subject: b.subject !== undefined ? b.subject : draft.subject,
    html: b.html !== undefined ? b.html : draft.html,
    text: b.text !== undefined ? b.text : draft.text,
    attachments: b.attachments !== undefined ? JSON.stringify(draftAttachments(b.attachments ?? [])) : draft.attachments,
    updated_at: ctx.clock.nowMs(),
  };
  if (!nonEmpty(next)) throw inboxMessages.draftEmpty();
  checkDraftRecipients(next);
  ctx.db.transaction(() => {
    updateDraft(ctx, next);
    emitInboxEvent(ctx, inbox, 'inbox.draft.updated', 'api', () => draftEventData(ctx, inbox, draft));
  })();
}

/** Deletes a draft and raises `inbox.draft.deleted`. */
export function removeDraft(ctx: Emulator, inbox: InboxRow, draft: DraftRow): void {
  ctx.db.transaction(() => {
    deleteDraft(ctx, draft.id);
    emitInboxEvent(ctx, inbox, 'inbox.draft.deleted', 'api', () => ({ ...(draft.thread_id ? threadEventData(ctx, inbox.id, draft.thread_id) : {}), draft_id: draft.id }));
  })();
}

/**
 * Sends a draft from the inbox (a reply draft into its thread, subject
 * `Re: <thread subject>` when it has none), marks it sent and raises
 * `inbox.draft.sent`, then the sent events (one transaction). Returns the
 * email's id. Throws 409 when already sent, 422 without a recipient, and
 * what `sendFromInbox` throws.
 */
export function sendDraft(ctx: Emulator, inbox: InboxRow, draft: DraftRow, headers: Record<string, string>): string {
  if (draft.email_id !== null) throw inboxMessages.draftAlreadySent();
  const to = draft.to_addrs === null ? [] : (JSON.parse(draft.to_addrs) as string[]);
  if (to.length === 0) throw inboxMessages.draftNoRecipient();
  const thread = draft.thread_id ? findThread(ctx, inbox.id, draft.thread_id) ?? null : null;
  const repliedRow = thread && draft.reply_to_email_id ? findMessage(ctx, thread.id, draft.reply_to_email_id) : undefined;
  const replied = repliedRow ? threadEmail(ctx, repliedRow, false) ?? null : null;
  const atts: AttachmentInput[] = attachmentsOfDraft(draft).map((a) => ({
    ...(a.content !== null ? { content: a.content } : { path: a.path! }), ...(a.filename ? { filename: a.filename } : {}), content_type: a.content_type,
  }));
  return ctx.db.transaction(() => {
    const sent = sendFromInbox(ctx, inbox, {
      to, cc: JSON.parse(draft.cc), bcc: JSON.parse(draft.bcc),
      subject: draft.subject ?? (thread ? prefixed('Re:', thread.subject) : ''),
      ...(draft.html !== null ? { html: draft.html } : {}), ...(draft.text !== null ? { text: draft.text } : {}),
      attachments: atts, headers, replyTo: replied, threadId: thread?.id ?? null,
    }, false);
    markDraftSent(ctx, draft.id, sent.emailId, sent.threadId, ctx.clock.nowMs());
    const sentDraft = findDraft(ctx, inbox.id, draft.id)!;
    emitInboxEvent(ctx, inbox, 'inbox.draft.sent', 'api', () => ({
      ...threadEventData(ctx, inbox.id, sent.threadId), email_id: sent.emailId, email: toEventEmail(threadEmail(ctx, findInboxMessage(ctx, inbox.id, sent.emailId)!, false)!), draft_id: draft.id, draft: toEventDraft(ctx, sentDraft),
    }));
    emitSent(ctx, inbox, sent.threadId, sent.emailId, sent.created);
    return sent.emailId;
  })();
}
