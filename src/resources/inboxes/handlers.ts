/**
 * Inboxes (INBOXES-FACTS §3; resend@6.38 `resend.inboxes.*`). Every route
 * under `/inboxes/{inbox}` takes the inbox id or its address
 * (case-insensitive); another team's inbox is 404 `Inbox not found.`.
 * | operationId | rule |
 * |---|---|
 * | inboxes/create | address on a verified domain of the team that receives mail, or `forwarding: true` (then `receiving_address` is provisioned); else 422 naming `email_address`; an address already an inbox → 422; `name` defaults to the address → 201 `{object, id}`; `inbox.created` |
 * | inboxes/list, get | `Inbox` / `GetInboxResponseSuccess`; `unread` = unread threads in `inbox`, `drafts` = unsent drafts |
 * | inboxes/update | `name` and/or `from_name` (422 when neither); `inbox.updated` |
 * | inboxes/remove | deletes threads, drafts, labels, agent settings (the received and sent emails its threads referenced stay); `inbox.deleted` |
 * | inboxes/threads/list, search | `folders` default `inbox` (`inbox,archive,sent` with `labels`); unknown label → 404 `Label "<id>" not found.`; search: every word of `query` (`"phrase"`, `-word`) and every filter must match one email; `matched_email_id` = newest matching email |
 * | inboxes/threads/get, update, remove | update: `read` marks every email, `folder` moves (`inbox.thread.folder.updated`); remove moves to `trash` (`deleted: false` when already there) |
 * | inboxes/threads/emails/* | each is the received or sent email with its id, read from there (thread-emails.ts); list oldest first (`paginate` with the thread's order); reply/forward send from the inbox (mail.ts) → 201 `{id}` (the email's id) |
 * | inboxes/threads/labels/* | add (1-10), set (replace), remove (no-op when absent); one `inbox.thread.labels.updated` per label changed |
 * | inboxes/labels/* | `#RRGGBB`, random when omitted; name unique in the inbox (case-insensitive), at most 100 → 422 |
 * | inboxes/drafts/* | ≥1 non-empty field; `thread_id` with `reply_to_email_id`; a second reply draft for an email returns the first (200); send → `{id}` of the email; sent draft: update 409, send 409 |
 * | inboxes/agent/* | settings stored and returned; the emulator runs no agent |
 */
import type { Emulator } from '../../context.js';
import { Reply } from '../../module.js';
import { ApiError, errors } from '../../http/errors.js';
import { newId } from '../../http/format.js';
import { withIdempotency } from '../../http/idempotency.js';
import { DELAYS } from '../../clock/delays.js';
import { purgeThreadJob } from './jobs.js';
import type { Answer, Req, OperationHandlers, SchemaOf } from '../../http/document-types.js';
import { capabilitiesOf, domainIdByName, findTeamDomain } from '../domains/service.js';
import { asList, bareAddress, parseAddress } from '../emails/service.js';
import {
  checkAttachmentFile,
  checkAttachments,
  checkCustomHeaders,
  emitSent,
  prefixed,
  replyRecipients,
  sendFromInbox,
  storedAttachment,
  MAX_CONTENT_BYTES,
  type AttachmentInput,
} from './mail.js';
import { threadEmail, threadEmailFiles, threadEmails, type ThreadEmail } from './thread-emails.js';
import {
  agentSettings,
  attachmentsOfDraft,
  emitInboxEvent,
  threadEventData,
  threadLabelList,
  toDraft,
  toDraftItem,
  toEventDraft,
  toEventEmail,
  toInboxDetail,
  toInboxItem,
  toLabel,
  toMessage,
  toThreadItem,
  toThreadLabel,
  toThreadSummary,
  type InboxEventSource,
} from './shapes.js';
import {
  addThreadLabel,
  deleteDraft,
  deleteInbox,
  deleteLabel,
  findDraft,
  findInbox,
  findInboxMessage,
  findLabel,
  findLabelByName,
  findMessage,
  findThread,
  insertDraft,
  insertInbox,
  insertLabel,
  listLabels,
  markDraftSent,
  pageDrafts,
  pageInboxes,
  pageThreadMessages,
  pageThreads,
  removeThreadLabel,
  saveAgent,
  setThreadFolder,
  setThreadRead,
  threadLabels,
  threadMessages,
  threadsMatching,
  unsentReplyDraft,
  updateDraft,
  updateInbox,
  updateLabel,
  type DraftRow,
  type Folder,
  type InboxRow,
  type LabelRow,
  type StoredAttachment,
  type ThreadRow,
} from './store.js';

/** The domain of forwarding addresses (`receiving_address`, INBOXES-FACTS §10.7). */
const FORWARDING_DOMAIN = 'inbound.resend-emulator.localhost';

const teamOf = (req: { auth: { teamId: string } | null }) => req.auth!.teamId;

/** `from_name` is a plain display name, never `Name <email>` (INBOXES-FACTS §3.1): 422 naming the field otherwise. */
function checkFromName(v: string | undefined): void {
  if (v !== undefined && /[<>@\r\n]/.test(v)) throw errors.validation('The `from_name` field must be a plain name, such as `Acme Support`, without an email address.', 422);
}

