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
import type { DB, Migration } from '../../store/db.js';
import { newId } from '../../http/format.js';
import { paginate, teamPager, type ListEnvelope, type PageOrder, type PageQuery } from '../../http/pagination.js';

/** The inboxes tables' migrations (numbered in the order written, src/store/schema.ts). */
export const migrations: Migration[] = [
  {
    version: 34,
    name: 'inboxes',
    sql: `CREATE TABLE inboxes (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      team_id TEXT NOT NULL,
      domain_id TEXT NOT NULL,
      email_address TEXT NOT NULL,
      name TEXT NOT NULL,
      from_name TEXT,
      receiving_address TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX inboxes_team ON inboxes (team_id, seq);
    CREATE INDEX inboxes_address ON inboxes (lower(email_address));
    CREATE TABLE inbox_agents (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT UNIQUE NOT NULL,
      instructions TEXT,
      tone TEXT,
      actions TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE inbox_labels (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL,
      name TEXT NOT NULL,
      color TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX inbox_labels_inbox ON inbox_labels (inbox_id, seq);
    CREATE TABLE inbox_threads (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL,
      subject TEXT,
      folder TEXT NOT NULL,
      trashed_at INTEGER,
      assignee_email TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX inbox_threads_inbox ON inbox_threads (inbox_id, seq);
    CREATE TABLE inbox_thread_labels (
      seq INTEGER PRIMARY KEY,
      thread_id TEXT NOT NULL,
      label_id TEXT NOT NULL,
      UNIQUE (thread_id, label_id)
    );
    CREATE TABLE inbox_messages (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      inbox_id TEXT NOT NULL,
      thread_id TEXT NOT NULL,
      direction TEXT NOT NULL,
      from_addr TEXT NOT NULL,
      to_addrs TEXT NOT NULL,
      cc TEXT NOT NULL,
      bcc TEXT NOT NULL,
      reply_to TEXT NOT NULL,
      subject TEXT,
      message_id TEXT,
      refs TEXT NOT NULL,
      html TEXT,
      text TEXT,
      attachments TEXT NOT NULL,
      read INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      UNIQUE (inbox_id, id)
    );
    CREATE INDEX inbox_messages_thread ON inbox_messages (thread_id, seq);
    CREATE INDEX inbox_messages_message_id ON inbox_messages (inbox_id, message_id);
    CREATE TABLE inbox_drafts (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL,
      type TEXT NOT NULL,
      to_addrs TEXT,
      cc TEXT NOT NULL,
      bcc TEXT NOT NULL,
      subject TEXT,
      html TEXT,
      text TEXT,
      thread_id TEXT,
      reply_to_email_id TEXT,
      email_id TEXT,
      attachments TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX inbox_drafts_inbox ON inbox_drafts (inbox_id, seq);`,
  },
  {
    version: 35,
    name: 'inbox_messages_reference_emails',
    // One fact, one row (two copies could disagree, and doubled the store): a thread email becomes a reference to its received or sent email. A thread
    // email of an older store that exists nowhere else (a fixture-seeded one) moves to where its kind of email
    // lives (received_emails with its attachments, or emails with its attachments), once; then the copied
    // columns go, and a sent draft's bodies and files (its email's now) are dropped.
    sql: `INSERT OR IGNORE INTO received_attachments (id, team_id, email_id, filename, content_type, content_id, content_disposition, size, content, created_at)
      SELECT a.value ->> 'id', i.team_id, m.id, a.value ->> 'filename', COALESCE(a.value ->> 'content_type', 'application/octet-stream'), NULL, 'attachment',
        COALESCE(a.value ->> 'size', 0), COALESCE(a.value ->> 'content', ''), m.received_at
      FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id, json_each(m.attachments) a
      WHERE m.direction = 'inbound' AND NOT EXISTS (SELECT 1 FROM received_emails r WHERE r.id = m.id)
      ORDER BY m.seq, a.key DESC;
    INSERT OR IGNORE INTO received_emails (id, team_id, from_header, from_address, to_addresses, cc_addresses, bcc_addresses, reply_to_addresses,
        received_for, subject, message_id, html, text, headers, raw, created_at)
      SELECT m.id, i.team_id, m.from_addr,
        CASE WHEN instr(m.from_addr, '<') > 0 THEN substr(m.from_addr, instr(m.from_addr, '<') + 1, instr(m.from_addr, '>') - instr(m.from_addr, '<') - 1) ELSE m.from_addr END,
        m.to_addrs, m.cc, m.bcc, m.reply_to, json_array(i.email_address), COALESCE(m.subject, ''),
        COALESCE(m.message_id, '<' || m.id || '@inbox.resend-emulator.localhost>'), m.html, m.text,
        CASE WHEN json_array_length(m.refs) > 0 THEN json_object('references', (SELECT group_concat(value, ' ') FROM json_each(m.refs))) ELSE '{}' END,
        '', m.received_at
      FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id
      WHERE m.direction = 'inbound' AND NOT EXISTS (SELECT 1 FROM received_emails r WHERE r.id = m.id)
      ORDER BY m.seq;
    INSERT OR IGNORE INTO email_attachments (id, email_id, team_id, filename, content_type, content_id, path, content, size)
      SELECT a.value ->> 'id', m.id, i.team_id, a.value ->> 'filename', COALESCE(a.value ->> 'content_type', 'application/octet-stream'), NULL,
        a.value ->> 'path', a.value ->> 'content', COALESCE(a.value ->> 'size', 0)
      FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id, json_each(m.attachments) a
      WHERE m.direction = 'outbound' AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = m.id)
      ORDER BY m.seq, a.key;
    INSERT OR IGNORE INTO emails (id, team_id, message_id, from_addr, to_addrs, cc, bcc, reply_to, subject, html, text, headers, tags,
        last_event, scheduled_at, created_at, source, domain_id, broadcast_id, template_id, topic_id, automation_run_id, contact_id, events)
      SELECT m.id, i.team_id, COALESCE(m.message_id, '<' || m.id || '@inbox.resend-emulator.localhost>'), m.from_addr, m.to_addrs,
        NULLIF(m.cc, '[]'), NULLIF(m.bcc, '[]'), NULLIF(m.reply_to, '[]'), COALESCE(m.subject, ''), m.html, m.text,
        CASE WHEN json_array_length(m.refs) > 0 THEN json_object('In-Reply-To', m.refs ->> '$[#-1]', 'References', (SELECT group_concat(value, ' ') FROM json_each(m.refs))) END,
        NULL, 'delivered', NULL, m.received_at, 'api', i.domain_id, NULL, NULL, NULL, NULL, NULL,
        json_array(json_object('type', 'delivered', 'at', m.received_at))
      FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id
      WHERE m.direction = 'outbound' AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = m.id)
      ORDER BY m.seq;
    ALTER TABLE inbox_messages DROP COLUMN from_addr;
    ALTER TABLE inbox_messages DROP COLUMN to_addrs;
    ALTER TABLE inbox_messages DROP COLUMN cc;
    ALTER TABLE inbox_messages DROP COLUMN bcc;
    ALTER TABLE inbox_messages DROP COLUMN reply_to;
    ALTER TABLE inbox_messages DROP COLUMN subject;
    ALTER TABLE inbox_messages DROP COLUMN refs;
    ALTER TABLE inbox_messages DROP COLUMN html;
    ALTER TABLE inbox_messages DROP COLUMN text;
    ALTER TABLE inbox_messages DROP COLUMN attachments;
    UPDATE inbox_drafts SET html = NULL, text = NULL, attachments = '[]' WHERE email_id IS NOT NULL;`,
  },
  {
    version: 38,
    name: 'inbox_activity_order',
    // Cursors rely on `seq` as the insertion order: threads and drafts listed by an `activity` column through the pager's order, instead of rewriting
    // `seq`. An older store's `seq` already is that order (it was rewritten on activity), so it seeds the column.
    sql: `ALTER TABLE inbox_threads ADD COLUMN activity INTEGER NOT NULL DEFAULT 0;
    UPDATE inbox_threads SET activity = seq;
    CREATE INDEX inbox_threads_activity ON inbox_threads (inbox_id, activity);
    ALTER TABLE inbox_drafts ADD COLUMN activity INTEGER NOT NULL DEFAULT 0;
    UPDATE inbox_drafts SET activity = seq;
    CREATE INDEX inbox_drafts_activity ON inbox_drafts (inbox_id, activity);`,
  },
  {
    // Foreign keys (docs/reference/inboxes.md#inboxes-and-arriving-mail and docs/reference/inboxes.md#sent-drafts): an inbox's agent, labels, threads, thread emails and drafts go
    // with it; a thread's emails' places and label links go with the thread, a label's links with the label; a
    // sent draft outlives its thread with `thread_id` null (deleteThread removes the unsent ones, a rule of
    // its own). Table rebuilds (SQLite adds a foreign key no other way), parents first; rows whose inbox,
    // thread or label is gone are dropped, a sent draft's gone thread set null (the checks are deferred for
    // the copies, and what `foreign_key_check` finds is settled before the commit). Two indexes serve the
    // cascades: drafts by thread, label links by label.
    version: 42,
    name: 'inbox_foreign_keys',
    sql: `PRAGMA defer_foreign_keys = ON;
    CREATE TABLE inbox_threads_fk (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
      subject TEXT,
      folder TEXT NOT NULL,
      trashed_at INTEGER,
      assignee_email TEXT,
      created_at INTEGER NOT NULL,
      activity INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO inbox_threads_fk (seq, id, inbox_id, subject, folder, trashed_at, assignee_email, created_at, activity)
      SELECT seq, id, inbox_id, subject, folder, trashed_at, assignee_email, created_at, activity FROM inbox_threads;
    DROP TABLE inbox_threads;
    ALTER TABLE inbox_threads_fk RENAME TO inbox_threads;
    DELETE FROM inbox_threads WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_threads'));
    CREATE INDEX inbox_threads_inbox ON inbox_threads (inbox_id, seq);
    CREATE INDEX inbox_threads_activity ON inbox_threads (inbox_id, activity);
    CREATE TABLE inbox_labels_fk (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      color TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    INSERT INTO inbox_labels_fk (seq, id, inbox_id, name, color, created_at) SELECT seq, id, inbox_id, name, color, created_at FROM inbox_labels;
    DROP TABLE inbox_labels;
    ALTER TABLE inbox_labels_fk RENAME TO inbox_labels;
    DELETE FROM inbox_labels WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_labels'));
    CREATE INDEX inbox_labels_inbox ON inbox_labels (inbox_id, seq);
    CREATE TABLE inbox_agents_fk (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT UNIQUE NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
      instructions TEXT,
      tone TEXT,
      actions TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
    INSERT INTO inbox_agents_fk (seq, id, inbox_id, instructions, tone, actions, updated_at)
      SELECT seq, id, inbox_id, instructions, tone, actions, updated_at FROM inbox_agents;
    DROP TABLE inbox_agents;
    ALTER TABLE inbox_agents_fk RENAME TO inbox_agents;
    DELETE FROM inbox_agents WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_agents'));
    CREATE TABLE inbox_messages_fk (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      inbox_id TEXT NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
      thread_id TEXT NOT NULL REFERENCES inbox_threads (id) ON DELETE CASCADE,
      direction TEXT NOT NULL,
      message_id TEXT,
      read INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      UNIQUE (inbox_id, id)
    );
    INSERT INTO inbox_messages_fk (seq, id, inbox_id, thread_id, direction, message_id, read, received_at)
      SELECT seq, id, inbox_id, thread_id, direction, message_id, read, received_at FROM inbox_messages;
    DROP TABLE inbox_messages;
    ALTER TABLE inbox_messages_fk RENAME TO inbox_messages;
    DELETE FROM inbox_messages WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_messages'));
    CREATE INDEX inbox_messages_thread ON inbox_messages (thread_id, seq);
    CREATE INDEX inbox_messages_message_id ON inbox_messages (inbox_id, message_id);
    CREATE TABLE inbox_drafts_fk (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      inbox_id TEXT NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      to_addrs TEXT,
      cc TEXT NOT NULL,
      bcc TEXT NOT NULL,
      subject TEXT,
      html TEXT,
      text TEXT,
      thread_id TEXT REFERENCES inbox_threads (id) ON DELETE SET NULL,
      reply_to_email_id TEXT,
      email_id TEXT,
      attachments TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      activity INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO inbox_drafts_fk (seq, id, inbox_id, type, to_addrs, cc, bcc, subject, html, text, thread_id, reply_to_email_id, email_id, attachments, created_at, updated_at, activity)
      SELECT seq, id, inbox_id, type, to_addrs, cc, bcc, subject, html, text, thread_id, reply_to_email_id, email_id, attachments, created_at, updated_at, activity FROM inbox_drafts;
    DROP TABLE inbox_drafts;
    ALTER TABLE inbox_drafts_fk RENAME TO inbox_drafts;
    DELETE FROM inbox_drafts WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_drafts') WHERE parent = 'inboxes');
    DELETE FROM inbox_drafts WHERE email_id IS NULL AND seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_drafts'));
    UPDATE inbox_drafts SET thread_id = NULL WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_drafts'));
    CREATE INDEX inbox_drafts_inbox ON inbox_drafts (inbox_id, seq);
    CREATE INDEX inbox_drafts_activity ON inbox_drafts (inbox_id, activity);
    CREATE INDEX inbox_drafts_thread ON inbox_drafts (thread_id);
    CREATE TABLE inbox_thread_labels_fk (
      seq INTEGER PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES inbox_threads (id) ON DELETE CASCADE,
      label_id TEXT NOT NULL REFERENCES inbox_labels (id) ON DELETE CASCADE,
      UNIQUE (thread_id, label_id)
    );
    INSERT INTO inbox_thread_labels_fk (seq, thread_id, label_id) SELECT seq, thread_id, label_id FROM inbox_thread_labels;
    DROP TABLE inbox_thread_labels;
    ALTER TABLE inbox_thread_labels_fk RENAME TO inbox_thread_labels;
    DELETE FROM inbox_thread_labels WHERE seq IN (SELECT rowid FROM pragma_foreign_key_check('inbox_thread_labels'));
    CREATE INDEX inbox_thread_labels_label ON inbox_thread_labels (label_id);`,
  },
];

