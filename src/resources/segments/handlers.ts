/**
 * Segments and their deprecated twin, audiences: the same rows under two
 * names (docs/reference/interface-spec.md#audience-deprecated-and-segment;
 * docs/reference/interface-spec.md#versioning 1; docs/reference/resources.md#segments-and-audiences; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 12):
 * | operationId | rule |
 * |---|---|
 * | segments/create, audiences/create | `{name}` (missing → 422 ``Missing `name` field.``, REC) → 201 `{object, id, name}`; object `segment` / `audience` |
 * | segments/list, audiences/list | items `{id, name, created_at}`; all when `limit` is omitted (docs/reference/interface-spec.md#pagination rule 3) |
 * | segments/get, audiences/get | `{object, id, name, created_at}`; unknown → 404 `Audience not found` on both paths (REC:SEG-get-returns-error) |
 * | segments/update | `{name}` → `{object: "segment", id}` (SDK `segments.update`) |
 * | segments/remove, audiences/remove | `{object, id, deleted: true}`, also for an id that never existed (REC:SEG-remove-appears-to-remove); contacts are kept |
 * | segments/list-contacts | GET /segments/{id}/contacts (REC:CON-list-*): items `{id, email, first_name, last_name, created_at, unsubscribed}`, newest first, all when `limit` is omitted |
 * Memberships (`contact_segments`) are written by the contacts module.
 */
import type { Emulator } from '../../context.js';
import { deleteSegment, getSegmentOr404, insertSegment, renameSegment, toSegmentItem, type SegmentRow, pageSegments, SEGMENT_LIST_COLUMNS } from './store.js';
import { listSegmentContacts } from '../contacts/service.js';
import type { Answer, Req, OperationHandlers, ListItem } from '../../http/document-types.js';

type Kind = 'segment' | 'audience';

const create = <K extends Kind>(kind: K) => (ctx: Emulator, req: Req<'segments/create'> | Req<'audiences/create'>): { object: K; id: string; name: string } => {
  const row = insertSegment(ctx, { teamId: req.auth.teamId, name: req.body.name });
  return { object: kind, id: row.id, name: row.name };
};

function list(ctx: Emulator, req: Req<'segments/list'> | Req<'audiences/list'>): Answer<'segments/list'> {
  return pageSegments(ctx.db, req, {
    defaultLimit: null,
    columns: SEGMENT_LIST_COLUMNS,
    map: (r: SegmentRow) => toSegmentItem(r),
  });
}

const get = <K extends Kind>(kind: K) => (ctx: Emulator, req: Req<'segments/get'> | Req<'audiences/get'>): { object: K } & ListItem<'segments/list'> => {
  const row = getSegmentOr404(ctx, req.auth.teamId, req.params.id);
  return { object: kind, ...toSegmentItem(row) };
};

function update(ctx: Emulator, req: Req<'segments/update'>): Answer<'segments/update'> {
  const row = getSegmentOr404(ctx, req.auth.teamId, req.params.id);
  renameSegment(ctx, row.id, req.body.name);
  return { object: 'segment', id: row.id };
}

const remove = <K extends Kind>(kind: K) => (ctx: Emulator, req: Req<'segments/remove'> | Req<'audiences/remove'>): { object: K; id: string; deleted: true } => {
  ctx.db.transaction(() => {
    deleteSegment(ctx, req.auth.teamId, req.params.id);
  })();
  return { object: kind, id: req.params.id, deleted: true };
};

/** The segments operations, by operationId. */
export const operations = {
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
} satisfies OperationHandlers;
