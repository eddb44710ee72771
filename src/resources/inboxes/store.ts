/**
 * The inboxes tables and their SQL (docs/reference/inboxes.md#state state model): inboxes,
 * their agent settings, labels, threads (with their labels), thread emails
 * and drafts. A thread email (`inbox_messages`) is a reference to an email
 * the rest of the emulator stores, never a copy: a received email (inbound,
 * the receiving resource) or a sent email (outbound, the emails resource),
 * by the same id; the row keeps only what belongs to the inbox (its thread,
 * `read`, when it joined) and the email's Message-ID as the threading key
 * (RFC 5322 §3.6.4 lookups by Message-ID, indexed here). Bodies, addresses
 * and attachments are read from the email (`emails.ts`). Derived values (`unread`, `drafts`, `last_received`,
 * `email_count`, `has_attachment`, `has_draft`, thread `read`, thread
 * `from/to/cc/bcc`, `received_at`) are computed on read, never stored.
 *
 * Order: `seq` is the insertion order and is never rewritten. A thread's
 * `activity` is a counter of its inbox: one more than the inbox's highest
 * when the thread is created and whenever it gets an email (`touchThread`);
 * a draft's likewise when it is created and whenever it is edited. Threads
 * list by latest activity and drafts by latest update, as the service does
 * (docs/reference/inboxes.md#thread-endpoints; docs/reference/inboxes.md#drafts), through `paginate()`'s order
 * `ACTIVITY_FIRST` (`activity` newest first, tie-broken by `seq`). A
 * counter, not a time: on the emulated clock many things happen in the same
 * millisecond, and their order must still show. Times are emulated ms.
 */
import type { Emulator } from '../../context.js';
import type { DB } from '../../store/db.js';
import { newId } from '../../http/format.js';
import { paginate, teamPager, type ListEnvelope, type PageOrder, type PageQuery } from '../../http/pagination.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Inboxes; `inboxes_address` finds one by address whatever its case. */
export const inboxesTable = defineTable(
  'inboxes',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    domain_id: text().notNull(),
    email_address: text().notNull(),
    name: text().notNull(),
    from_name: text(),
    /** Another address whose mail the inbox receives (forwarded mail); null for none. */
    receiving_address: text(),
    created_at: integer().notNull(),
    updated_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'inboxes_team', on: 'team_id, seq' },
      { name: 'inboxes_address', on: 'lower(email_address)' },
    ],
  },
);

/** An inbox's agent settings (`actions` a JSON array); one row an inbox, gone with it. */
export const inboxAgentsTable = defineTable(
  'inbox_agents',
  {
    seq: seq(),
    id: id(),
    inbox_id: text().unique().notNull().references('inboxes', { onDelete: 'CASCADE' }),
    instructions: text(),
    tone: text(),
    /** JSON array of action names. */
    actions: text().notNull(),
    updated_at: integer().notNull(),
  },
);

/** An inbox's labels; gone with it. */
export const inboxLabelsTable = defineTable(
  'inbox_labels',
  {
    seq: seq(),
    id: id(),
    inbox_id: text().notNull().references('inboxes', { onDelete: 'CASCADE' }),
    name: text().notNull(),
    color: text().notNull(),
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'inbox_labels_inbox', on: 'inbox_id, seq' },
    ],
  },
);

/** An inbox's threads; `activity` orders them (see the top of this file). */
export const inboxThreadsTable = defineTable(
  'inbox_threads',
  {
    seq: seq(),
    id: id(),
    inbox_id: text().notNull().references('inboxes', { onDelete: 'CASCADE' }),
    subject: text(),
    folder: text().notNull().as<Folder>(),
    /** When the thread went to trash; null outside it. */
    trashed_at: integer(),
    assignee_email: text(),
    created_at: integer().notNull(),
    /** The activity order in its inbox (a counter, see the top of this file). */
    activity: integer().notNull().default(0),
  },
  {
    indexes: [
      { name: 'inbox_threads_inbox', on: 'inbox_id, seq' },
      { name: 'inbox_threads_activity', on: 'inbox_id, activity' },
    ],
  },
);

