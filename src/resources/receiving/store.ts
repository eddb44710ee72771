/**
 * Storage of received emails: the tables (migration 18; 37 the quota
 * counts, `receivedCounts`), rows and the
 * queries every operation shares. Bytes (the raw message, attachment
 * contents) are stored as base64 TEXT so that snapshots (JSON) keep them.
 */
import type { Emulator } from '../../context.js';
import type { Migration, Statement } from '../../store/db.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';

const DAY_MS = 86_400_000;

export const migrations: Migration[] = [
  {
    version: 18,
    name: 'received_emails',
    sql: `CREATE TABLE received_emails (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      team_id TEXT NOT NULL,
      from_header TEXT NOT NULL,
      from_address TEXT NOT NULL,
      to_addresses TEXT NOT NULL,
      cc_addresses TEXT NOT NULL,
      bcc_addresses TEXT NOT NULL,
      reply_to_addresses TEXT NOT NULL,
      received_for TEXT NOT NULL,
      subject TEXT NOT NULL,
      message_id TEXT NOT NULL,
      html TEXT,
      text TEXT,
      headers TEXT NOT NULL,
      raw TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX received_emails_team ON received_emails (team_id, seq);
    CREATE TABLE received_attachments (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      team_id TEXT NOT NULL,
      email_id TEXT NOT NULL,
      filename TEXT,
      content_type TEXT NOT NULL,
      content_id TEXT,
      content_disposition TEXT,
      size INTEGER NOT NULL,
      content TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX received_attachments_email ON received_attachments (email_id, seq);`,
  },
  {
    // The team's received emails per UTC day (for constant-time quota checks), kept by triggers in the statement that inserts or
    // deletes a row, so a quota check reads at most the month's days; see `receivedCounts`. The emulator's
    // bookkeeping (`emulator_`): not in snapshots, not emptied by reset (the triggers follow the rows).
    version: 37,
    name: 'received_usage',
    sql: `CREATE TABLE emulator_received_usage (
      team_id TEXT NOT NULL,
      day INTEGER NOT NULL,
      emails INTEGER NOT NULL,
      PRIMARY KEY (team_id, day)
    ) WITHOUT ROWID;
    CREATE TRIGGER received_emails_usage_insert AFTER INSERT ON received_emails BEGIN
      INSERT INTO emulator_received_usage (team_id, day, emails) VALUES (NEW.team_id, CAST(NEW.created_at / 86400000 AS INTEGER), 1)
      ON CONFLICT (team_id, day) DO UPDATE SET emails = emails + 1;
    END;
    CREATE TRIGGER received_emails_usage_delete AFTER DELETE ON received_emails BEGIN
      UPDATE emulator_received_usage SET emails = emails - 1 WHERE team_id = OLD.team_id AND day = CAST(OLD.created_at / 86400000 AS INTEGER);
    END;
    INSERT INTO emulator_received_usage (team_id, day, emails)
      SELECT team_id, CAST(created_at / 86400000 AS INTEGER), COUNT(*) FROM received_emails GROUP BY 1, 2;`,
  },
];

/** A `received_emails` row; address columns are JSON arrays of bare addresses. */
export interface ReceivedEmailRow {
  seq: number;
  id: string;
  team_id: string;
  /** The From header as written (`Name <a@b>` or `a@b`). */
  from_header: string;
  /** The bare sender address. */
  from_address: string;
  to_addresses: string;
  cc_addresses: string;
  bcc_addresses: string;
  reply_to_addresses: string;
  received_for: string;
  subject: string;
  message_id: string;
  html: string | null;
  text: string | null;
  /** JSON object, lower-case header name → first value. */
  headers: string;
  /** The message as received, base64; `''` for a fixtures email whose message is not composed yet (see `receivedRaw`). */
  raw: string;
  /** Emulated ms. */
  created_at: number;
}

/** A `received_attachments` row. Rows are inserted last part first, so `seq DESC` is message order. */
export interface ReceivedAttachmentRow {
  seq: number;
  id: string;
  team_id: string;
  email_id: string;
  filename: string | null;
  content_type: string;
  /** Without the angle brackets. */
  content_id: string | null;
  content_disposition: 'inline' | 'attachment' | null;
  /** Bytes. */
  size: number;
  /** base64. */
  content: string;
  created_at: number;
}

/** The team's received email, or 404 `not_found` "Email not found" (another team's email included). */
export function getEmailOr404(ctx: Emulator, teamId: string, id: string): ReceivedEmailRow {
  const row = ctx.db.prepare('SELECT * FROM received_emails WHERE id = ? AND team_id = ?').get(id, teamId) as ReceivedEmailRow | undefined;
  if (!row) throw errors.notFound('Email');
  return row;
}

/** Attachments of one email in message order, without their contents unless `withContent`. */
export function attachmentsOf(ctx: Emulator, emailId: string, withContent = false): ReceivedAttachmentRow[] {
  const cols = withContent ? '*' : 'seq, id, team_id, email_id, filename, content_type, content_id, content_disposition, size, created_at';
  return ctx.db.prepare(`SELECT ${cols} FROM received_attachments WHERE email_id = ? ORDER BY seq DESC`).all(emailId) as ReceivedAttachmentRow[];
}

/** An attachment row by id, or `undefined`. */
export function findAttachment(ctx: Emulator, id: string): ReceivedAttachmentRow | undefined {
  return ctx.db.prepare('SELECT * FROM received_attachments WHERE id = ?').get(id) as ReceivedAttachmentRow | undefined;
}

