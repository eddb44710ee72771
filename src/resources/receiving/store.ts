/**
 * Storage of received emails: the tables (declared here), rows and the
 * queries every operation shares. Bytes (the raw message, attachment
 * contents) are stored as base64 TEXT so that snapshots (JSON) keep them.
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import { recordReceive, recordReceives } from '../usage/service.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Received emails: address columns are JSON arrays of bare addresses; `raw` the message as received, base64. */
export const receivedEmailsTable = defineTable(
  'received_emails',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    /** The From header as written (`Name <a@b>` or `a@b`). */
    from_header: text().notNull(),
    /** The bare sender address. */
    from_address: text().notNull(),
    to_addresses: text().notNull(),
    cc_addresses: text().notNull(),
    bcc_addresses: text().notNull(),
    reply_to_addresses: text().notNull(),
    received_for: text().notNull(),
    subject: text().notNull(),
    message_id: text().notNull(),
    html: text(),
    text: text(),
    /** JSON object, lower-case header name → first value. */
    headers: text().notNull(),
    /** The message as received, base64; `''` for a fixtures email whose message is not composed yet (see `receivedRaw`). */
    raw: text().notNull(),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'received_emails_team', on: 'team_id, seq' },
    ],
  },
);

/** Attachments of received emails (`content` base64); inserted last part first, so `seq DESC` is message order. */
export const receivedAttachmentsTable = defineTable(
  'received_attachments',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    email_id: text().notNull(),
    filename: text(),
    content_type: text().notNull(),
    /** Without the angle brackets. */
    content_id: text(),
    content_disposition: text().as<'inline' | 'attachment' | null>(),
    /** Bytes. */
    size: integer().notNull(),
    /** base64. */
    content: text().notNull(),
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'received_attachments_email', on: 'email_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [receivedEmailsTable, receivedAttachmentsTable];

/** A `received_emails` row; address columns are JSON arrays of bare addresses. */
export type ReceivedEmailRow = RowOf<typeof receivedEmailsTable>;

/** A `received_attachments` row. Rows are inserted last part first, so `seq DESC` is message order. */
export type ReceivedAttachmentRow = RowOf<typeof receivedAttachmentsTable>;

/** The team's received email, or 404 `not_found` "Email not found" (another team's email included). */
export function getEmailOr404(ctx: Emulator, teamId: string, id: string): ReceivedEmailRow {
  const row = ctx.db.prepare('SELECT * FROM received_emails WHERE id = ? AND team_id = ?').get(id, teamId) as ReceivedEmailRow | undefined;
  if (!row) throw errors.notFound('Email');
  return row;
}

/** A `received_attachments` row without its content (`ATTACHMENT_META_COLUMNS`). */
export type ReceivedAttachmentMeta = Omit<ReceivedAttachmentRow, 'content'>;

/** The columns of a `ReceivedAttachmentMeta`: every column but `content`. */
export const ATTACHMENT_META_COLUMNS = receivedAttachmentsTable.columnList(receivedAttachmentsTable.columnsExcept('content'));

/** Attachments of one email in message order, without their contents unless `withContent`. */
export function attachmentsOf(ctx: Emulator, emailId: string, withContent: true): ReceivedAttachmentRow[];
export function attachmentsOf(ctx: Emulator, emailId: string, withContent?: false): ReceivedAttachmentMeta[];
export function attachmentsOf(ctx: Emulator, emailId: string, withContent = false): ReceivedAttachmentMeta[] {
  const cols = withContent ? '*' : ATTACHMENT_META_COLUMNS;
  return ctx.db.prepare(`SELECT ${cols} FROM received_attachments WHERE email_id = ? ORDER BY seq DESC`).all(emailId) as ReceivedAttachmentMeta[];
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

/** A received email as a list reads it (`RECEIVED_LIST_COLUMNS`): no raw message, bodies or headers. */
export type ReceivedEmailListRow = Omit<ReceivedEmailRow, 'raw' | 'html' | 'text' | 'headers'>;

/** The columns of a `ReceivedEmailListRow`. */
export const RECEIVED_LIST_COLUMNS = receivedEmailsTable.columnList(receivedEmailsTable.columnsExcept('raw', 'html', 'text', 'headers'));
/** The table's name, for `paginate` with a filter (an email's attachments). */
export const RECEIVED_ATTACHMENTS = 'received_attachments';

/** An attachment of a received email without its content, or undefined. */
export function attachmentMeta(ctx: Emulator, emailId: string, id: string): ReceivedAttachmentMeta | undefined {
  return ctx.db
    .prepare(`SELECT ${ATTACHMENT_META_COLUMNS} FROM received_attachments WHERE id = ? AND email_id = ?`)
    .get(id, emailId) as ReceivedAttachmentMeta | undefined;
}

/** The INSERT of a received email: every column but `seq`, positional. */
const INSERT_RECEIVED = receivedEmailsTable.insert(receivedEmailsTable.columnsExcept('seq'));

/**
 * Stores a received email (arrays as JSON text, `raw` base64, times in
 * emulated ms) and records it in the usage ledger (`recordReceive`: one
 * email toward the team's quota), in the caller's transaction. The one
 * writer of `received_emails`.
 */
export function insertReceivedEmail(ctx: Emulator, row: Omit<ReceivedEmailRow, 'seq'>): void {
  ctx.db.prepare(INSERT_RECEIVED.sql).run(...INSERT_RECEIVED.params(row));
  recordReceive(ctx, row.team_id, row.created_at);
}

/**
 * Records the received emails of a snapshot import in the usage ledger
 * (they go in as rows, not through `insertReceivedEmail`; the ledger forgot
 * its counts when the tables were emptied). Call inside the import's
 * transaction (the module's `imported` hook).
 */
export function recordImportedReceived(ctx: Emulator): void {
  const rows = ctx.db.prepare(`SELECT ${receivedEmailsTable.columnList(['team_id', 'created_at'])} FROM received_emails`).raw().all() as [ReceivedEmailRow['team_id'], ReceivedEmailRow['created_at']][];
  recordReceives(ctx, rows.map(([teamId, atMs]) => ({ teamId, atMs })));
}

/** The INSERT of a received attachment: every column but `seq`, positional. */
const INSERT_ATTACHMENT = receivedAttachmentsTable.insert(receivedAttachmentsTable.columnsExcept('seq'));

/** Stores an attachment of a received email (`content` base64, `size` in bytes), in the caller's transaction. */
export function insertReceivedAttachment(ctx: Emulator, row: Omit<ReceivedAttachmentRow, 'seq'>): void {
  ctx.db.prepare(INSERT_ATTACHMENT.sql).run(...INSERT_ATTACHMENT.params(row));
}

/** A received email without its raw message; `html` and `text` only when asked for (`receivedEmailsByIds`). */
export type ReceivedEmailHead = Omit<ReceivedEmailRow, 'raw' | 'html' | 'text'> & { html?: string | null; text?: string | null };

/** The columns of a `ReceivedEmailHead` without its bodies. */
const HEAD_COLUMNS = receivedEmailsTable.columnList(receivedEmailsTable.columnsExcept('raw', 'html', 'text'));

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
export function receivedAttachmentsOfEmails(ctx: Emulator, emailIds: readonly string[]): ReceivedAttachmentMeta[] {
  if (emailIds.length === 0) return [];
  return ctx.db
    .prepare(
      `SELECT ${ATTACHMENT_META_COLUMNS} FROM received_attachments
       WHERE email_id IN (SELECT value FROM json_each(?)) ORDER BY seq DESC`,
    )
    .all(JSON.stringify(emailIds)) as ReceivedAttachmentMeta[];
}