/** A thread's emails: a reference to a received (inbound) or sent (outbound) email by its id, with what belongs to the inbox (its thread, `read`, when it joined) and its Message-ID, the threading key. */
export const inboxMessagesTable = defineTable(
  'inbox_messages',
  {
    seq: seq(),
    id: text().notNull(),
    inbox_id: text().notNull().references('inboxes', { onDelete: 'CASCADE' }),
    thread_id: text().notNull().references('inbox_threads', { onDelete: 'CASCADE' }),
    direction: text().notNull().as<'inbound' | 'outbound'>(),
    /** The email's Message-ID, the threading key. */
    message_id: text(),
    /** 1 read, 0 unread. */
    read: integer().notNull(),
    /** When it joined the thread (emulated ms). */
    received_at: integer().notNull(),
  },
  {
    unique: [['inbox_id', 'id']],
    indexes: [
      { name: 'inbox_messages_thread', on: 'thread_id, seq' },
      { name: 'inbox_messages_message_id', on: 'inbox_id, message_id' },
    ],
  },
);

/** An inbox's drafts; `thread_id` becomes null when its thread is purged (a sent draft stays), `activity` orders them. */
export const inboxDraftsTable = defineTable(
  'inbox_drafts',
  {
    seq: seq(),
    id: id(),
    inbox_id: text().notNull().references('inboxes', { onDelete: 'CASCADE' }),
    type: text().notNull().as<'standalone' | 'reply'>(),
    to_addrs: text(),
    cc: text().notNull(),
    bcc: text().notNull(),
    subject: text(),
    html: text(),
    text: text(),
    thread_id: text().references('inbox_threads', { onDelete: 'SET NULL' }),
    reply_to_email_id: text(),
    /** The email it was sent as; null while unsent. */
    email_id: text(),
    /** JSON array of `StoredAttachment` (`[]` once sent). */
    attachments: text().notNull(),
    created_at: integer().notNull(),
    updated_at: integer().notNull(),
    /** The update order in its inbox (a counter, see the top of this file). */
    activity: integer().notNull().default(0),
  },
  {
    indexes: [
      { name: 'inbox_drafts_inbox', on: 'inbox_id, seq' },
      { name: 'inbox_drafts_activity', on: 'inbox_id, activity' },
      { name: 'inbox_drafts_thread', on: 'thread_id' },
    ],
  },
);

