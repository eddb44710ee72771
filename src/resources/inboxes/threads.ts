/**
 * An inbox's threads (docs/reference/inboxes.md#thread-endpoints; docs/reference/inboxes.md#folders-and-read-state; docs/reference/inboxes.md#inbox-errors): finding a thread and
 * its emails, the filters and cursors of a thread list, moving a thread
 * between folders (trash schedules its purge), marking it read.
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import type { Req } from '../../http/document-types.js';
import { DELAYS } from '../../clock/delays.js';
import { purgeThreadJob } from './jobs.js';
import { labelOr404 } from './labels.js';
import { emitInboxEvent, threadEventData, type InboxEventSource } from './shapes.js';
import { threadEmail, type ThreadEmail } from './thread-emails.js';
import { findMessage, findThread, setThreadFolder, setThreadRead, type Folder, type InboxRow, type ThreadFilter, type ThreadRow } from './store.js';

/** The inbox's thread, or 404 `Thread not found.` ([GUESS] text, docs/reference/inboxes.md#inbox-errors). */
export function threadOr404(ctx: Emulator, inbox: InboxRow, id: string): ThreadRow {
  const t = findThread(ctx, inbox.id, id);
  if (!t) throw inboxMessages.threadNotFound();
  return t;
}

/** The thread's email, read from the email it is (with its bodies), or 404 `Email not found.` ([GUESS] text). */
export function messageOr404(ctx: Emulator, thread: ThreadRow, id: string): ThreadEmail {
  const row = findMessage(ctx, thread.id, id);
  const m = row ? threadEmail(ctx, row, true) : undefined;
  if (!m) throw inboxMessages.emailNotFound();
  return m;
}

const FOLDER_SET = new Set(['inbox', 'archive', 'spam', 'sent', 'trash']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `folders`, `labels` and `read` filters of a thread list (docs/reference/inboxes.md#folders-and-read-state; docs/reference/inboxes.md#inbox-errors).
 * `folders` defaults to `inbox` (`inbox,archive,sent` with `labels`).
 * Throws 422 with the documented texts: ``The `folders` value "drafts" must be one of: …``,
 * ``The `labels` parameter must contain at most 50 label IDs, but received 60.``,
 * ``The `labels` value "billing" must be a valid UUID.``; 404 ``Label "<id>" not found.``
 */
export function threadFilter(ctx: Emulator, inbox: InboxRow, q: { folders?: string; labels?: string; read?: string }): ThreadFilter {
  const given = q.labels?.split(',');
  if (given && given.length > 50) throw inboxMessages.tooManyLabelFilters(given.length);
  for (const id of given ?? []) if (!UUID.test(id)) throw inboxMessages.labelFilterNotUuid(id);
  const labels = given ? [...new Set(given)] : undefined;
  const folders = q.folders ? [...new Set(q.folders.split(','))] : labels ? ['inbox', 'archive', 'sent'] : ['inbox'];
  for (const f of folders) if (!FOLDER_SET.has(f)) throw inboxMessages.unknownFolder(f);
  for (const id of labels ?? []) labelOr404(ctx, inbox, id, true);
  return { folders: folders as Folder[], labels, read: q.read === undefined ? undefined : q.read === 'true' };
}

/**
 * A thread-list cursor must name a thread of the inbox (docs/reference/inboxes.md#inbox-errors):
 * a value that is not an id (a date, say) → 422 ``The `after` parameter must
 * be a thread ID. To filter by date, use `GET /inboxes/:id/threads/search`
 * with `start_date`.`` (`end_date` for `before`); an id that names no thread
 * of the inbox → 404 `The pagination cursor references an object that does
 * not exist. …`. Both cursors together are left to the pager (its own 422).
 */
export function checkThreadCursor(ctx: Emulator, inbox: InboxRow, q: { after?: string; before?: string }): void {
  if (q.after !== undefined && q.before !== undefined) return; // both: the pagination error
  for (const [which, bound] of [['after', 'start_date'], ['before', 'end_date']] as const) {
    const id = q[which];
    if (id === undefined) continue;
    if (!UUID.test(id)) throw inboxMessages.cursorNotThread(which, bound);
    if (!findThread(ctx, inbox.id, id)) throw inboxMessages.cursorNotFound();
  }
}

/**
 * Moves a thread to `folder` and raises `inbox.thread.folder.updated`
 * (`from`, `to`) when it changed; to `trash`, schedules its purge
 * (`DELAYS.inboxTrashPurge`). Returns whether it moved. Used by the API
 * and the admin agent hook; the caller holds the transaction.
 */
export function moveThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, folder: Folder, source: InboxEventSource): boolean {
  if (thread.folder === folder) return false;
  const now = ctx.clock.nowMs();
  setThreadFolder(ctx, thread.id, folder, now);
  if (folder === 'trash') purgeThreadJob.schedule(ctx, { thread_id: thread.id }, { dueAt: now + DELAYS.inboxTrashPurge, teamId: inbox.team_id });
  emitInboxEvent(ctx, inbox, 'inbox.thread.folder.updated', source, () => ({ ...threadEventData(ctx, inbox.id, thread.id), from: thread.folder, to: folder }));
  return true;
}

/**
 * A thread update (docs/reference/inboxes.md#thread-endpoints): `read` marks every email of the
 * thread, `folder` moves it (`moveThread`); 422 when neither is given.
 * One transaction. Returns the thread as it is after.
 */
export function updateThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, b: Req<'inboxes/threads/update'>['body']): ThreadRow {
  if (b.read === undefined && b.folder === undefined) throw inboxMessages.threadUpdateEmpty();
  ctx.db.transaction(() => {
    if (b.read !== undefined) setThreadRead(ctx, thread.id, b.read);
    if (b.folder !== undefined) moveThread(ctx, inbox, thread, b.folder, 'api');
  })();
  return findThread(ctx, inbox.id, thread.id)!;
}

/** Moves a thread to `trash` (`DELETE`): whether it moved (`false` when it already was there). */
export function trashThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow): boolean {
  return ctx.db.transaction(() => moveThread(ctx, inbox, thread, 'trash', 'api'))();
}
