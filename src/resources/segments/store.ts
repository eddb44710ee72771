/**
 * Segment rows (audiences are the same rows under their deprecated name,
 * interface-spec "Audience (deprecated) and Segment") and contact
 * memberships (`contact_segments`).
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import type { Migration } from '../../store/db.js';

/** The segments tables' schema steps (range in src/resources/index.ts). */
export const migrations: Migration[] = [
  {
    version: 600,
    name: 'segments',
    sql: `CREATE TABLE segments (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      team_id TEXT NOT NULL,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX segments_team ON segments (team_id, seq);
    CREATE TABLE contact_segments (
      seq INTEGER PRIMARY KEY,
      team_id TEXT NOT NULL,
      contact_id TEXT NOT NULL,
      segment_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (contact_id, segment_id)
    );
    CREATE INDEX contact_segments_segment ON contact_segments (segment_id, contact_id);`,
  },
  {
    // Members listed newest contact first in one index range scan, so a
    // segment-filtered page costs the same at 100 or 1 000 000 contacts, for
    // large and small segments alike (issue "Fast as the stack allows").
    // The trigger fills `contact_seq` on every insert (API, import,
    // fixtures, snapshots written before this step).
    version: 601,
    name: 'contact_segments_contact_seq',
    sql: `ALTER TABLE contact_segments ADD COLUMN contact_seq INTEGER;
    UPDATE contact_segments SET contact_seq = (SELECT seq FROM contacts WHERE contacts.id = contact_segments.contact_id);
    CREATE INDEX contact_segments_members ON contact_segments (segment_id, contact_seq);
    CREATE TRIGGER contact_segments_contact_seq AFTER INSERT ON contact_segments WHEN NEW.contact_seq IS NULL
    BEGIN
      UPDATE contact_segments SET contact_seq = (SELECT seq FROM contacts WHERE contacts.id = NEW.contact_id) WHERE seq = NEW.seq;
    END;`,
  },
];

/** A `segments` row. */
export interface SegmentRow {
  seq: number;
  id: string;
  team_id: string;
  name: string;
  created_at: number;
}

/** The list item `{id, name, created_at}` (no `object`, SPEC). */
export function toSegmentItem(row: SegmentRow) {
  return { id: row.id, name: row.name, created_at: apiTime(row.created_at) };
}

/** The team's segment, or undefined. */
export function findSegment(ctx: Emulator, teamId: string, id: string): SegmentRow | undefined {
  return ctx.db.prepare('SELECT * FROM segments WHERE id = ? AND team_id = ?').get(id, teamId) as SegmentRow | undefined;
}

/** The team's segment, or 404 `Audience not found` (the service's wording even on /segments, API-FACTS §2.2). */
export function getSegmentOr404(ctx: Emulator, teamId: string, id: string): SegmentRow {
  const row = findSegment(ctx, teamId, id);
  if (!row) throw errors.notFound('Audience');
  return row;
}

/** Inserts a segment. Returns the row. */
export function insertSegment(ctx: Emulator, s: { id?: string; teamId: string; name: string; createdAt?: number }): SegmentRow {
  const id = s.id ?? newId();
  ctx.db.prepare('INSERT INTO segments (id, team_id, name, created_at) VALUES (?, ?, ?, ?)').run(id, s.teamId, s.name, s.createdAt ?? ctx.clock.nowMs());
  return ctx.db.prepare('SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow;
}

/** Adds a membership if absent (idempotent, keeps the first `created_at`). No checks. */
export function insertMembership(ctx: Emulator, teamId: string, contactId: string, segmentId: string, at?: number): void {
  ctx.db
    .prepare('INSERT OR IGNORE INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES (?, ?, ?, ?)')
    .run(teamId, contactId, segmentId, at ?? ctx.clock.nowMs());
}

/** Segment ids of a contact, oldest membership first. */
export function segmentIdsOf(ctx: Emulator, contactId: string): string[] {
  return (ctx.db.prepare('SELECT segment_id FROM contact_segments WHERE contact_id = ? ORDER BY seq').all(contactId) as { segment_id: string }[]).map((r) => r.segment_id);
}

/** Deletes a segment and its memberships; its contacts stay (API-FACTS §5.6). Returns whether it existed. */
export function deleteSegment(ctx: Emulator, teamId: string, id: string): boolean {
  return ctx.db.transaction(() => {
    const info = ctx.db.prepare('DELETE FROM segments WHERE id = ? AND team_id = ?').run(id, teamId);
    if (info.changes > 0) ctx.db.prepare('DELETE FROM contact_segments WHERE segment_id = ?').run(id);
    return info.changes > 0;
  })();
}

/** The team's segments, oldest first (for the admin dashboard). */
export function listSegments(ctx: Emulator, teamId: string): SegmentRow[] {
  return ctx.db.prepare('SELECT * FROM segments WHERE team_id = ? ORDER BY seq').all(teamId) as SegmentRow[];
}

/**
 * The contacts of segments as one table for `paginate`: each member's
 * contact row with `seq` = the contact's `seq` and its `segment_id`; filter
 * with `segment_id = ?` (index `contact_segments_members`).
 */
export const SEGMENT_MEMBERS = '(SELECT cs.contact_seq AS seq, cs.segment_id AS segment_id, c.id AS id, c.team_id AS team_id, c.email AS email, c.email_lower AS email_lower, c.first_name AS first_name, c.last_name AS last_name, c.unsubscribed AS unsubscribed, c.properties AS properties, c.created_at AS created_at, c.updated_at AS updated_at FROM contact_segments cs JOIN contacts c ON c.seq = cs.contact_seq)';