/** A thread's labels; gone with the thread or the label. */
export const inboxThreadLabelsTable = defineTable(
  'inbox_thread_labels',
  {
    seq: seq(),
    thread_id: text().notNull().references('inbox_threads', { onDelete: 'CASCADE' }),
    label_id: text().notNull().references('inbox_labels', { onDelete: 'CASCADE' }),
  },
  {
    unique: [['thread_id', 'label_id']],
    indexes: [
      { name: 'inbox_thread_labels_label', on: 'label_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [inboxesTable, inboxAgentsTable, inboxLabelsTable, inboxThreadsTable, inboxMessagesTable, inboxDraftsTable, inboxThreadLabelsTable];

/** The order of an inbox's thread and draft lists: latest activity first (see the top of this file). */
export const ACTIVITY_FIRST: PageOrder = { column: 'activity', direction: 'desc' };

/** An `inboxes` row. */
export type InboxRow = RowOf<typeof inboxesTable>;

/** An `inbox_agents` row (`actions`: JSON array). */
export type AgentRow = RowOf<typeof inboxAgentsTable>;

/** An `inbox_labels` row. */
export type LabelRow = RowOf<typeof inboxLabelsTable>;

/** The five folders (SDK `INBOX_MESSAGE_FOLDERS`). */
export type Folder = 'inbox' | 'archive' | 'spam' | 'sent' | 'trash';

/** An `inbox_threads` row. */
export type ThreadRow = RowOf<typeof inboxThreadsTable>;

/** A stored attachment of an unsent draft (`content` base64, null for a `path` one). */
export interface StoredAttachment {
  id: string;
  filename: string | null;
  size: number | null;
  content_type: string;
  content: string | null;
  path: string | null;
}

/**
 * An `inbox_messages` row: a thread email, which is the received email
 * (inbound) or sent email (outbound) with the same id. `message_id`: that
 * email's Message-ID, the threading key.
 */
export type MessageRow = RowOf<typeof inboxMessagesTable>;

/** An `inbox_drafts` row. */
export type DraftRow = RowOf<typeof inboxDraftsTable>;

/** The INSERT of a new inbox: every column but `seq`. */
const INSERT_INBOX = inboxesTable.insert(inboxesTable.columnsExcept('seq'));

/** The INSERT of an inbox's agent settings: every column but `seq`. */
const INSERT_AGENT = inboxAgentsTable.insert(inboxAgentsTable.columnsExcept('seq'));

/** The INSERT of a new label: every column but `seq`. */
const INSERT_LABEL = inboxLabelsTable.insert(inboxLabelsTable.columnsExcept('seq'));

/** The columns a new thread is given; its `activity` is computed in the INSERT (`insertThread`). */
const THREAD_COLUMNS = ['id', 'inbox_id', 'subject', 'folder', 'created_at'] as const;
const THREAD_VALUES = inboxThreadsTable.insert(THREAD_COLUMNS);
/** A new thread, one more than its inbox's highest `activity` (the last parameter: its inbox's id). */
const INSERT_THREAD = `INSERT INTO inbox_threads (${inboxThreadsTable.columnList([...THREAD_COLUMNS, 'activity'])})
  VALUES (${THREAD_COLUMNS.map(() => '?').join(', ')}, (SELECT COALESCE(MAX(activity), 0) + 1 FROM inbox_threads WHERE inbox_id = ?))`;

/** A label put on a thread, unless it has it already (the `(thread_id, label_id)` UNIQUE). */
const INSERT_THREAD_LABEL = inboxThreadLabelsTable.insert(['thread_id', 'label_id']);
const ADD_THREAD_LABEL = `${INSERT_THREAD_LABEL.sql} ON CONFLICT DO NOTHING`;

/** The INSERT of a thread email: every column but `seq`. */
const INSERT_MESSAGE = inboxMessagesTable.insert(inboxMessagesTable.columnsExcept('seq'));

/** The columns a new draft is given; its `activity` is computed in the INSERT (`insertDraft`). */
const DRAFT_COLUMNS = inboxDraftsTable.columnsExcept('seq', 'activity');
const DRAFT_VALUES = inboxDraftsTable.insert(DRAFT_COLUMNS);
/** A new draft, one more than its inbox's highest `activity` (the last parameter: its inbox's id). */
const INSERT_DRAFT = `INSERT INTO inbox_drafts (${inboxDraftsTable.columnList([...DRAFT_COLUMNS, 'activity'])})
  VALUES (${DRAFT_COLUMNS.map(() => '?').join(', ')}, (SELECT COALESCE(MAX(activity), 0) + 1 FROM inbox_drafts WHERE inbox_id = ?))`;

// --- inboxes ---

/** The team's inbox by id or address (case-insensitive), or undefined. */
export function findInbox(ctx: Emulator, teamId: string, idOrEmail: string): InboxRow | undefined {
  return ctx.db
    .prepare('SELECT * FROM inboxes WHERE team_id = ? AND (id = ? OR lower(email_address) = ?) ORDER BY seq LIMIT 1')
    .get(teamId, idOrEmail, idOrEmail.toLowerCase()) as InboxRow | undefined;
}

/** An inbox of any team by id or address (the admin API, which has no key), or undefined. */
export function findAnyInbox(ctx: Emulator, idOrEmail: string): InboxRow | undefined {
  return ctx.db
    .prepare('SELECT * FROM inboxes WHERE id = ? OR lower(email_address) = ? OR lower(receiving_address) = ? ORDER BY seq LIMIT 1')
    .get(idOrEmail, idOrEmail.toLowerCase(), idOrEmail.toLowerCase()) as InboxRow | undefined;
}

/** The team's inboxes whose address or `receiving_address` is `address` (case-insensitive). */
export function inboxesForAddress(ctx: Emulator, teamId: string, address: string): InboxRow[] {
  const a = address.toLowerCase();
  return ctx.db
    .prepare('SELECT * FROM inboxes WHERE team_id = ? AND (lower(email_address) = ? OR lower(receiving_address) = ?) ORDER BY seq')
    .all(teamId, a, a) as InboxRow[];
}

/** Inboxes of any team whose `receiving_address` is `address` (forwarded mail). */
export function inboxesForReceivingAddress(ctx: Emulator, address: string): InboxRow[] {
  return ctx.db.prepare('SELECT * FROM inboxes WHERE lower(receiving_address) = ? ORDER BY seq').all(address.toLowerCase()) as InboxRow[];
}

/** Inserts an inbox row. */
export function insertInbox(ctx: Emulator, r: Omit<InboxRow, 'seq'>): InboxRow {
  ctx.db.prepare(INSERT_INBOX.sql).run(...INSERT_INBOX.params(r));
  return ctx.db.prepare('SELECT * FROM inboxes WHERE id = ?').get(r.id) as InboxRow;
}

/** Sets an inbox's `name`, `from_name` and `updated_at`. */
export function updateInbox(ctx: Emulator, id: string, name: string, fromName: string | null, now: number): void {
  ctx.db.prepare('UPDATE inboxes SET name = ?, from_name = ?, updated_at = ? WHERE id = ?').run(name, fromName, now, id);
}

/**
 * Deletes an inbox with everything in it: threads, their emails' places in
 * them and label links, drafts, labels, agent settings, all by the foreign
 * keys' cascades (declared above; one transaction is the caller's). The
 * emails themselves stay (`GET /emails/receiving`, `GET /emails`).
 */
export function deleteInbox(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM inboxes WHERE id = ?').run(id);
}

/** A page of the request team's inboxes, newest first. */
export const pageInboxes = teamPager<InboxRow>('inboxes');

/** Every inbox of a team (or of all teams), oldest first: the dashboard and `emu` helpers. */
export function listInboxes(ctx: Emulator, teamId?: string): InboxRow[] {
  return (teamId
    ? ctx.db.prepare('SELECT * FROM inboxes WHERE team_id = ? ORDER BY seq').all(teamId)
    : ctx.db.prepare('SELECT * FROM inboxes ORDER BY seq').all()) as InboxRow[];
}

/** Counts of an inbox: unread threads in the `inbox` folder, unsent drafts, latest email time (ms or null). */
export function inboxCounts(ctx: Emulator, inboxId: string): { unread: number; drafts: number; lastReceived: number | null } {
  const unread = ctx.db
    .prepare(
      `SELECT COUNT(*) AS n FROM inbox_threads t WHERE t.inbox_id = ? AND t.folder = 'inbox'
       AND EXISTS (SELECT 1 FROM inbox_messages m WHERE m.thread_id = t.id AND m.read = 0)`,
    )
    .get(inboxId) as { n: number };
  const drafts = ctx.db.prepare('SELECT COUNT(*) AS n FROM inbox_drafts WHERE inbox_id = ? AND email_id IS NULL').get(inboxId) as { n: number };
  const last = ctx.db.prepare('SELECT MAX(received_at) AS at FROM inbox_messages WHERE inbox_id = ?').get(inboxId) as { at: number | null };
  return { unread: unread.n, drafts: drafts.n, lastReceived: last.at };
}

// --- agent settings ---

/** The inbox's agent settings row, or undefined when never configured. */
export function findAgent(ctx: Emulator, inboxId: string): AgentRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_agents WHERE inbox_id = ?').get(inboxId) as AgentRow | undefined;
}

/** Writes the inbox's agent settings (creating the row, with a new id, on first use). Returns the row's id. */
export function saveAgent(ctx: Emulator, inboxId: string, s: { instructions: string | null; tone: string | null; actions: string[] }, now: number): string {
  const row = findAgent(ctx, inboxId);
  if (row) {
    ctx.db.prepare('UPDATE inbox_agents SET instructions = ?, tone = ?, actions = ?, updated_at = ? WHERE inbox_id = ?').run(s.instructions, s.tone, JSON.stringify(s.actions), now, inboxId);
    return row.id;
  }
  const id = newId();
  const agent: Omit<AgentRow, 'seq'> = { id, inbox_id: inboxId, instructions: s.instructions, tone: s.tone, actions: JSON.stringify(s.actions), updated_at: now };
  ctx.db.prepare(INSERT_AGENT.sql).run(...INSERT_AGENT.params(agent));
  return id;
}

// --- labels ---

/** The inbox's labels, oldest first. */
export function listLabels(ctx: Emulator, inboxId: string): LabelRow[] {
  return ctx.db.prepare('SELECT * FROM inbox_labels WHERE inbox_id = ? ORDER BY seq').all(inboxId) as LabelRow[];
}

/** The inbox's label, or undefined. */
export function findLabel(ctx: Emulator, inboxId: string, id: string): LabelRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_labels WHERE inbox_id = ? AND id = ?').get(inboxId, id) as LabelRow | undefined;
}

/** The inbox's label with this name (case-insensitive), or undefined. */
export function findLabelByName(ctx: Emulator, inboxId: string, name: string): LabelRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_labels WHERE inbox_id = ? AND lower(name) = ?').get(inboxId, name.toLowerCase()) as LabelRow | undefined;
}

/** Inserts a label. */
export function insertLabel(ctx: Emulator, r: Omit<LabelRow, 'seq'>): void {
  ctx.db.prepare(INSERT_LABEL.sql).run(...INSERT_LABEL.params(r));
}

/** Sets a label's name and colour. */
export function updateLabel(ctx: Emulator, id: string, name: string, color: string): void {
  ctx.db.prepare('UPDATE inbox_labels SET name = ?, color = ? WHERE id = ?').run(name, color, id);
}

/** Deletes a label; it comes off every thread (foreign key cascade of `inbox_thread_labels`). */
export function deleteLabel(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM inbox_labels WHERE id = ?').run(id);
}

// --- threads ---

/** The inbox's thread, or undefined. */
export function findThread(ctx: Emulator, inboxId: string, id: string): ThreadRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_threads WHERE inbox_id = ? AND id = ?').get(inboxId, id) as ThreadRow | undefined;
}