/** The team's inbox named by id or address, or 404 `Inbox not found.` (INBOXES-FACTS §7). */
export function inboxOr404(ctx: Emulator, teamId: string, idOrEmail: string): InboxRow {
  const row = findInbox(ctx, teamId, idOrEmail);
  if (!row) throw new ApiError(404, 'not_found', 'Inbox not found.');
  return row;
}

/** The inbox's thread, or 404 `Thread not found.` ([GUESS] text, INBOXES-FACTS §7). */
export function threadOr404(ctx: Emulator, inbox: InboxRow, id: string): ThreadRow {
  const t = findThread(ctx, inbox.id, id);
  if (!t) throw new ApiError(404, 'not_found', 'Thread not found.');
  return t;
}

/** The thread's email, read from the email it is (with its bodies), or 404 `Email not found.` ([GUESS] text). */
function messageOr404(ctx: Emulator, thread: ThreadRow, id: string): ThreadEmail {
  const row = findMessage(ctx, thread.id, id);
  const m = row ? threadEmail(ctx, row, true) : undefined;
  if (!m) throw new ApiError(404, 'not_found', 'Email not found.');
  return m;
}

function labelOr404(ctx: Emulator, inbox: InboxRow, id: string, quoted = false): LabelRow {
  const l = findLabel(ctx, inbox.id, id);
  if (!l) throw new ApiError(404, 'not_found', quoted ? `Label "${id}" not found.` : 'Label not found.');
  return l;
}

function draftOr404(ctx: Emulator, inbox: InboxRow, id: string): DraftRow {
  const d = findDraft(ctx, inbox.id, id);
  if (!d) throw new ApiError(404, 'not_found', 'Draft not found.');
  return d;
}

// --- inboxes ---

function create(ctx: Emulator, req: Req<'inboxes/create'>): Answer<'inboxes/create'> {
  const teamId = teamOf(req);
  const b = req.body;
  checkFromName(b.from_name);
  const parsed = parseAddress(b.email_address);
  if (!parsed || parsed.name !== null) {
    throw errors.validation('Invalid `email_address` field. The email address needs to follow the `email@example.com` format.', 422);
  }
  const domainId = domainIdByName(ctx, teamId, parsed.domain);
  const domain = domainId ? findTeamDomain(ctx, teamId, domainId) : null;
  if (!domain) throw errors.validation(`The \`email_address\` domain \`${parsed.domain}\` is not a domain of this team. Add and verify it first.`, 422);
  if (domain.status !== 'verified') throw errors.validation(`The \`email_address\` domain \`${parsed.domain}\` is not verified. Please, verify your domain.`, 422);
  if (capabilitiesOf(domain).receiving !== 'enabled' && b.forwarding !== true) {
    throw errors.validation(`The \`email_address\` domain \`${parsed.domain}\` does not receive emails. Enable receiving on it, or create the inbox with \`forwarding: true\`.`, 422);
  }
  if (findInbox(ctx, teamId, parsed.address)) throw errors.validation(`The \`email_address\` \`${parsed.address}\` is already an inbox.`, 422);
  const id = newId();
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    const row = insertInbox(ctx, {
      id, team_id: teamId, domain_id: domain.id, email_address: parsed.address, name: b.name ?? parsed.address, from_name: b.from_name ?? null,
      receiving_address: b.forwarding === true ? `${id}@${FORWARDING_DOMAIN}` : null, created_at: now, updated_at: now,
    });
    emitInboxEvent(ctx, row, 'inbox.created', 'api', () => ({ inbox: toInboxDetail(ctx, row) }));
  })();
  return { object: 'inbox', id };
}

function list(ctx: Emulator, req: Req<'inboxes/list'>): Answer<'inboxes/list'> {
  return pageInboxes(ctx.db, req, { defaultLimit: 20, map: (r) => toInboxItem(ctx, r) });
}

function get(ctx: Emulator, req: Req<'inboxes/get'>): Answer<'inboxes/get'> {
  return toInboxDetail(ctx, inboxOr404(ctx, teamOf(req), req.params.inbox));
}

function update(ctx: Emulator, req: Req<'inboxes/update'>): Answer<'inboxes/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const b = req.body;
  if (b.name === undefined && b.from_name === undefined) throw errors.missingField('name` or `from_name');
  checkFromName(b.from_name);
  ctx.db.transaction(() => {
    updateInbox(ctx, inbox.id, b.name ?? inbox.name, b.from_name !== undefined ? b.from_name : inbox.from_name, ctx.clock.nowMs());
    emitInboxEvent(ctx, inbox, 'inbox.updated', 'api', () => ({ inbox: toInboxDetail(ctx, findInbox(ctx, inbox.team_id, inbox.id)!) }));
  })();
  return { object: 'inbox', id: inbox.id };
}

