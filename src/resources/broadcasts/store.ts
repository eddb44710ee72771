/**
 * The broadcasts table, its row ↔ API shapes, and the lookups of other
 * modules' rows a broadcast refers to (segment, topic).
 */
import type { Emulator } from '../../context.js';
import type { DB } from '../../store/db.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { apiTime, newId, replyToList } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Statuses (docs/reference/resources.md#broadcasts): `draft` → `scheduled` → `queued` (sending) → `sent`; `canceled` is final. */
export type BroadcastStatus = 'draft' | 'scheduled' | 'queued' | 'sent' | 'canceled';

/** Content fields a broadcast is created or updated with (API names). */
export interface BroadcastContent {
  name?: string | null;
  segment_id?: string;
  from?: string;
  subject?: string;
  reply_to?: string | string[] | null;
  preview_text?: string | null;
  html?: string | null;
  text?: string | null;
  topic_id?: string | null;
}

/** The `broadcasts` table: times in emulated ms. */
export const broadcastsTable = defineTable(
  'broadcasts',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    segment_id: text().notNull(),
    from_address: text().notNull(),
    subject: text().notNull(),
    /** JSON array text, or null. */
    reply_to: text(),
    preview_text: text(),
    html: text(),
    text: text(),
    topic_id: text(),
    status: text().notNull().as<BroadcastStatus>(),
    created_at: integer().notNull(),
    scheduled_at: integer(),
    sent_at: integer(),
  },
  {
    indexes: [
      { name: 'broadcasts_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [broadcastsTable];

/** A stored broadcast; times in emulated ms, `reply_to` as JSON text or null. */
export type BroadcastRow = RowOf<typeof broadcastsTable>;

/** The INSERT of a new broadcast: every column but `seq`. */
const INSERT_BROADCAST = broadcastsTable.insert(broadcastsTable.columnsExcept('seq'));

/** The columns its list items read (a page selects only these, not the html and text: a list reads only what it shows). */
export const BROADCAST_LIST_COLUMNS = broadcastsTable.columnList(['id', 'name', 'segment_id', 'status', 'created_at', 'scheduled_at', 'sent_at']);

/** A row as a list page reads it (`BROADCAST_LIST_COLUMNS`). */
export type BroadcastListRow = Pick<BroadcastRow, 'id' | 'name' | 'segment_id' | 'status' | 'created_at' | 'scheduled_at' | 'sent_at'>;

/** The list item (docs/reference/interface-spec.md#broadcast; no `topic_id`, docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 15). */
export function toListItem(r: BroadcastListRow): ListItem<'broadcasts/list'> {
  return {
    id: r.id,
    name: r.name,
    audience_id: r.segment_id,
    segment_id: r.segment_id,
    status: r.status,
    created_at: apiTime(r.created_at),
    scheduled_at: apiTime(r.scheduled_at),
    sent_at: apiTime(r.sent_at),
  };
}

/** A row's content in API names (what a duplicate copies). */
export function contentOf(r: BroadcastRow): BroadcastContent & { segment_id: string; from: string; subject: string } {
  return {
    name: r.name,
    segment_id: r.segment_id,
    from: r.from_address,
    subject: r.subject,
    reply_to: r.reply_to === null ? null : (JSON.parse(r.reply_to) as string[]),
    preview_text: r.preview_text,
    html: r.html,
    text: r.text,
    topic_id: r.topic_id,
  };
}

export function toBroadcast(r: BroadcastRow): ResponseBody<'broadcasts/get'> {
  return {
    object: 'broadcast',
    id: r.id,
    name: r.name,
    audience_id: r.segment_id,
    segment_id: r.segment_id,
    from: r.from_address,
    subject: r.subject,
    reply_to: contentOf(r).reply_to as string[] | null,
    preview_text: r.preview_text,
    html: r.html,
    text: r.text,
    status: r.status,
    created_at: apiTime(r.created_at),
    scheduled_at: apiTime(r.scheduled_at),
    sent_at: apiTime(r.sent_at),
    topic_id: r.topic_id,
  };
}

/** The team's broadcast, or undefined. */
function findBroadcast(db: DB, teamId: string, id: string): BroadcastRow | undefined {
  return db.prepare('SELECT * FROM broadcasts WHERE id = ? AND team_id = ?').get(id, teamId) as BroadcastRow | undefined;
}

/** The team's broadcast. Throws 404 `Broadcast not found` (another team's too). */
export function getOr404(db: DB, teamId: string, id: string): BroadcastRow {
  const row = findBroadcast(db, teamId, id);
  if (!row) throw errors.notFound('Broadcast');
  return row;
}

/** Inserts a broadcast and returns its row. Synchronous; callers validate. */
export function insertBroadcast(
  ctx: Emulator,
  b: { id?: string; teamId: string; content: BroadcastContent & { segment_id: string; from: string; subject: string }; status?: BroadcastStatus; createdAt?: number; scheduledAt?: number | null; sentAt?: number | null },
): BroadcastRow {
  const id = b.id ?? newId();
  const c = b.content;
  const replyTo = replyToList(c.reply_to);
  ctx.db.prepare(INSERT_BROADCAST.sql).run(...INSERT_BROADCAST.params({
    id,
    team_id: b.teamId,
    name: c.name ?? '',
    segment_id: c.segment_id,
    from_address: c.from,
    subject: c.subject,
    reply_to: replyTo ? JSON.stringify(replyTo) : null,
    preview_text: c.preview_text ?? null,
    html: c.html ?? null,
    text: c.text ?? null,
    topic_id: c.topic_id ?? null,
    status: b.status ?? 'draft',
    created_at: b.createdAt ?? ctx.clock.nowMs(),
    scheduled_at: b.scheduledAt ?? null,
    sent_at: b.sentAt ?? null,
  }));
  return ctx.db.prepare('SELECT * FROM broadcasts WHERE id = ?').get(id) as BroadcastRow;
}

/** The team's broadcasts, newest first (for the admin dashboard). */
export function listBroadcasts(ctx: Emulator, teamId: string): BroadcastRow[] {
  return ctx.db.prepare('SELECT * FROM broadcasts WHERE team_id = ? ORDER BY seq DESC').all(teamId) as BroadcastRow[];
}

/** The team's broadcasts, id → name (for the emails metrics). */
export function broadcastNamesOf(ctx: Emulator, teamId: string): Map<string, string> {
  return new Map((ctx.db.prepare('SELECT id, name FROM broadcasts WHERE team_id = ?').all(teamId) as Pick<BroadcastRow, 'id' | 'name'>[]).map((b) => [b.id, b.name]));
}

/** The table's name, for `paginateTeam` (GET /broadcasts). */
export const BROADCASTS = 'broadcasts';

/** The columns `updateBroadcast` may set, each with its value as stored (`reply_to` JSON array text or null; `name`, `segment_id`, `from_address` and `subject` never null). */
export type BroadcastChanges = Partial<Pick<BroadcastRow, 'name' | 'segment_id' | 'from_address' | 'subject' | 'reply_to' | 'preview_text' | 'html' | 'text' | 'topic_id'>>;

/** Every column of `BroadcastChanges`: the only names `updateBroadcast` writes into its SQL. */
const CHANGEABLE: readonly (keyof BroadcastChanges)[] = ['name', 'segment_id', 'from_address', 'subject', 'reply_to', 'preview_text', 'html', 'text', 'topic_id'];

/**
 * Sets the given columns of a broadcast (PATCH /broadcasts/{id}); a column
 * absent from `changes` keeps its value. The SQL names only the columns of
 * `CHANGEABLE`, whatever other keys `changes` may carry at run time.
 */
export function updateBroadcast(ctx: Emulator, id: string, changes: BroadcastChanges): void {
  const columns = CHANGEABLE.filter((c) => Object.hasOwn(changes, c) && changes[c] !== undefined);
  if (!columns.length) return;
  ctx.db.prepare(`UPDATE broadcasts SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...columns.map((c) => changes[c] ?? null), id);
}

/** Deletes a broadcast row (the caller drops its jobs in the same transaction). */
export function deleteBroadcast(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM broadcasts WHERE id = ?').run(id);
}

/** The broadcast `id` (any team), or undefined. */
export function broadcastById(ctx: Emulator, id: string): BroadcastRow | undefined {
  return ctx.db.prepare('SELECT * FROM broadcasts WHERE id = ?').get(id) as BroadcastRow | undefined;
}

/** The lifecycle states a broadcast's jobs move it through (src/resources/broadcasts/jobs.ts). */
type BroadcastStatusChange =
  | { status: 'scheduled'; scheduledAt: number }
  | { status: 'queued'; scheduledAt: number | null }
  | { status: 'draft' }
  | { status: 'canceled' }
  | { status: 'sent'; sentAt: number };

/**
 * Moves a broadcast to `change.status`: `scheduled` and `queued` set
 * `scheduled_at` (ms, or null), `draft` clears it, `sent` sets `sent_at`
 * (ms). Call inside the caller's transaction.
 */
export function setBroadcastStatus(ctx: Emulator, id: string, change: BroadcastStatusChange): void {
  switch (change.status) {
    case 'scheduled':
    case 'queued':
      ctx.db.prepare('UPDATE broadcasts SET status = ?, scheduled_at = ? WHERE id = ?').run(change.status, change.scheduledAt, id);
      return;
    case 'draft':
      ctx.db.prepare(`UPDATE broadcasts SET status = 'draft', scheduled_at = NULL WHERE id = ?`).run(id);
      return;
    case 'canceled':
      ctx.db.prepare(`UPDATE broadcasts SET status = 'canceled' WHERE id = ?`).run(id);
      return;
    case 'sent':
      ctx.db.prepare(`UPDATE broadcasts SET status = 'sent', sent_at = ? WHERE id = ?`).run(change.sentAt, id);
  }
}

/** How many broadcasts the team has (GET /usage `broadcasts.used`; the service sets no limit). */
export function countBroadcasts(ctx: Emulator, teamId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM broadcasts WHERE team_id = ?').get(teamId) as { n: number }).n;
}