/** The order of an inbox's thread and draft lists: latest activity first (see the top of this file). */
export const ACTIVITY_FIRST: PageOrder = { column: 'activity', direction: 'desc' };

/** An `inboxes` row. */
export interface InboxRow {
  seq: number;
  id: string;
  team_id: string;
  domain_id: string;
  email_address: string;
  name: string;
  from_name: string | null;
  receiving_address: string | null;
  created_at: number;
  updated_at: number;
}

/** An `inbox_agents` row (`actions`: JSON array). */
export interface AgentRow {
  id: string;
  inbox_id: string;
  instructions: string | null;
  tone: string | null;
  actions: string;
  updated_at: number;
}

/** An `inbox_labels` row. */
export interface LabelRow {
  seq: number;
  id: string;
  inbox_id: string;
  name: string;
  color: string;
  created_at: number;
}

/** The five folders (SDK `INBOX_MESSAGE_FOLDERS`). */
export type Folder = 'inbox' | 'archive' | 'spam' | 'sent' | 'trash';

/** An `inbox_threads` row. */
export interface ThreadRow {
  seq: number;
  id: string;
  inbox_id: string;
  subject: string | null;
  folder: Folder;
  trashed_at: number | null;
  assignee_email: string | null;
  created_at: number;
  /** The activity order in its inbox (a counter, see the top of this file). */
  activity: number;
}

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
export interface MessageRow {
  seq: number;
  id: string;
  inbox_id: string;
  thread_id: string;
  direction: 'inbound' | 'outbound';
  message_id: string | null;
  read: number;
  /** When it joined the thread (emulated ms). */
  received_at: number;
}