function remove(ctx: Emulator, req: Req<'inboxes/remove'>): Answer<'inboxes/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  ctx.db.transaction(() => {
    deleteInbox(ctx, inbox.id);
    emitInboxEvent(ctx, inbox, 'inbox.deleted', 'api');
  })();
  return { object: 'inbox', id: inbox.id, deleted: true };
}

// --- threads ---

const FOLDER_SET = new Set(['inbox', 'archive', 'spam', 'sent', 'trash']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `folders`, `labels` and `read` filters of a thread list (INBOXES-FACTS §6.3, §7).
 * Throws 422 with the documented texts: ``The `folders` value "drafts" must be one of: …``,
 * ``The `labels` parameter must contain at most 50 label IDs, but received 60.``,
 * ``The `labels` value "billing" must be a valid UUID.``; 404 ``Label "<id>" not found.``
 */
function threadFilter(ctx: Emulator, inbox: InboxRow, q: { folders?: string; labels?: string; read?: string }) {
  const given = q.labels?.split(',');
  if (given && given.length > 50) throw errors.validation(`The \`labels\` parameter must contain at most 50 label IDs, but received ${given.length}.`, 422);
  for (const id of given ?? []) if (!UUID.test(id)) throw errors.validation(`The \`labels\` value "${id}" must be a valid UUID.`, 422);
  const labels = given ? [...new Set(given)] : undefined;
  const folders = q.folders ? [...new Set(q.folders.split(','))] : labels ? ['inbox', 'archive', 'sent'] : ['inbox'];
  for (const f of folders) if (!FOLDER_SET.has(f)) throw errors.validation(`The \`folders\` value "${f}" must be one of: inbox, archive, spam, sent, trash.`, 422);
  for (const id of labels ?? []) labelOr404(ctx, inbox, id, true);
  return { folders: folders as Folder[], labels, read: q.read === undefined ? undefined : q.read === 'true' };
}

/**
 * A thread-list cursor must name a thread of the inbox (INBOXES-FACTS §7):
 * 422 ``The `after` parameter must be a thread ID. To filter by date, use
 * `GET /inboxes/:id/threads/search` with `start_date`.`` (`end_date` for `before`).
 */
function checkThreadCursor(ctx: Emulator, inbox: InboxRow, q: { after?: string; before?: string }): void {
  if (q.after !== undefined && q.before !== undefined) return; // both: the pagination error
  for (const [which, bound] of [['after', 'start_date'], ['before', 'end_date']] as const) {
    const id = q[which];
    if (id !== undefined && !findThread(ctx, inbox.id, id)) {
      throw errors.validation(`The \`${which}\` parameter must be a thread ID. To filter by date, use \`GET /inboxes/:id/threads/search\` with \`${bound}\`.`, 422);
    }
  }
}

function threadsList(ctx: Emulator, req: Req<'inboxes/threads/list'>): Answer<'inboxes/threads/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  checkThreadCursor(ctx, inbox, req.query);
  return pageThreads(ctx.db, inbox.id, threadFilter(ctx, inbox, req.query), req.query, (t) => toThreadItem(ctx, t));
}

/** A `query`: words and `"phrases"` that must all appear, `-word` / `-"phrase"` that must not. */
function parseQuery(q: string): { must: string[]; not: string[] } {
  const must: string[] = [];
  const not: string[] = [];
  for (const m of q.matchAll(/(-?)(?:"([^"]*)"|(\S+))/g)) {
    const term = (m[2] ?? m[3] ?? '').toLowerCase().trim();
    if (!term) continue;
    (m[1] ? not : must).push(term);
  }
  return { must, not };
}

/** A `start_date` / `end_date`: a date covers its whole day (UTC); a timestamp is taken as given. Returns ms or throws 422. */
function dateBound(field: 'start_date' | 'end_date', v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const t = Date.parse(dateOnly ? `${v}T00:00:00.000Z` : v);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(v)) throw errors.validation(`The \`${field}\` must be a valid ISO 8601 date.`, 422);
  return dateOnly && field === 'end_date' ? t + 86_400_000 - 1 : t;
}

