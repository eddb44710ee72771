/**
 * Inboxes (docs/reference/inboxes.md#endpoints; resend@6.38 `resend.inboxes.*`). Every route
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
 *
 * Each handler validates, calls the rule's file and shapes the reply; the
 * rules live in files named for what they do: `inboxes.ts`, `threads.ts`,
 * `search.ts`, `replies.ts`, `labels.ts`, `drafts.ts`, `agent.ts` (SQL in
 * `store.ts`, wire shapes in `shapes.ts`, mail in and out in `mail.ts`).
 */
import type { Emulator } from '../../context.js';
import { Reply } from '../../module.js';
import type { Answer, Req, OperationHandlers, SchemaOf } from '../../http/document-types.js';
import { updateAgentSettings } from './agent.js';
import { createDraft, draftOr404, editDraft, removeDraft, sendDraft } from './drafts.js';
import { createInbox, inboxOr404, removeInbox, updateInboxNames } from './inboxes.js';
import { addLabelsToThread, createLabel, labelOr404, removeLabel, removeLabelFromThread, setThreadLabels, updateLabelOf } from './labels.js';
import { checkCustomHeaders } from './mail.js';
import { forwardMessage, replyMessage, sendInThread } from './replies.js';
import { searchThreads } from './search.js';
import { checkThreadCursor, messageOr404, threadFilter, threadOr404, trashThread, updateThread } from './threads.js';
import { threadEmails } from './thread-emails.js';
import { agentSettings, threadLabelList, toDraft, toDraftItem, toInboxDetail, toInboxItem, toLabel, toMessage, toThreadItem, toThreadSummary } from './shapes.js';
import { listLabels, pageDrafts, pageInboxes, pageThreadMessages, pageThreads } from './store.js';

const teamOf = (req: { auth: { teamId: string } }) => req.auth.teamId;

// --- inboxes ---

function create(ctx: Emulator, req: Req<'inboxes/create'>): Answer<'inboxes/create'> {
  return { object: 'inbox', id: createInbox(ctx, teamOf(req), req.body) };
}

function list(ctx: Emulator, req: Req<'inboxes/list'>): Answer<'inboxes/list'> {
  return pageInboxes(ctx.db, req, { defaultLimit: 20, map: (r) => toInboxItem(ctx, r) });
}

function get(ctx: Emulator, req: Req<'inboxes/get'>): Answer<'inboxes/get'> {
  return toInboxDetail(ctx, inboxOr404(ctx, teamOf(req), req.params.inbox));
}

function update(ctx: Emulator, req: Req<'inboxes/update'>): Answer<'inboxes/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  updateInboxNames(ctx, inbox, req.body);
  return { object: 'inbox', id: inbox.id };
}

function remove(ctx: Emulator, req: Req<'inboxes/remove'>): Answer<'inboxes/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  removeInbox(ctx, inbox);
  return { object: 'inbox', id: inbox.id, deleted: true };
}

// --- threads ---

function threadsList(ctx: Emulator, req: Req<'inboxes/threads/list'>): Answer<'inboxes/threads/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  checkThreadCursor(ctx, inbox, req.query);
  return pageThreads(ctx.db, inbox.id, threadFilter(ctx, inbox, req.query), req.query, (t) => toThreadItem(ctx, t));
}

function threadsSearch(ctx: Emulator, req: Req<'inboxes/threads/search'>): Answer<'inboxes/threads/search'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return searchThreads(ctx, inbox, req.query, (t, matched) => ({ ...toThreadItem(ctx, t), matched_email_id: matched }));
}

function threadsGet(ctx: Emulator, req: Req<'inboxes/threads/get'>): Answer<'inboxes/threads/get'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return toThreadSummary(ctx, threadOr404(ctx, inbox, req.params.thread_id));
}

function threadsUpdate(ctx: Emulator, req: Req<'inboxes/threads/update'>): Answer<'inboxes/threads/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  return toThreadSummary(ctx, updateThread(ctx, inbox, thread, req.body));
}

function threadsRemove(ctx: Emulator, req: Req<'inboxes/threads/remove'>): Answer<'inboxes/threads/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  return { object: 'inbox_thread', id: thread.id, deleted: trashThread(ctx, inbox, thread) };
}

// --- thread emails ---

