/**
 * Suppressions (docs/reference/resources.md#suppressions; reference operationIds `suppressions/*`).
 * | operationId | rule |
 * |---|---|
 * | suppressions/add | `{email}` → 201 `{object: "suppression", id}`, origin `manual`, `suppression.added`; an address already listed answers its entry (no event) |
 * | suppressions/list | newest first, `?origin=bounce\|complaint\|manual`, `limit` default 20 (emulator choice); items `{id, email, origin, source_id, created_at}` |
 * | suppressions/get | by id or URL-encoded address (SDK encodes it) → `object: "suppression"`; unknown → 404 `Suppression not found` |
 * | suppressions/remove | same lookup → `{object, id, deleted: true}`, `suppression.removed` |
 * | suppressions/batch-add | `{emails: 1..100}` → 201 `{data: [{object, id}]}` in input order |
 * | suppressions/batch-remove | `{emails}` or `{ids}` (exactly one, 1..100) → `{data: [{object, id, deleted: true}]}`; unknown entries are left out |
 * Entries with origin `bounce`/`complaint` come from the emails lifecycle
 * (`src/resources/emails/jobs.ts`), with `source_id` = the email's id.
 */
import type { Emulator } from '../../context.js';
import { paginate } from '../../http/pagination.js';
import {
  addSuppression, findSuppression, findSuppressionById, getSuppressionOr404, removeSuppression, SUPPRESSIONS, toSuppression, toSuppressionListItem,
  type SuppressionRow, SUPPRESSION_LIST_COLUMNS,
} from './store.js';
import type { Answer, Req, OperationHandlers, ResponseBody } from '../../http/document-types.js';

function add(ctx: Emulator, req: Req<'suppressions/add'>): Answer<'suppressions/add'> {
  const { row } = ctx.db.transaction(() => addSuppression(ctx, req.auth.teamId, req.body.email, 'manual'))();
  return { object: 'suppression', id: row.id };
}

function list(ctx: Emulator, req: Req<'suppressions/list'>): Answer<'suppressions/list'> {
  const where = req.query.origin ? 'team_id = ? AND origin = ?' : 'team_id = ?';
  const params = req.query.origin ? [req.auth.teamId, req.query.origin] : [req.auth.teamId];
  return paginate(ctx.db, { table: SUPPRESSIONS, where, params, query: req.query, defaultLimit: 20, columns: SUPPRESSION_LIST_COLUMNS, map: (r: SuppressionRow) => toSuppressionListItem(r) });
}

function get(ctx: Emulator, req: Req<'suppressions/get'>): Answer<'suppressions/get'> {
  return toSuppression(getSuppressionOr404(ctx, req.auth.teamId, req.params.suppression));
}

function remove(ctx: Emulator, req: Req<'suppressions/remove'>): Answer<'suppressions/remove'> {
  const row = getSuppressionOr404(ctx, req.auth.teamId, req.params.suppression);
  ctx.db.transaction(() => removeSuppression(ctx, row))();
  return { object: 'suppression', id: row.id, deleted: true };
}

function batchAdd(ctx: Emulator, req: Req<'suppressions/batch-add'>): ResponseBody<'suppressions/batch-add'>['data'] {
  const teamId = req.auth.teamId;
  const data = ctx.db.transaction((): ResponseBody<'suppressions/batch-add'>['data'] => req.body.emails.map((e) => ({ object: 'suppression', id: addSuppression(ctx, teamId, e, 'manual').row.id })))();
  return data;
}

function batchRemove(ctx: Emulator, req: Req<'suppressions/batch-remove'>): Answer<'suppressions/batch-remove'> {
  const teamId = req.auth.teamId;
  return ctx.db.transaction(() => {
    const data: ResponseBody<'suppressions/batch-remove'>['data'] = [];
    const seen = new Set<string>();
    for (const key of req.body.emails ?? req.body.ids ?? []) {
      const row = req.body.emails
        ? findSuppression(ctx, teamId, key)
        : findSuppressionById(ctx, teamId, key);
      if (!row || seen.has(row.id)) continue;
      seen.add(row.id);
      removeSuppression(ctx, row);
      data.push({ object: 'suppression', id: row.id, deleted: true });
    }
    return { data };
  })();
}

/** The suppressions operations, by operationId. */
export const operations = {
  'suppressions/add': add,
  'suppressions/list': list,
  'suppressions/get': get,
  'suppressions/remove': remove,
  'suppressions/batch-add': (ctx, req) => ({ data: batchAdd(ctx, req) }),
  'suppressions/batch-remove': batchRemove,
} satisfies OperationHandlers;