function threadsSearch(ctx: Emulator, req: Req<'inboxes/threads/search'>): Answer<'inboxes/threads/search'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const q = req.query;
  checkThreadCursor(ctx, inbox, q);
  const filter = threadFilter(ctx, inbox, q);
  if (q.query !== undefined && q.query.length > 256) throw errors.validation(`The \`query\` parameter must be at most 256 characters, but received ${q.query.length}.`, 422);
  for (const field of ['from', 'to', 'cc', 'bcc'] as const) {
    const n = q[field]?.split(',').length ?? 0;
    if (n > 20) throw errors.validation(`The \`${field}\` parameter must contain at most 20 values, but received ${n}.`, 422);
  }
  const query = parseQuery(q.query ?? '');
  if (query.must.length + query.not.length > 32) {
    throw errors.validation(`The \`query\` parameter must contain at most 32 words, but received ${query.must.length + query.not.length}.`, 422);
  }
  const start = dateBound('start_date', q.start_date);
  const end = dateBound('end_date', q.end_date);
  if (start !== undefined && end !== undefined && start > end) throw errors.validation('The `start_date` must be on or before the `end_date`.', 422);
  const csv = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : undefined);
  const addr = { from: csv(q.from), to: csv(q.to), cc: csv(q.cc), bcc: csv(q.bcc) };
  const hasAttachment = q.has_attachment === undefined ? undefined : q.has_attachment === 'true';
  const anyOf = (values: string[] | undefined, list: string[]) => !values || values.some((v) => list.some((a) => a.toLowerCase().includes(v)));
  const matches = (m: ThreadEmail): boolean => {
    const atts = m.attachments;
    if (!anyOf(addr.from, [m.from]) || !anyOf(addr.to, m.to) || !anyOf(addr.cc, m.cc) || !anyOf(addr.bcc, m.bcc)) return false;
    if (hasAttachment !== undefined && hasAttachment !== atts.length > 0) return false;
    if (start !== undefined && m.received_at < start) return false;
    if (end !== undefined && m.received_at > end) return false;
    const hay = [m.subject ?? '', m.text ?? '', m.html ?? '', m.from, ...m.to, ...m.cc, ...m.bcc, ...atts.map((a) => a.filename ?? '')].join('\n').toLowerCase();
    return query.must.every((w) => hay.includes(w)) && !query.not.some((w) => hay.includes(w));
  };
  const matched = new Map<string, string>();
  for (const t of threadsMatching(ctx, inbox.id, filter)) {
    const hit = threadEmails(ctx, threadMessages(ctx, t.id), true).filter(matches).pop();
    if (hit) matched.set(t.id, hit.id);
  }
  // Every matching thread (up to the 10 000 cap) is read above only to find the matches; the page itself pages as the list does.
  return pageThreads(ctx.db, inbox.id, { ...filter, ids: [...matched.keys()] }, req.query, (t) => ({ ...toThreadItem(ctx, t), matched_email_id: matched.get(t.id) ?? null }));
}

function threadsGet(ctx: Emulator, req: Req<'inboxes/threads/get'>): Answer<'inboxes/threads/get'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return toThreadSummary(ctx, threadOr404(ctx, inbox, req.params.thread_id));
}

/**
 * Moves a thread to `folder` and raises `inbox.thread.folder.updated`
 * (`from`, `to`) when it changed. Returns whether it moved. Used by the API
 * and the admin agent hook.
 */
export function moveThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, folder: Folder, source: InboxEventSource): boolean {
  if (thread.folder === folder) return false;
  const now = ctx.clock.nowMs();
  setThreadFolder(ctx, thread.id, folder, now);
  if (folder === 'trash') purgeThreadJob.schedule(ctx, { thread_id: thread.id }, { dueAt: now + DELAYS.inboxTrashPurge, teamId: inbox.team_id });
  emitInboxEvent(ctx, inbox, 'inbox.thread.folder.updated', source, () => ({ ...threadEventData(ctx, inbox.id, thread.id), from: thread.folder, to: folder }));
  return true;
}

function threadsUpdate(ctx: Emulator, req: Req<'inboxes/threads/update'>): Answer<'inboxes/threads/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const b = req.body;
  if (b.read === undefined && b.folder === undefined) throw errors.missingField('read` or `folder');
  ctx.db.transaction(() => {
    if (b.read !== undefined) setThreadRead(ctx, thread.id, b.read);
    if (b.folder !== undefined) moveThread(ctx, inbox, thread, b.folder, 'api');
  })();
  return toThreadSummary(ctx, findThread(ctx, inbox.id, thread.id)!);
}

function threadsRemove(ctx: Emulator, req: Req<'inboxes/threads/remove'>): Answer<'inboxes/threads/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const moved = ctx.db.transaction(() => moveThread(ctx, inbox, thread, 'trash', 'api'))();
  return { object: 'inbox_thread', id: thread.id, deleted: moved };
}

// --- thread emails ---

/**
 * A page of a thread's emails, oldest first: `after` = the last id seen →
 * the newer ones after it; `before` = the first id seen → the older ones
 * (INBOXES-FACTS §3.3). Unknown cursor → 422, both → 422 (as every list:
 * `paginate` with the thread's order). Each email is read from the received
 * or sent email it is.
 */
function emailsList(ctx: Emulator, req: Req<'inboxes/threads/emails/list'>): Answer<'inboxes/threads/emails/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const page = pageThreadMessages(ctx.db, thread.id, req.query);
  return { ...page, data: threadEmails(ctx, page.data, true).map(toMessage) };
}

function emailsGet(ctx: Emulator, req: Req<'inboxes/threads/emails/get'>): Answer<'inboxes/threads/emails/get'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  return toMessage(messageOr404(ctx, thread, req.params.email_id));
}