/**
 * A page of a thread's emails, oldest first: `after` = the last id seen →
 * the newer ones after it; `before` = the first id seen → the older ones
 * (docs/reference/inboxes.md#thread-emails). Unknown cursor → 422, both → 422 (as every list:
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

function reply(ctx: Emulator, req: Req<'inboxes/threads/emails/reply'>): Answer<'inboxes/threads/emails/reply'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const original = messageOr404(ctx, thread, req.params.email_id);
  const msg = replyMessage(inbox, thread, original, req.body);
  return { id: sendInThread(ctx, inbox, msg) };
}

function forward(ctx: Emulator, req: Req<'inboxes/threads/emails/forward'>): Answer<'inboxes/threads/emails/forward'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  const original = messageOr404(ctx, thread, req.params.email_id);
  const msg = forwardMessage(ctx, thread, original, req.body);
  return { id: sendInThread(ctx, inbox, msg) };
}

// --- thread labels ---

function threadLabelsAdd(ctx: Emulator, req: Req<'inboxes/threads/labels/add'>): Answer<'inboxes/threads/labels/add'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  ctx.db.transaction(() => addLabelsToThread(ctx, inbox, thread, req.body.labels, 'api'))();
  return threadLabelList(ctx, thread.id);
}

function threadLabelsSet(ctx: Emulator, req: Req<'inboxes/threads/labels/set'>): Answer<'inboxes/threads/labels/set'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  setThreadLabels(ctx, inbox, thread, req.body.labels);
  return threadLabelList(ctx, thread.id);
}

function threadLabelsRemove(ctx: Emulator, req: Req<'inboxes/threads/labels/remove'>): Answer<'inboxes/threads/labels/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const thread = threadOr404(ctx, inbox, req.params.thread_id);
  removeLabelFromThread(ctx, inbox, thread, labelOr404(ctx, inbox, req.params.label_id));
  return threadLabelList(ctx, thread.id);
}

// --- labels ---

function labelsList(ctx: Emulator, req: Req<'inboxes/labels/list'>): Answer<'inboxes/labels/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return { object: 'list', data: listLabels(ctx, inbox.id).map(toLabel) };
}

function labelsCreate(ctx: Emulator, req: Req<'inboxes/labels/create'>): Answer<'inboxes/labels/create'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return { object: 'inbox_label', id: createLabel(ctx, inbox, req.body) };
}

function labelsUpdate(ctx: Emulator, req: Req<'inboxes/labels/update'>): Answer<'inboxes/labels/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const label = labelOr404(ctx, inbox, req.params.label_id);
  updateLabelOf(ctx, inbox, label, req.body);
  return { object: 'inbox_label', id: label.id };
}

function labelsRemove(ctx: Emulator, req: Req<'inboxes/labels/remove'>): Answer<'inboxes/labels/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const label = labelOr404(ctx, inbox, req.params.label_id);
  removeLabel(ctx, label);
  return { object: 'inbox_label', id: label.id, deleted: true };
}

// --- drafts ---

function draftsList(ctx: Emulator, req: Req<'inboxes/drafts/list'>): Answer<'inboxes/drafts/list'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return pageDrafts(ctx.db, inbox.id, req.query, toDraftItem);
}

function draftsCreate(ctx: Emulator, req: Req<'inboxes/drafts/create'>): Answer<'inboxes/drafts/create'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const b = req.body;
  // An email's existing unsent reply draft is answered 200, a new draft 201 (docs/reference/inboxes.md#drafts); a replay answers the recorded one.
  const { draft, existing } = createDraft(ctx, inbox, b, 'api');
  const ref: SchemaOf<'DraftRef'> = { object: 'inbox_draft', id: draft.id };
  return existing ? new Reply(200, ref) : new Reply(201, ref);
}

function draftsGet(ctx: Emulator, req: Req<'inboxes/drafts/get'>): Answer<'inboxes/drafts/get'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return toDraft(ctx, draftOr404(ctx, inbox, req.params.draft_id));
}

function draftsUpdate(ctx: Emulator, req: Req<'inboxes/drafts/update'>): Answer<'inboxes/drafts/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  editDraft(ctx, inbox, draft, req.body);
  return { object: 'inbox_draft', id: draft.id };
}

function draftsRemove(ctx: Emulator, req: Req<'inboxes/drafts/remove'>): Answer<'inboxes/drafts/remove'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  removeDraft(ctx, inbox, draft);
  return { object: 'inbox_draft', id: draft.id, deleted: true };
}

function draftsSend(ctx: Emulator, req: Req<'inboxes/drafts/send'>): Answer<'inboxes/drafts/send'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  const draft = draftOr404(ctx, inbox, req.params.draft_id);
  const headers = checkCustomHeaders((req.body as { headers?: Record<string, string> | null } | undefined)?.headers);
  return { id: sendDraft(ctx, inbox, draft, headers) };
}

// --- agent ---

function agentGet(ctx: Emulator, req: Req<'inboxes/agent/get'>): Answer<'inboxes/agent/get'> {
  return agentSettings(ctx, inboxOr404(ctx, teamOf(req), req.params.inbox));
}

function agentUpdate(ctx: Emulator, req: Req<'inboxes/agent/update'>): Answer<'inboxes/agent/update'> {
  const inbox = inboxOr404(ctx, teamOf(req), req.params.inbox);
  return { object: 'inbox_agent', id: updateAgentSettings(ctx, inbox, req.body) };
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
