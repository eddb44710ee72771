/**
 * Contact properties (docs/reference/interface-spec.md#contact-property;
 * docs/reference/resources.md#contact-properties; docs/reference/formats.md#success-statuses):
 * | operationId | rule |
 * |---|---|
 * | contact-properties/create | `{key, type, fallback_value?}`; key `[A-Za-z0-9_]{1,50}` (spec), unique in the team (422 `validation_error`); type `string` \| `number`; fallback must match the type (422) → 201 `{object: "contact_property", id}` |
 * | contact-properties/list | items `{id, key, type, fallback_value, created_at}`; all when `limit` is omitted |
 * | contact-properties/get | `{object, id, key, type, fallback_value, created_at}`; unknown → 404 `Contact property not found` |
 * | contact-properties/update | only `fallback_value` (others → 422 via the spec), matching the type → `{object, id}` |
 * | contact-properties/remove | `{object, deleted: true, id}` (recorded key order, REC:CONv2-create); the key is removed from every contact |
 */
import type { Emulator } from '../../context.js';
import {
  checkTyped, deleteProperty, getPropertyOr404, insertProperty, pageProperties, propertyKeyTaken, setPropertyFallback, toProperty, toPropertyItem,
  type PropertyRow, PROPERTY_LIST_COLUMNS,
} from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { removePropertyValues } from '../contacts/service.js';
import { contactPropertyMessages } from './messages.js';

function create(ctx: Emulator, req: Req<'contact-properties/create'>): Answer<'contact-properties/create'> {
  const teamId = req.auth.teamId;
  const { key, type } = req.body;
  const fallback = checkTyped(type, req.body.fallback_value ?? null, 'fallback_value');
  if (propertyKeyTaken(ctx, teamId, key)) throw contactPropertyMessages.keyTaken(key);
  const row = insertProperty(ctx, { teamId, key, type, fallbackValue: fallback });
  return { object: 'contact_property', id: row.id };
}

function list(ctx: Emulator, req: Req<'contact-properties/list'>): Answer<'contact-properties/list'> {
  return pageProperties(ctx.db, req, {
    defaultLimit: null,
    columns: PROPERTY_LIST_COLUMNS,
    map: (r: PropertyRow) => toPropertyItem(r),
  });
}

function get(ctx: Emulator, req: Req<'contact-properties/get'>): Answer<'contact-properties/get'> {
  return toProperty(getPropertyOr404(ctx, req.auth.teamId, req.params.id));
}

function update(ctx: Emulator, req: Req<'contact-properties/update'>): Answer<'contact-properties/update'> {
  const row = getPropertyOr404(ctx, req.auth.teamId, req.params.id);
  if (req.body.fallback_value !== undefined) {
    const value = checkTyped(row.type, req.body.fallback_value, 'fallback_value');
    setPropertyFallback(ctx, row.id, value);
  }
  return { object: 'contact_property', id: row.id };
}

function remove(ctx: Emulator, req: Req<'contact-properties/remove'>): Answer<'contact-properties/remove'> {
  const row = getPropertyOr404(ctx, req.auth.teamId, req.params.id);
  ctx.db.transaction(() => {
    deleteProperty(ctx, row.id);
    removePropertyValues(ctx, row.team_id, row.key);
  })();
  return { object: 'contact_property', deleted: true, id: row.id };
}

/** The contact-properties operations, by operationId. */
export const operations = {
  'contact-properties/create': create,
  'contact-properties/list': list,
  'contact-properties/get': get,
  'contact-properties/update': update,
  'contact-properties/remove': remove,
} satisfies OperationHandlers;