/** A thread of any inbox by id (the purge job), or undefined. */
export function findThreadById(ctx: Emulator, id: string): ThreadRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_threads WHERE id = ?').get(id) as ThreadRow | undefined;
}

/** Inserts a thread, the most recently active of its inbox. */
export function insertThread(ctx: Emulator, r: Pick<ThreadRow, (typeof THREAD_COLUMNS)[number]>): void {
  ctx.db.prepare(INSERT_THREAD).run(...THREAD_VALUES.params(r), r.inbox_id);
}

/** Makes the thread its inbox's most recently active (see the top of this file). */
export function touchThread(ctx: Emulator, id: string): void {
  ctx.db
    .prepare('UPDATE inbox_threads SET activity = (SELECT MAX(t.activity) + 1 FROM inbox_threads t WHERE t.inbox_id = inbox_threads.inbox_id) WHERE id = ?')
    .run(id);
}

/** Sets a thread's folder (`trashed_at` set when it goes to trash, cleared otherwise). */
export function setThreadFolder(ctx: Emulator, id: string, folder: Folder, now: number): void {
  ctx.db.prepare('UPDATE inbox_threads SET folder = ?, trashed_at = ? WHERE id = ?').run(folder, folder === 'trash' ? now : null, id);
}

/** Sets a thread's assignee (null: unassigned). */
export function setThreadAssignee(ctx: Emulator, id: string, email: string | null): void {
  ctx.db.prepare('UPDATE inbox_threads SET assignee_email = ? WHERE id = ?').run(email, id);
}