/** A received email row by id (any team), or `undefined`. For the admin API. */
export function findEmail(ctx: Emulator, id: string): ReceivedEmailRow | undefined {
  return ctx.db.prepare('SELECT * FROM received_emails WHERE id = ?').get(id) as ReceivedEmailRow | undefined;
}

/** Keeps the raw message (base64) composed for a received email stored without one (see `receivedRaw`). */
export function setReceivedRaw(ctx: Emulator, id: string, rawB64: string): void {
  ctx.db.prepare('UPDATE received_emails SET raw = ? WHERE id = ?').run(rawB64, id);
}

/** The team's received emails, newest first, at most `limit` (for the admin dashboard). */
export function listReceivedEmails(ctx: Emulator, teamId: string, limit = 200): ReceivedEmailRow[] {
  return ctx.db.prepare('SELECT * FROM received_emails WHERE team_id = ? ORDER BY seq DESC LIMIT ?').all(teamId, limit) as ReceivedEmailRow[];
}

/** A page of the team's received emails (`paginateTeam` options but the table). */
export const pageReceivedEmails = teamPager<ReceivedEmailRow>('received_emails');
/** The table's name, for `paginate` with a filter (an email's attachments). */
export const RECEIVED_ATTACHMENTS = 'received_attachments';

/** An attachment of a received email without its content, or undefined. */
export function attachmentMeta(ctx: Emulator, emailId: string, id: string): ReceivedAttachmentRow | undefined {
  return ctx.db
    .prepare('SELECT seq, id, team_id, email_id, filename, content_type, content_id, content_disposition, size, created_at FROM received_attachments WHERE id = ? AND email_id = ?')
    .get(id, emailId) as ReceivedAttachmentRow | undefined;
}

/**
 * The INSERT of a received email, prepared once for a message's copies:
 * `.run(id, team_id, from_header, from_address, to_addresses, cc_addresses,
 * bcc_addresses, reply_to_addresses, received_for, subject, message_id, html,
 * text, headers, raw, created_at)` (arrays as JSON text, raw as base64).
 */
export function receivedEmailInsert(ctx: Emulator): Statement {
  return ctx.db.prepare(
    `INSERT INTO received_emails (id, team_id, from_header, from_address, to_addresses, cc_addresses, bcc_addresses, reply_to_addresses,
       received_for, subject, message_id, html, text, headers, raw, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
}

/**
 * The INSERT of a received attachment: `.run(id, team_id, email_id,
 * filename, content_type, content_id, content_disposition, size, content
 * (base64), created_at)`.
 */
export function receivedAttachmentInsert(ctx: Emulator): Statement {
  return ctx.db.prepare(
    `INSERT INTO received_attachments (id, team_id, email_id, filename, content_type, content_id, content_disposition, size, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
}

/**
 * How many received emails count toward the team's quota in two windows
 * (each one email, the service's knowledge base), read in one query from
 * the per-day counts of migration 37: `day`, those stored at or after
 * `dayStartMs`, and `month`, at or after `monthStartMs` (emulated ms; UTC
 * day starts, as usage's `quotaWindows` gives them).
 */
export function receivedCounts(ctx: Emulator, teamId: string, dayStartMs: number, monthStartMs: number): { day: number; month: number } {
  return ctx.db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN day >= ? THEN emails END), 0) AS day, COALESCE(SUM(emails), 0) AS month
       FROM emulator_received_usage WHERE team_id = ? AND day >= ?`,
    )
    .get(Math.floor(dayStartMs / DAY_MS), teamId, Math.floor(monthStartMs / DAY_MS)) as { day: number; month: number };
}

/** A received email without its raw message; `html` and `text` only when asked for (`receivedEmailsByIds`). */
export type ReceivedEmailHead = Omit<ReceivedEmailRow, 'raw' | 'html' | 'text'> & { html?: string | null; text?: string | null };

/** The columns of a `ReceivedEmailHead` without its bodies. */
const HEAD_COLUMNS = 'seq, id, team_id, from_header, from_address, to_addresses, cc_addresses, bcc_addresses, reply_to_addresses, received_for, subject, message_id, headers, created_at';

/**
 * Received emails by id (any team; unknown ids are left out), without the
 * raw message, with `html` and `text` when `bodies`: what an inbox's thread
 * reads of the emails it holds (one query for a page of them).
 */
export function receivedEmailsByIds(ctx: Emulator, ids: readonly string[], bodies: boolean): ReceivedEmailHead[] {
  if (ids.length === 0) return [];
  return ctx.db
    .prepare(`SELECT ${HEAD_COLUMNS}${bodies ? ', html, text' : ''} FROM received_emails WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as ReceivedEmailHead[];
}

/** The attachments of these received emails without their contents, each email's in message order. */
export function receivedAttachmentsOfEmails(ctx: Emulator, emailIds: readonly string[]): Omit<ReceivedAttachmentRow, 'content'>[] {
  if (emailIds.length === 0) return [];
  return ctx.db
    .prepare(
      `SELECT seq, id, team_id, email_id, filename, content_type, content_id, content_disposition, size, created_at FROM received_attachments
       WHERE email_id IN (SELECT value FROM json_each(?)) ORDER BY seq DESC`,
    )
    .all(JSON.stringify(emailIds)) as Omit<ReceivedAttachmentRow, 'content'>[];
}