/** An `inbox_drafts` row. */
export interface DraftRow {
  seq: number;
  id: string;
  inbox_id: string;
  type: 'standalone' | 'reply';
  to_addrs: string | null;
  cc: string;
  bcc: string;
  subject: string | null;
  html: string | null;
  text: string | null;
  thread_id: string | null;
  reply_to_email_id: string | null;
  email_id: string | null;
  attachments: string;
  created_at: number;
  updated_at: number;
  /** The update order in its inbox (a counter, see the top of this file). */
  activity: number;
}

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
  ctx.db
    .prepare(
      'INSERT INTO inboxes (id, team_id, domain_id, email_address, name, from_name, receiving_address, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(r.id, r.team_id, r.domain_id, r.email_address, r.name, r.from_name, r.receiving_address, r.created_at, r.updated_at);
  return ctx.db.prepare('SELECT * FROM inboxes WHERE id = ?').get(r.id) as InboxRow;
}

/** Sets an inbox's `name`, `from_name` and `updated_at`. */
export function updateInbox(ctx: Emulator, id: string, name: string, fromName: string | null, now: number): void {
  ctx.db.prepare('UPDATE inboxes SET name = ?, from_name = ?, updated_at = ? WHERE id = ?').run(name, fromName, now, id);
}

/**
 * Deletes an inbox with everything in it: threads, their emails' places in
 * them and label links, drafts, labels, agent settings, all by the foreign
 * keys' cascades (migration 42; one transaction is the caller's). The
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
  ctx.db.prepare('INSERT INTO inbox_agents (id, inbox_id, instructions, tone, actions, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, inboxId, s.instructions, s.tone, JSON.stringify(s.actions), now);
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
  ctx.db.prepare('INSERT INTO inbox_labels (id, inbox_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)').run(r.id, r.inbox_id, r.name, r.color, r.created_at);
}

/** Sets a label's name and colour. */
export function updateLabel(ctx: Emulator, id: string, name: string, color: string): void {
  ctx.db.prepare('UPDATE inbox_labels SET name = ?, color = ? WHERE id = ?').run(name, color, id);
}