/** Marks every email of a thread read or unread. */
export function setThreadRead(ctx: Emulator, id: string, read: boolean): void {
  ctx.db.prepare('UPDATE inbox_messages SET read = ? WHERE thread_id = ?').run(read ? 1 : 0, id);
}

/**
 * Deletes a thread with its unsent drafts (deleted here: a reply that can no
 * longer be sent into its thread). By the foreign keys (declared above) its
 * label links and its emails' places in it go with it, and a sent draft
 * stays, its `thread_id` set null. The emails themselves (received and
 * sent) stay where they are stored (`GET /emails/receiving`, `GET /emails`).
 */
export function deleteThread(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM inbox_drafts WHERE thread_id = ? AND email_id IS NULL').run(id);
  ctx.db.prepare('DELETE FROM inbox_threads WHERE id = ?').run(id);
}

/** Filters of a thread list (`folders` any-of; `labels` any-of; `read`; `ids`: only these threads). */
export interface ThreadFilter {
  folders: Folder[];
  labels?: string[];
  read?: boolean;
  ids?: string[];
}

/** The SQL condition and bind values of a thread filter. A thread in `inbox` with an outbound email also matches `sent` (docs/reference/inboxes.md#folders-and-read-state). */
function threadWhere(inboxId: string, f: ThreadFilter): { where: string; params: unknown[] } {
  const conds = ['inbox_id = ?'];
  const params: unknown[] = [inboxId];
  // Lists of values as one JSON array through json_each (src/store/db.ts: one SQL text per query shape).
  const folderConds = ['folder IN (SELECT value FROM json_each(?))'];
  params.push(JSON.stringify(f.folders));
  if (f.folders.includes('sent')) {
    folderConds.push("(folder = 'inbox' AND EXISTS (SELECT 1 FROM inbox_messages m WHERE m.thread_id = inbox_threads.id AND m.direction = 'outbound'))");
  }
  conds.push(`(${folderConds.join(' OR ')})`);
  if (f.labels?.length) {
    conds.push('EXISTS (SELECT 1 FROM inbox_thread_labels l WHERE l.thread_id = inbox_threads.id AND l.label_id IN (SELECT value FROM json_each(?)))');
    params.push(JSON.stringify(f.labels));
  }
  if (f.read !== undefined) {
    conds.push(`${f.read ? 'NOT ' : ''}EXISTS (SELECT 1 FROM inbox_messages m WHERE m.thread_id = inbox_threads.id AND m.read = 0)`);
  }
  if (f.ids) {
    conds.push('id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.ids));
  }
  return { where: conds.join(' AND '), params };
}

/** A page of the inbox's threads matching `f`, most recently active first. */
export function pageThreads<Item>(db: DB, inboxId: string, f: ThreadFilter, query: PageQuery, map: (r: ThreadRow) => Item): ListEnvelope<Item> {
  return paginate(db, { table: 'inbox_threads', ...threadWhere(inboxId, f), query, defaultLimit: 20, order: ACTIVITY_FIRST, map });
}

/** Most threads a search looks at (docs/reference/inboxes.md#search: at most 10 000 threads). */
export const SEARCH_CAP = 10_000;

/** Every thread of the inbox matching `f` (unpaged, at most `SEARCH_CAP`), most recently active first: what a search reads. */
export function threadsMatching(ctx: Emulator, inboxId: string, f: ThreadFilter): ThreadRow[] {
  const { where, params } = threadWhere(inboxId, f);
  return ctx.db.prepare(`SELECT * FROM inbox_threads WHERE ${where} ORDER BY activity DESC, seq DESC LIMIT ?`).all(...params, SEARCH_CAP) as ThreadRow[];
}

/** Every thread of an inbox, most recently active first (dashboard, `emu`). */
export function listThreads(ctx: Emulator, inboxId: string): ThreadRow[] {
  return ctx.db.prepare('SELECT * FROM inbox_threads WHERE inbox_id = ? ORDER BY activity DESC, seq DESC').all(inboxId) as ThreadRow[];
}

/** The thread's labels, in the order they were applied. */
export function threadLabels(ctx: Emulator, threadId: string): LabelRow[] {
  return ctx.db
    .prepare('SELECT l.* FROM inbox_thread_labels tl JOIN inbox_labels l ON l.id = tl.label_id WHERE tl.thread_id = ? ORDER BY tl.seq')
    .all(threadId) as LabelRow[];
}

/** Applies a label to a thread; false when it already had it. */
export function addThreadLabel(ctx: Emulator, threadId: string, labelId: string): boolean {
  return ctx.db.prepare(ADD_THREAD_LABEL).run(...INSERT_THREAD_LABEL.params({ thread_id: threadId, label_id: labelId })).changes > 0;
}

/** Takes a label off a thread; false when it did not have it. */
export function removeThreadLabel(ctx: Emulator, threadId: string, labelId: string): boolean {
  return ctx.db.prepare('DELETE FROM inbox_thread_labels WHERE thread_id = ? AND label_id = ?').run(threadId, labelId).changes > 0;
}

// --- thread emails ---

/** The thread's emails, oldest first. */
export function threadMessages(ctx: Emulator, threadId: string): MessageRow[] {
  return ctx.db.prepare('SELECT * FROM inbox_messages WHERE thread_id = ? ORDER BY seq').all(threadId) as MessageRow[];
}

/** A page of a thread's emails, oldest first (docs/reference/inboxes.md#thread-emails: `after` = the last id seen → newer ones). */
export function pageThreadMessages(db: DB, threadId: string, query: PageQuery): ListEnvelope<MessageRow> {
  return paginate(db, { table: 'inbox_messages', where: 'thread_id = ?', params: [threadId], query, defaultLimit: 20, order: { column: 'seq', direction: 'asc' }, map: (r: MessageRow) => r });
}

/** The thread's email, or undefined. */
export function findMessage(ctx: Emulator, threadId: string, id: string): MessageRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_messages WHERE thread_id = ? AND id = ?').get(threadId, id) as MessageRow | undefined;
}

