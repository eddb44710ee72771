/**
 * Segments and their deprecated twin, audiences: the same rows under two
 * names (interface-spec "Audience (deprecated) and Segment", "Audiences",
 * "Segments", "Versioning" 1; API-FACTS §5.6, §8 #12):
 * | operationId | rule |
 * |---|---|
 * | segments/create, audiences/create | `{name}` (missing → 422 ``Missing `name` field.``, REC) → 201 `{object, id, name}`; object `segment` / `audience` |
 * | segments/list, audiences/list | items `{id, name, created_at}`; all when `limit` is omitted (SPEC rule 3) |
 * | segments/get, audiences/get | `{object, id, name, created_at}`; unknown → 404 `Audience not found` on both paths (REC:SEG-get-returns-error) |
 * | segments/update | `{name}` → `{object: "segment", id}` (SDK `segments.update`) |
 * | segments/remove, audiences/remove | `{object, id, deleted: true}`, also for an id that never existed (REC:SEG-remove-appears-to-remove); contacts are kept |
 * | segments/list-contacts | GET /segments/{id}/contacts (REC:CON-list-*): items `{id, email, first_name, last_name, created_at, unsubscribed}`, newest first, all when `limit` is omitted |
 * Memberships (`contact_segments`) are written by the contacts module.
 */
import type { Emulator } from '../../context.js';
import type { OpRequest, ResourceModule } from '../../module.js';
import { paginate, paginateTeam } from '../../http/pagination.js';
import { SEGMENT_MEMBERS, deleteSegment, getSegmentOr404, insertSegment, toSegmentItem, type SegmentRow } from './store.js';
import { toSegmentContactItem, type ContactRow } from '../contacts/store.js';
import type { Req } from '../../http/document-types.js';

type Kind = 'segment' | 'audience';

const create = (kind: Kind) => (ctx: Emulator, req: OpRequest<{ name: string }>) => {
  const row = insertSegment(ctx, { teamId: req.auth!.teamId, name: req.body.name });
  return { object: kind, id: row.id, name: row.name };
};

function list(ctx: Emulator, req: OpRequest) {
  return paginateTeam(ctx.db, req, {
    table: 'segments',
    defaultLimit: null,
    map: (r: SegmentRow) => toSegmentItem(r),
  });
}

const get = (kind: Kind) => (ctx: Emulator, req: OpRequest) => {
  const row = getSegmentOr404(ctx, req.auth!.teamId, req.params.id);
  return { object: kind, ...toSegmentItem(row) };
};

function update(ctx: Emulator, req: Req<'segments/update'>) {
  const row = getSegmentOr404(ctx, req.auth!.teamId, req.params.id);
  ctx.db.prepare('UPDATE segments SET name = ? WHERE id = ?').run(req.body.name, row.id);
  return { object: 'segment', id: row.id };
}

const remove = (kind: Kind) => (ctx: Emulator, req: OpRequest) => {
  deleteSegment(ctx, req.auth!.teamId, req.params.id);
  return { object: kind, id: req.params.id, deleted: true };
};

/** GET /segments/{id}/contacts: the segment's contacts, newest contact first. */
export function listSegmentContacts(ctx: Emulator, req: OpRequest, segmentId: string) {
  const teamId = req.auth!.teamId;
  getSegmentOr404(ctx, teamId, segmentId);
  return paginate(ctx.db, {
    table: SEGMENT_MEMBERS,
    where: 'team_id = ? AND segment_id = ?',
    params: [teamId, segmentId],
    query: req.query,
    defaultLimit: null,
    map: (r: ContactRow) => toSegmentContactItem(r),
  });
}

export const segmentsModule: ResourceModule = {
  name: 'segments',
  migrations: [
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
  ],
  operations: {
    'segments/create': create('segment'),
    'segments/list': list,
    'segments/get': get('segment'),
    'segments/update': update,
    'segments/remove': remove('segment'),
    'segments/list-contacts': (ctx, req) => listSegmentContacts(ctx, req, req.params.id),
    'audiences/create': create('audience'),
    'audiences/list': list,
    'audiences/get': get('audience'),
    'audiences/remove': remove('audience'),
  },
  seed(ctx, fixtures) {
    for (const s of fixtures.segments ?? []) {
      insertSegment(ctx, { id: s.id, teamId: s.team_id, name: s.name, createdAt: s.created_at ? Date.parse(s.created_at) : undefined });
    }
  },
};