/** Deletes a label; it comes off every thread (foreign key cascade, migration 42). */
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
export function insertThread(ctx: Emulator, r: { id: string; inbox_id: string; subject: string | null; folder: Folder; created_at: number }): void {
  ctx.db
    .prepare(
      `INSERT INTO inbox_threads (id, inbox_id, subject, folder, created_at, activity)
       VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(activity), 0) + 1 FROM inbox_threads WHERE inbox_id = ?))`,
    )
    .run(r.id, r.inbox_id, r.subject, r.folder, r.created_at, r.inbox_id);
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
 * longer be sent into its thread). By the foreign keys (migration 42) its
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
  return ctx.db.prepare('INSERT OR IGNORE INTO inbox_thread_labels (thread_id, label_id) VALUES (?, ?)').run(threadId, labelId).changes > 0;
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
  ctx.db
    .prepare(
      `INSERT INTO inbox_messages (id, inbox_id, thread_id, direction, message_id, read, received_at)
       VALUES (@id, @inbox_id, @thread_id, @direction, @message_id, @read, @received_at)`,
    )
    .run(r);
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
  ctx.db
    .prepare(
      `INSERT INTO inbox_drafts (id, inbox_id, type, to_addrs, cc, bcc, subject, html, text, thread_id, reply_to_email_id, email_id, attachments, created_at, updated_at, activity)
       VALUES (@id, @inbox_id, @type, @to_addrs, @cc, @bcc, @subject, @html, @text, @thread_id, @reply_to_email_id, @email_id, @attachments, @created_at, @updated_at,
         (SELECT COALESCE(MAX(activity), 0) + 1 FROM inbox_drafts WHERE inbox_id = @inbox_id))`,
    )
    .run(r);
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