/** The inbox's email with this id (any thread), or undefined. */
export function findInboxMessage(ctx: Emulator, inboxId: string, id: string): MessageRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_messages WHERE inbox_id = ? AND id = ?').get(inboxId, id) as MessageRow | undefined;
}

/** The thread of the inbox's first email whose `Message-ID` is `messageId`, or undefined (RFC 5322 §3.6.4 threading). */
export function threadOfMessageId(ctx: Emulator, inboxId: string, messageId: string): string | undefined {
  const row = ctx.db.prepare('SELECT thread_id FROM inbox_messages WHERE inbox_id = ? AND message_id = ? ORDER BY seq LIMIT 1').get(inboxId, messageId) as
    | { thread_id: string }
    | undefined;
  return row?.thread_id;
}

/** Adds an email (received or sent, by its id) to a thread. */
export function insertMessage(ctx: Emulator, r: Omit<MessageRow, 'seq'>): void {
  ctx.db.prepare(INSERT_MESSAGE.sql).run(...INSERT_MESSAGE.params(r));
}

// --- drafts ---

/** The inbox's draft, or undefined. */
export function findDraft(ctx: Emulator, inboxId: string, id: string): DraftRow | undefined {
  return ctx.db.prepare('SELECT * FROM inbox_drafts WHERE inbox_id = ? AND id = ?').get(inboxId, id) as DraftRow | undefined;
}