/** Unique by bare address (case-insensitive), without the inbox's own address; first spelling kept. */
function uniqueRecipients(list: string[], exclude: string[] = []): string[] {
  const seen = new Set(exclude.map(bareAddress));
  return list.filter((a) => {
    const k = bareAddress(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function checkRecipientCount(to: string[], cc: string[], bcc: string[]): void {
  const n = to.length + cc.length + bcc.length;
  if (n > 50) throw errors.validation(`An email can have at most 50 recipients, but this one has ${n}.`, 422);
}

function reply(ctx: Emulator, req: Req<'inboxes/threads/emails/reply'>): Answer<'inboxes/threads/emails/reply'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const original = messageOr404(ctx, thread, req.params.email_id);
  const b = req.body;
  if (b.html === undefined && b.text === undefined) throw errors.missingField('html` or `text');
  const headers = checkCustomHeaders(b.headers);
  const attachments = (b.attachments ?? []) as AttachmentInput[];
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
  return withIdempotency(ctx, req, `inboxes/threads/emails/reply:${inbox.id}:${original.id}`, 201, () => {
    const sent = ctx.db.transaction(() =>
      sendFromInbox(ctx, inbox, {
        to, cc, bcc, subject: b.subject ?? prefixed('Re:', thread.subject), html: b.html, text: b.text, attachments, headers, replyTo: original, threadId: thread.id,
      }),
    )();
    return { id: sent.emailId };
  });
}

/** The forwarded-message banner and the original's text (INBOXES-FACTS §6.6, the documented example). */
function forwardBodies(m: ThreadEmail, note: { html?: string; text?: string }): { html?: string; text: string } {
  const lines = ['---------- Forwarded message ---------', `From: ${m.from}`, `Date: ${new Date(m.received_at).toUTCString()}`, `Subject: ${m.subject ?? ''}`, `To: ${m.to.join(', ')}`];
  const text = [note.text ?? '', '', ...lines, '', m.text ?? ''].join('\n').replace(/^\n+/, '');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const original = m.html ?? esc(m.text ?? '').replace(/\n/g, '<br>');
  const html = m.html !== null || note.html !== undefined ? `${note.html ?? esc(note.text ?? '')}<br><br>${lines.map(esc).join('<br>')}<br><br>${original}` : undefined;
  return { html, text };
}

function forward(ctx: Emulator, req: Req<'inboxes/threads/emails/forward'>): Answer<'inboxes/threads/emails/forward'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const original = messageOr404(ctx, thread, req.params.email_id);
  const b = req.body;
  const headers = checkCustomHeaders(b.headers);
  const originals = threadEmailFiles(ctx, original);
  if (originals.some((a) => a.content === null)) {
    throw new ApiError(422, 'invalid_attachment', 'An attachment of the original email was sent from a URL (`path`) and cannot be forwarded.');
  }
  const attachments: AttachmentInput[] = [
    ...originals.map((a) => ({ content: a.content!, ...(a.filename ? { filename: a.filename } : {}), content_type: a.content_type })),
    ...((b.attachments ?? []) as AttachmentInput[]),
  ];
  checkAttachments(attachments);
  const to = uniqueRecipients(asList(b.to));
  const cc = asList(b.cc);
  const bcc = asList(b.bcc);
  checkRecipientCount(to, cc, bcc);
  const bodies = forwardBodies(original, { html: b.html, text: b.text });
  return withIdempotency(ctx, req, `inboxes/threads/emails/forward:${inbox.id}:${original.id}`, 201, () => {
    const sent = ctx.db.transaction(() =>
      sendFromInbox(ctx, inbox, { to, cc, bcc, subject: b.subject ?? prefixed('Fwd:', original.subject ?? thread.subject), ...bodies, attachments, headers, replyTo: null, threadId: thread.id }),
    )();
    return { id: sent.emailId };
  });
}

// --- thread labels ---

/** Raises one `inbox.thread.labels.updated` per label added or removed (INBOXES-FACTS §6.4). */
function emitLabelChanges(ctx: Emulator, inbox: InboxRow, threadId: string, added: LabelRow[], removed: LabelRow[], source: InboxEventSource): void {
  for (const l of added) emitInboxEvent(ctx, inbox, 'inbox.thread.labels.updated', source, () => ({ ...threadEventData(ctx, inbox.id, threadId), added: [toThreadLabel(l)], removed: [] }));
  for (const l of removed) emitInboxEvent(ctx, inbox, 'inbox.thread.labels.updated', source, () => ({ ...threadEventData(ctx, inbox.id, threadId), added: [], removed: [toThreadLabel(l)] }));
}

/** Applies labels (ids of the inbox's labels, else 404) to a thread; the labels actually added. Used by the API and the agent hook. */
export function addLabelsToThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, ids: string[], source: InboxEventSource): LabelRow[] {
  const labels = [...new Set(ids)].map((id) => labelOr404(ctx, inbox, id, true));
  const added = labels.filter((l) => addThreadLabel(ctx, thread.id, l.id));
  emitLabelChanges(ctx, inbox, thread.id, added, [], source);
  return added;
}

function threadLabelsAdd(ctx: Emulator, req: Req<'inboxes/threads/labels/add'>): Answer<'inboxes/threads/labels/add'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  ctx.db.transaction(() => addLabelsToThread(ctx, inbox, thread, req.body.labels, 'api'))();
  return threadLabelList(ctx, thread.id);
}

