/**
 * Event definitions: rows, lookup by id or name, shapes, and payload coercion
 * against a definition's schema (docs/reference/resources.md#events).
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import { eventMessages } from './messages.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

export type PayloadType = 'string' | 'number' | 'boolean' | 'date';

/** The `events` table. */
export const eventsTable = defineTable(
  'events',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    /** JSON `{key: type}` (`PayloadType`s by key) or null. */
    schema: text(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms of the last schema change; `created_at` until the first. */
    updated_at: integer(),
  },
  {
    unique: [['team_id', 'name']],
    indexes: [
      { name: 'events_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [eventsTable];

/** An `events` row: an event definition. */
export type EventRow = RowOf<typeof eventsTable>;

/** The team's event by id or name (id first), or undefined. */
export function findEvent(ctx: Emulator, teamId: string, idOrName: string): EventRow | undefined {
  return (ctx.db.prepare('SELECT * FROM events WHERE team_id = ? AND id = ?').get(teamId, idOrName)
    ?? ctx.db.prepare('SELECT * FROM events WHERE team_id = ? AND name = ?').get(teamId, idOrName)) as EventRow | undefined;
}

/** Like `findEvent`; throws 404 `Event not found`. */
export function eventOr404(ctx: Emulator, teamId: string, idOrName: string): EventRow {
  const row = findEvent(ctx, teamId, idOrName);
  if (!row) throw errors.notFound('Event');
  return row;
}

/** The INSERT of a new definition: every column but `seq`, positional. */
const INSERT_EVENT = eventsTable.insert(eventsTable.columnsExcept('seq'));

/** Inserts a definition. Throws 422 `validation_error` when the team already has that name. */
export function insertEvent(ctx: Emulator, teamId: string, e: { id?: string; name: string; schema?: Record<string, PayloadType> | null; createdAt?: number }): EventRow {
  if (ctx.db.prepare('SELECT 1 FROM events WHERE team_id = ? AND name = ?').get(teamId, e.name)) {
    throw eventMessages.nameTaken(e.name);
  }
  const id = e.id ?? newId();
  const now = e.createdAt ?? ctx.clock.nowMs();
  ctx.db.prepare(INSERT_EVENT.sql).run(...INSERT_EVENT.params({ id, team_id: teamId, name: e.name, schema: e.schema ? JSON.stringify(e.schema) : null, created_at: now, updated_at: now }));
  return ctx.db.prepare('SELECT * FROM events WHERE id = ?').get(id) as EventRow;
}

/** The columns `eventItem` reads. */
const LIST_NAMES = ['id', 'name', 'schema', 'created_at', 'updated_at'] as const;

/** What a list item reads of a definition: its `EVENT_LIST_COLUMNS`. */
export type EventListRow = Pick<EventRow, (typeof LIST_NAMES)[number]>;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const EVENT_LIST_COLUMNS = eventsTable.columnList(LIST_NAMES);

/** The list item `{id, name, schema, created_at, updated_at}` (`schema` parsed, times as the API writes them). */
export function eventItem(r: EventListRow) {
  return { id: r.id, name: r.name, schema: r.schema ? JSON.parse(r.schema) : null, created_at: apiTime(r.created_at), updated_at: apiTime(r.updated_at) };
}

function coerceOne(type: PayloadType, v: unknown): unknown {
  switch (type) {
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      return undefined;
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      return undefined;
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      return undefined;
    case 'date': {
      if (typeof v !== 'string' && typeof v !== 'number') return undefined;
      const ms = typeof v === 'number' ? v : Date.parse(v);
      return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
    }
  }
}

/**
 * Validates and coerces a payload to an event schema (docs/reference/interface-spec.md#event:
 * values are validated and coerced to the schema's types):
 * numbers and booleans become strings for `string`; numeric strings become
 * numbers; `"true"`/`"false"` booleans; dates become ISO 8601 (`Z`). Keys
 * not in the schema pass unchanged; absent or null keys are allowed. Throws
 * 422 `validation_error` naming the field.
 */
export function coercePayload(schema: Record<string, PayloadType> | null, payload: Record<string, unknown>): Record<string, unknown> {
  if (!schema) return payload;
  const out = { ...payload };
  for (const [key, type] of Object.entries(schema)) {
    const v = payload[key];
    if (v === undefined || v === null) continue;
    const c = coerceOne(type, v);
    if (c === undefined) {
      throw eventMessages.payloadType(key, type);
    }
    out[key] = c;
  }
  return out;
}

/** A page of the team's `events` rows (`paginateTeam` options but the table). */
export const pageEvents = teamPager<EventRow>('events');

/** Sets (or, with null, clears) an event's schema; `updated_at` = emulated now. */
export function setEventSchema(ctx: Emulator, id: string, schema: unknown): void {
  ctx.db.prepare('UPDATE events SET schema = ?, updated_at = ? WHERE id = ?').run(schema ? JSON.stringify(schema) : null, ctx.clock.nowMs(), id);
}

/** Deletes an event row. */
export function deleteEvent(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM events WHERE id = ?').run(id);
}