/** The unsent reply draft of an email, or undefined. */
export function unsentReplyDraft(ctx: Emulator, inboxId: string, threadId: string, emailId: string): DraftRow | undefined {
  return ctx.db
    .prepare('SELECT * FROM inbox_drafts WHERE inbox_id = ? AND thread_id = ? AND reply_to_email_id = ? AND email_id IS NULL ORDER BY seq LIMIT 1')
    .get(inboxId, threadId, emailId) as DraftRow | undefined;
}

/** Whether the thread has an unsent draft. */
export function threadHasDraft(ctx: Emulator, threadId: string): boolean {
  return ctx.db.prepare('SELECT 1 FROM inbox_drafts WHERE thread_id = ? AND email_id IS NULL LIMIT 1').get(threadId) !== undefined;
}

/** Inserts a draft, the most recently updated of its inbox. */
export function insertDraft(ctx: Emulator, r: Omit<DraftRow, 'seq' | 'activity'>): void {
  ctx.db.prepare(INSERT_DRAFT).run(...DRAFT_VALUES.params(r), r.inbox_id);
}

/** Writes a draft's editable fields and makes it its inbox's most recently updated. */
export function updateDraft(ctx: Emulator, r: Pick<DraftRow, 'id' | 'to_addrs' | 'cc' | 'bcc' | 'subject' | 'html' | 'text' | 'attachments' | 'updated_at'>): void {
  ctx.db
    .prepare(
      `UPDATE inbox_drafts SET to_addrs = @to_addrs, cc = @cc, bcc = @bcc, subject = @subject, html = @html, text = @text, attachments = @attachments,
       updated_at = @updated_at, activity = (SELECT MAX(d.activity) + 1 FROM inbox_drafts d WHERE d.inbox_id = inbox_drafts.inbox_id) WHERE id = @id`,
    )
    .run(r);
}

/**
 * Records that a draft was sent as email `emailId` (it leaves the list).
 * Its bodies and files are the email's from now on: the draft's own copies
 * are dropped (`html`, `text` null, `attachments` `[]`).
 */
export function markDraftSent(ctx: Emulator, id: string, emailId: string, threadId: string, now: number): void {
  ctx.db.prepare("UPDATE inbox_drafts SET email_id = ?, thread_id = ?, updated_at = ?, html = NULL, text = NULL, attachments = '[]' WHERE id = ?").run(emailId, threadId, now, id);
}

/** Deletes a draft. */
export function deleteDraft(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM inbox_drafts WHERE id = ?').run(id);
}

/** A page of the inbox's unsent drafts, most recently updated first. */
export function pageDrafts<Item>(db: DB, inboxId: string, query: PageQuery, map: (r: DraftRow) => Item): ListEnvelope<Item> {
  return paginate(db, { table: 'inbox_drafts', where: 'inbox_id = ? AND email_id IS NULL', params: [inboxId], query, defaultLimit: 20, order: ACTIVITY_FIRST, map });
}

/** Every draft of an inbox, most recently updated first (dashboard, `emu`). */
export function listDrafts(ctx: Emulator, inboxId: string): DraftRow[] {
  return ctx.db.prepare('SELECT * FROM inbox_drafts WHERE inbox_id = ? ORDER BY activity DESC, seq DESC').all(inboxId) as DraftRow[];
}