function threadLabelsSet(ctx: Emulator, req: Req<'inboxes/threads/labels/set'>): Answer<'inboxes/threads/labels/set'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const wanted = [...new Set(req.body.labels)].map((id) => labelOr404(ctx, inbox, id, true));
  ctx.db.transaction(() => {
    const current = threadLabels(ctx, thread.id);
    const removed = current.filter((c) => !wanted.some((w) => w.id === c.id));
    for (const l of removed) removeThreadLabel(ctx, thread.id, l.id);
    const added = wanted.filter((l) => addThreadLabel(ctx, thread.id, l.id));
    emitLabelChanges(ctx, inbox, thread.id, added, removed, 'api');
  })();
  return threadLabelList(ctx, thread.id);
}

function threadLabelsRemove(ctx: Emulator, req: Req<'inboxes/threads/labels/remove'>): Answer<'inboxes/threads/labels/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const label = labelOr404(ctx, inbox, req.params.label_id);
  ctx.db.transaction(() => {
    if (removeThreadLabel(ctx, thread.id, label.id)) emitLabelChanges(ctx, inbox, thread.id, [], [label], 'api');
  })();
  return threadLabelList(ctx, thread.id);
}

// --- labels ---

/** Most labels an inbox has (INBOXES-FACTS §6.4). */
const MAX_LABELS = 100;

/** A random `#RRGGBB` colour (a label created without one). */
function randomColor(): string {
  return `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0').toUpperCase()}`;
}

function labelsList(ctx: Emulator, req: Req<'inboxes/labels/list'>): Answer<'inboxes/labels/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return { object: 'list', data: listLabels(ctx, inbox.id).map(toLabel) };
}

function labelsCreate(ctx: Emulator, req: Req<'inboxes/labels/create'>): Answer<'inboxes/labels/create'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const b = req.body;
  if (findLabelByName(ctx, inbox.id, b.name)) throw errors.validation(`A label named \`${b.name}\` already exists in this inbox.`, 422);
  if (listLabels(ctx, inbox.id).length >= MAX_LABELS) throw errors.validation(`An inbox can have at most ${MAX_LABELS} labels.`, 422);
  const id = newId();
  insertLabel(ctx, { id, inbox_id: inbox.id, name: b.name, color: b.color ?? randomColor(), created_at: ctx.clock.nowMs() });
  return { object: 'inbox_label', id };
}

function labelsUpdate(ctx: Emulator, req: Req<'inboxes/labels/update'>): Answer<'inboxes/labels/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const label = labelOr404(ctx, inbox, req.params.label_id);
  const b = req.body;
  if (b.name !== undefined) {
    const other = findLabelByName(ctx, inbox.id, b.name);
    if (other && other.id !== label.id) throw errors.validation(`A label named \`${b.name}\` already exists in this inbox.`, 422);
  }
  updateLabel(ctx, label.id, b.name ?? label.name, b.color ?? label.color);
  return { object: 'inbox_label', id: label.id };
}

function labelsRemove(ctx: Emulator, req: Req<'inboxes/labels/remove'>): Answer<'inboxes/labels/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const label = labelOr404(ctx, inbox, req.params.label_id);
  ctx.db.transaction(() => deleteLabel(ctx, label.id))();
  return { object: 'inbox_label', id: label.id, deleted: true };
}

// --- drafts ---

/** Draft attachments as stored (`storedAttachment`): each file checked as on a reply (`checkAttachmentFile`), at most 25 MB of `content` in all (INBOXES-FACTS §6.5). */
function draftAttachments(list: AttachmentInput[]): StoredAttachment[] {
  let bytes = 0;
  for (const a of list) bytes += checkAttachmentFile(a);
  if (bytes > MAX_CONTENT_BYTES) throw errors.validation('The files on a draft can total at most 25 MB.', 422);
  return list.map(storedAttachment);
}

const nonEmpty = (d: Pick<DraftRow, 'to_addrs' | 'cc' | 'bcc' | 'subject' | 'html' | 'text' | 'attachments'>): boolean =>
  [d.to_addrs, d.cc, d.bcc, d.attachments].some((j) => j !== null && (JSON.parse(j) as unknown[]).length > 0) || [d.subject, d.html, d.text].some((s) => s !== null && s !== '');

const listOrNull = (v: string | string[] | null | undefined): string | null => (v === null || v === undefined ? null : JSON.stringify(asList(v)));

function checkDraftRecipients(d: Pick<DraftRow, 'to_addrs' | 'cc' | 'bcc'>): void {
  const all = [d.to_addrs, d.cc, d.bcc].flatMap((j) => (j === null ? [] : (JSON.parse(j) as string[])));
  if (all.length > 50) throw errors.validation(`A draft can have at most 50 recipients, but this one has ${all.length}.`, 422);
  for (const a of all) if (!parseAddress(a)) throw errors.validation(`Invalid recipient \`${a}\`. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`, 422);
}

