/**
 * Suppression rows, their API shapes and events (docs/reference/resources.md#suppressions; docs/reference/webhooks.md#envelope-and-data
 * "suppression.*"). Other modules call `addSuppression` / `findSuppression`
 * (the emails lifecycle adds `bounce` and `complaint` entries and checks the
 * list before sending).
 *
 * One entry per team and address: addresses are compared lower-cased,
 * stored as first given.
 */
import type { Emulator } from '../../context.js';
import { apiTime, isoTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { emitEvent } from '../../deliveries/emit.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `suppressions` table. */
export const suppressionsTable = defineTable(
  'suppressions',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    /** The address as first given (trimmed). */
    email: text().notNull(),
    /** `email` lower-cased: what `findSuppression` looks up (one entry per team and key). */
    email_key: text().notNull(),
    origin: text().notNull().as<SuppressionOrigin>(),
    /** The email that bounced or complained; null for `manual`. */
    source_id: text(),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'suppressions_team_email', on: 'team_id, email_key', unique: true },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [suppressionsTable];

export type SuppressionOrigin = 'bounce' | 'complaint' | 'manual';

/** A `suppressions` row; times in emulated ms. */
export type SuppressionRow = RowOf<typeof suppressionsTable>;

/** The columns the API shapes and webhook data read. */
const LIST_NAMES = ['id', 'email', 'origin', 'source_id', 'created_at'] as const;

/** What the API shapes read of an entry: its `SUPPRESSION_LIST_COLUMNS`. */
export type SuppressionListRow = Pick<SuppressionRow, (typeof LIST_NAMES)[number]>;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const SUPPRESSION_LIST_COLUMNS = suppressionsTable.columnList(LIST_NAMES);

/** List item shape: `{id, email, origin, source_id, created_at}` (SDK `SuppressionListEntry`). */
export function toSuppressionListItem(r: SuppressionListRow) {
  return { id: r.id, email: r.email, origin: r.origin, source_id: r.source_id, created_at: apiTime(r.created_at) };
}

/** Single shape: the list item plus `object: "suppression"`. */
export function toSuppression(r: SuppressionListRow) {
  return { object: 'suppression' as const, ...toSuppressionListItem(r) };
}

/** Webhook `data` of `suppression.added|removed` (docs/reference/webhooks.md#envelope-and-data: id, email, origin, source_id, created_at ISO). */
function eventData(r: SuppressionListRow) {
  return { id: r.id, email: r.email, origin: r.origin, source_id: r.source_id, created_at: isoTime(r.created_at) };
}

/** The team's entry for an address (case-insensitive), or undefined. */
export function findSuppression(ctx: Emulator, teamId: string, email: string): SuppressionRow | undefined {
  return ctx.db.prepare('SELECT * FROM suppressions WHERE team_id = ? AND email_key = ?').get(teamId, email.trim().toLowerCase()) as SuppressionRow | undefined;
}

/** The team's entry by id or by address, or 404 `Suppression not found`. */
export function getSuppressionOr404(ctx: Emulator, teamId: string, idOrEmail: string): SuppressionRow {
  const row = findSuppressionById(ctx, teamId, idOrEmail) ?? findSuppression(ctx, teamId, idOrEmail);
  if (!row) throw errors.notFound('Suppression');
  return row;
}

/**
 * Adds an address to the team's list and raises `suppression.added`; an
 * address already listed keeps its entry (no event). Synchronous, so it can
 * run inside the caller's transaction. `sourceId`: the email that bounced or
 * complained (null for `manual`). Returns the entry and whether it is new.
 */
export function addSuppression(
  ctx: Emulator,
  teamId: string,
  email: string,
  origin: SuppressionOrigin,
  sourceId: string | null = null,
): { row: SuppressionRow; created: boolean } {
  const existing = findSuppression(ctx, teamId, email);
  if (existing) return { row: existing, created: false };
  const id = newId();
  insertSuppressionRow(ctx, { id, teamId, email, origin, sourceId, createdAt: ctx.clock.nowMs() });
  const row = ctx.db.prepare('SELECT * FROM suppressions WHERE id = ?').get(id) as SuppressionRow;
  emitEvent(ctx, teamId, 'suppression.added', eventData(row));
  return { row, created: true };
}

/** Deletes an entry and raises `suppression.removed`. */
export function removeSuppression(ctx: Emulator, row: SuppressionRow): void {
  ctx.db.prepare('DELETE FROM suppressions WHERE id = ?').run(row.id);
  emitEvent(ctx, row.team_id, 'suppression.removed', eventData(row));
}

/** The table's name, for `paginate` with a filter (GET /suppressions?origin=). */
export const SUPPRESSIONS = 'suppressions';

/** The team's suppression with this id, or undefined. */
export function findSuppressionById(ctx: Emulator, teamId: string, id: string): SuppressionRow | undefined {
  return ctx.db.prepare('SELECT * FROM suppressions WHERE team_id = ? AND id = ?').get(teamId, id) as SuppressionRow | undefined;
}

/** The INSERT of a new entry: every column but `seq`, positional. */
const INSERT_SUPPRESSION = suppressionsTable.insert(suppressionsTable.columnsExcept('seq'));

/**
 * The one INSERT of a suppression: the address stored trimmed, its key
 * trimmed and lower-cased (what `findSuppression` looks up). No event, no
 * checks: `addSuppression` does those; the fixtures seed calls it as is.
 */
export function insertSuppressionRow(ctx: Emulator, s: { id: string; teamId: string; email: string; origin: SuppressionOrigin; sourceId: string | null; createdAt: number }): void {
  const email = String(s.email).trim();
  const row: Omit<SuppressionRow, 'seq'> = { id: s.id, team_id: s.teamId, email, email_key: email.toLowerCase(), origin: s.origin, source_id: s.sourceId, created_at: s.createdAt };
  ctx.db.prepare(INSERT_SUPPRESSION.sql).run(...INSERT_SUPPRESSION.params(row));
}

