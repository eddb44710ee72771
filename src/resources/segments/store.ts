/**
 * Segment rows (audiences are the same rows under their deprecated name,
 * docs/reference/interface-spec.md#audience-deprecated-and-segment). Memberships
 * (`contact_segments`) are the contacts resource's.
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `segments` table. */
export const segmentsTable = defineTable(
  'segments',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'segments_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [segmentsTable];

/** A `segments` row. */
export type SegmentRow = RowOf<typeof segmentsTable>;

/** The columns `toSegmentItem` reads. */
const LIST_NAMES = ['id', 'name', 'created_at'] as const;

/** What a list item reads of a segment: its `SEGMENT_LIST_COLUMNS`. */
export type SegmentListRow = Pick<SegmentRow, (typeof LIST_NAMES)[number]>;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const SEGMENT_LIST_COLUMNS = segmentsTable.columnList(LIST_NAMES);

/** The list item `{id, name, created_at}` (no `object`, docs/reference/interface-spec.md#conventions). */
export function toSegmentItem(row: SegmentListRow) {
  return { id: row.id, name: row.name, created_at: apiTime(row.created_at) };
}

/** The names of the team's segments among `ids`, in one query; an id not the team's is absent. */
export function segmentNamesOf(ctx: Emulator, teamId: string, ids: readonly string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  const rows = ctx.db
    .prepare('SELECT id, name FROM segments WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))')
    .all(teamId, JSON.stringify(ids)) as Pick<SegmentRow, 'id' | 'name'>[];
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The team's segment, or undefined. */
export function findSegment(ctx: Emulator, teamId: string, id: string): SegmentRow | undefined {
  return ctx.db.prepare('SELECT * FROM segments WHERE id = ? AND team_id = ?').get(id, teamId) as SegmentRow | undefined;
}

/** The team's segment, or 404 `Audience not found` (the service's wording even on /segments, docs/reference/errors.md#recorded-messages). */
export function getSegmentOr404(ctx: Emulator, teamId: string, id: string): SegmentRow {
  const row = findSegment(ctx, teamId, id);
  if (!row) throw errors.notFound('Audience');
  return row;
}

/** The INSERT of a new segment: every column but `seq`, positional. */
const INSERT_SEGMENT = segmentsTable.insert(segmentsTable.columnsExcept('seq'));

/** Inserts a segment. Returns the row. */
export function insertSegment(ctx: Emulator, s: { id?: string; teamId: string; name: string; createdAt?: number }): SegmentRow {
  const id = s.id ?? newId();
  ctx.db.prepare(INSERT_SEGMENT.sql).run(...INSERT_SEGMENT.params({ id, team_id: s.teamId, name: s.name, created_at: s.createdAt ?? ctx.clock.nowMs() }));
  return ctx.db.prepare('SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow;
}

/** Deletes the team's segment row; its memberships go with it (foreign key of `contact_segments`, declared by contacts; its contacts stay). Returns whether it existed. */
export function deleteSegment(ctx: Emulator, teamId: string, id: string): boolean {
  return ctx.db.prepare('DELETE FROM segments WHERE id = ? AND team_id = ?').run(id, teamId).changes > 0;
}

/** Renames a segment. */
export function renameSegment(ctx: Emulator, id: string, name: string): void {
  ctx.db.prepare('UPDATE segments SET name = ? WHERE id = ?').run(name, id);
}

/** The team's segments, oldest first (for the admin dashboard). */
export function listSegments(ctx: Emulator, teamId: string): SegmentRow[] {
  return ctx.db.prepare('SELECT * FROM segments WHERE team_id = ? ORDER BY seq').all(teamId) as SegmentRow[];
}

/** A page of the team's `segments` rows (`paginateTeam` options but the table). */
export const pageSegments = teamPager<SegmentRow>('segments');

/** How many segments the team has (GET /usage `segments.used`). */
export function countSegments(ctx: Emulator, teamId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM segments WHERE team_id = ?').get(teamId) as { n: number }).n;
}