/** The draft events' `draft_id`, `draft` and (reply drafts) `thread_id`, `thread` (SDK `InboxDraftEventData`). */
function draftEventData(ctx: Emulator, inbox: InboxRow, draft: DraftRow): Record<string, unknown> {
  const d = findDraft(ctx, inbox.id, draft.id);
  return { ...(draft.thread_id ? threadEventData(ctx, inbox.id, draft.thread_id) : {}), draft_id: draft.id, ...(d ? { draft: toEventDraft(ctx, d) } : {}) };
}

/**
 * Creates a draft (the API and the agent hook). A reply draft without `to`
 * goes to the replied email's author (INBOXES-FACTS §6.5). A second unsent
 * reply draft for the same email returns the first (`existing: true`).
 * Raises `inbox.draft.created`. Throws 404 thread/email, 422 rules.
 */
export function createDraft(
  ctx: Emulator,
  inbox: InboxRow,
  b: { to?: string | string[] | null; cc?: string | string[] | null; bcc?: string | string[] | null; subject?: string | null; html?: string | null; text?: string | null; attachments?: AttachmentInput[]; thread_id?: string; reply_to_email_id?: string },
  source: InboxEventSource,
): { draft: DraftRow; existing: boolean } {
  if ((b.thread_id === undefined) !== (b.reply_to_email_id === undefined)) {
    throw errors.validation('The `thread_id` and `reply_to_email_id` fields must be given together, or neither.', 422);
  }
  let replied: ThreadEmail | null = null;
  if (b.thread_id !== undefined) {
    const thread = threadOr404(ctx, inbox, b.thread_id);
    replied = messageOr404(ctx, thread, b.reply_to_email_id!);
    const existing = unsentReplyDraft(ctx, inbox.id, thread.id, replied.id);
    if (existing) return { draft: existing, existing: true };
  }
  const now = ctx.clock.nowMs();
  const row: Omit<DraftRow, 'seq'> = {
    id: newId(), inbox_id: inbox.id, type: replied ? 'reply' : 'standalone',
    to_addrs: listOrNull(b.to), cc: listOrNull(b.cc) ?? '[]', bcc: listOrNull(b.bcc) ?? '[]', subject: b.subject ?? null, html: b.html ?? null, text: b.text ?? null,
    thread_id: b.thread_id ?? null, reply_to_email_id: b.reply_to_email_id ?? null, email_id: null,
    attachments: JSON.stringify(draftAttachments(b.attachments ?? [])), created_at: now, updated_at: now,
  };
  if (!nonEmpty(row)) throw errors.validation('A draft must contain at least one non-empty field.', 422);
  if (replied && (row.to_addrs === null || row.to_addrs === '[]')) row.to_addrs = JSON.stringify(uniqueRecipients(replyRecipients(replied), [inbox.email_address]));
  checkDraftRecipients(row);
  return ctx.db.transaction(() => {
    insertDraft(ctx, row);
    const draft = findDraft(ctx, inbox.id, row.id)!;
    emitInboxEvent(ctx, inbox, 'inbox.draft.created', source, () => draftEventData(ctx, inbox, draft));
    return { draft, existing: false };
  })();
}

function draftsList(ctx: Emulator, req: Req<'inboxes/drafts/list'>): Answer<'inboxes/drafts/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return pageDrafts(ctx.db, inbox.id, req.query, toDraftItem);
}

function draftsCreate(ctx: Emulator, req: Req<'inboxes/drafts/create'>): Answer<'inboxes/drafts/create'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const b = req.body;
  // An email's existing unsent reply draft is answered 200, a new draft 201 (INBOXES-FACTS §3.6); a replay answers the recorded one.
  return withIdempotency(ctx, req, `inboxes/drafts/create:${inbox.id}`, 201, () => {
    const { draft, existing } = createDraft(ctx, inbox, b as Parameters<typeof createDraft>[2], 'api');
    const ref: SchemaOf<'DraftRef'> = { object: 'inbox_draft', id: draft.id };
    return existing ? new Reply(200, ref) : new Reply(201, ref);
  });
}

function draftsGet(ctx: Emulator, req: Req<'inboxes/drafts/get'>): Answer<'inboxes/drafts/get'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return toDraft(ctx, draftOr404(ctx, inbox, req.params.draft_id));
}

const alreadySent = () => new ApiError(409, 'validation_error', 'This draft has already been sent.');

function draftsUpdate(ctx: Emulator, req: Req<'inboxes/drafts/update'>): Answer<'inboxes/drafts/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  if (draft.email_id !== null) throw alreadySent();
  const b = req.body;
  if (Object.keys(b).length === 0) throw errors.validation('Give at least one field to change: `to`, `cc`, `bcc`, `subject`, `text`, `html` or `attachments`.', 422);
  const next = {
    id: draft.id,
    to_addrs: b.to !== undefined ? listOrNull(b.to) : draft.to_addrs,
    cc: b.cc !== undefined ? listOrNull(b.cc) ?? '[]' : draft.cc,
    bcc: b.bcc !== undefined ? listOrNull(b.bcc) ?? '[]' : draft.bcc,
    subject: b.subject !== undefined ? b.subject : draft.subject,
    html: b.html !== undefined ? b.html : draft.html,
    text: b.text !== undefined ? b.text : draft.text,
    attachments: b.attachments !== undefined ? JSON.stringify(draftAttachments((b.attachments ?? []) as AttachmentInput[])) : draft.attachments,
    updated_at: ctx.clock.nowMs(),
  };
  if (!nonEmpty(next)) throw errors.validation('A draft must contain at least one non-empty field.', 422);
  checkDraftRecipients(next);
  ctx.db.transaction(() => {
    updateDraft(ctx, next);
    emitInboxEvent(ctx, inbox, 'inbox.draft.updated', 'api', () => draftEventData(ctx, inbox, draft));
  })();
  return { object: 'inbox_draft', id: draft.id };
}

function draftsRemove(ctx: Emulator, req: Req<'inboxes/drafts/remove'>): Answer<'inboxes/drafts/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  ctx.db.transaction(() => {
    deleteDraft(ctx, draft.id);
    emitInboxEvent(ctx, inbox, 'inbox.draft.deleted', 'api', () => ({ ...(draft.thread_id ? threadEventData(ctx, inbox.id, draft.thread_id) : {}), draft_id: draft.id }));
  })();
  return { object: 'inbox_draft', id: draft.id, deleted: true };
}

function draftsSend(ctx: Emulator, req: Req<'inboxes/drafts/send'>): Answer<'inboxes/drafts/send'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  const headers = checkCustomHeaders((req.body as { headers?: Record<string, string> | null } | undefined)?.headers);
  return withIdempotency(ctx, req, `inboxes/drafts/send:${draft.id}`, 200, () => {
    if (draft.email_id !== null) throw alreadySent();
    const to = draft.to_addrs === null ? [] : (JSON.parse(draft.to_addrs) as string[]);
    if (to.length === 0) throw errors.validation('The draft has no recipient: set `to` before sending it.', 422);
    const thread = draft.thread_id ? findThread(ctx, inbox.id, draft.thread_id) ?? null : null;
    const repliedRow = thread && draft.reply_to_email_id ? findMessage(ctx, thread.id, draft.reply_to_email_id) : undefined;
    const replied = repliedRow ? threadEmail(ctx, repliedRow, false) ?? null : null;
    const atts: AttachmentInput[] = attachmentsOfDraft(draft).map((a) => ({
      ...(a.content !== null ? { content: a.content } : { path: a.path! }), ...(a.filename ? { filename: a.filename } : {}), content_type: a.content_type,
    }));
    const emailId = ctx.db.transaction(() => {
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
    return { id: emailId };
  });
}

// --- agent ---

function agentGet(ctx: Emulator, req: Req<'inboxes/agent/get'>): Answer<'inboxes/agent/get'> {
  return agentSettings(ctx, inboxOr404(ctx, teamOf(req), req.params.inbox));
}

function agentUpdate(ctx: Emulator, req: Req<'inboxes/agent/update'>): Answer<'inboxes/agent/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const b = req.body;
  if (b.instructions === undefined && b.tone === undefined && b.actions === undefined) throw errors.missingField('instructions`, `tone` or `actions');
  const now = agentSettings(ctx, inbox);
  const id = saveAgent(ctx, inbox.id, {
    instructions: b.instructions !== undefined ? b.instructions : now.instructions,
    tone: b.tone !== undefined ? b.tone : now.tone,
    actions: b.actions !== undefined ? [...new Set(b.actions)] : now.actions,
  }, ctx.clock.nowMs());
  return { object: 'inbox_agent', id };
}

/** The inboxes operations, by operationId. */
export const operations = {
  'inboxes/create': create,
  'inboxes/list': list,
  'inboxes/get': get,
  'inboxes/update': update,
  'inboxes/remove': remove,
  'inboxes/threads/list': threadsList,
  'inboxes/threads/search': threadsSearch,
  'inboxes/threads/get': threadsGet,
  'inboxes/threads/update': threadsUpdate,
  'inboxes/threads/remove': threadsRemove,
  'inboxes/threads/emails/list': emailsList,
  'inboxes/threads/emails/get': emailsGet,
  'inboxes/threads/emails/reply': reply,
  'inboxes/threads/emails/forward': forward,
  'inboxes/threads/labels/add': threadLabelsAdd,
  'inboxes/threads/labels/set': threadLabelsSet,
  'inboxes/threads/labels/remove': threadLabelsRemove,
  'inboxes/labels/list': labelsList,
  'inboxes/labels/create': labelsCreate,
  'inboxes/labels/update': labelsUpdate,
  'inboxes/labels/remove': labelsRemove,
  'inboxes/drafts/list': draftsList,
  'inboxes/drafts/create': draftsCreate,
  'inboxes/drafts/get': draftsGet,
  'inboxes/drafts/update': draftsUpdate,
  'inboxes/drafts/remove': draftsRemove,
  'inboxes/drafts/send': draftsSend,
  'inboxes/agent/get': agentGet,
  'inboxes/agent/update': agentUpdate,
} satisfies OperationHandlers;
