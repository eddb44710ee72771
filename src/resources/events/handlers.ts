/**
 * Handlers of the events operations (see the table in `index.ts`).
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { findContact } from '../contacts/service.js';
import { dispatchEvent } from '../automations/service.js';
import { coercePayload, deleteEvent, eventItem, eventOr404, findEvent, insertEvent, pageEvents, setEventSchema, type EventRow, EVENT_LIST_COLUMNS } from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

function create(ctx: Emulator, req: Req<'events/create'>): Answer<'events/create'> {
  const row = insertEvent(ctx, req.auth.teamId, { name: req.body.name, schema: req.body.schema ?? null });
  return { object: 'event', id: row.id };
}

function list(ctx: Emulator, req: Req<'events/list'>): Answer<'events/list'> {
  return pageEvents(ctx.db, req, {
    defaultLimit: 20,
    columns: EVENT_LIST_COLUMNS,
    map: (r: EventRow) => eventItem(r),
  });
}

function get(ctx: Emulator, req: Req<'events/get'>): Answer<'events/get'> {
  return { object: 'event', ...eventItem(eventOr404(ctx, req.auth.teamId, req.params.identifier)) };
}

function update(ctx: Emulator, req: Req<'events/update'>): Answer<'events/update'> {
  const row = eventOr404(ctx, req.auth.teamId, req.params.identifier);
  setEventSchema(ctx, row.id, req.body.schema ?? null);
  return { object: 'event', id: row.id };
}

function remove(ctx: Emulator, req: Req<'events/remove'>): Answer<'events/remove'> {
  const row = eventOr404(ctx, req.auth.teamId, req.params.identifier);
  deleteEvent(ctx, row.id);
  return { object: 'event', id: row.id, deleted: true };
}

/**
 * POST /events/send → 202 `{object: "event", event}`. A `contact_id` must be
 * the team's contact (404 `Contact not found`); an `email` need not be (the
 * contact is created when a run starts). The payload is coerced to the
 * event's schema when the team defined one.
 */
function send(ctx: Emulator, req: Req<'events/send'>): Answer<'events/send'> {
  const teamId = req.auth.teamId;
  const b = req.body;
  let contactId: string | null = null;
  let email: string | null = b.email ?? null;
  if (b.contact_id !== undefined) {
    const c = findContact(ctx, teamId, b.contact_id);
    if (!c) throw errors.notFound('Contact');
    contactId = c.id;
    email = c.email;
  }
  const def = findEvent(ctx, teamId, b.event);
  const payload = coercePayload(def?.name === b.event && def.schema ? JSON.parse(def.schema) : null, b.payload ?? {});
  ctx.db.transaction(() => dispatchEvent(ctx, teamId, { name: b.event, payload, contactId, email }))();
  return { object: 'event', event: b.event };
}

export const eventOperations = {
  'events/create': create,
  'events/list': list,
  'events/get': get,
  'events/update': update,
  'events/remove': remove,
  'events/send': send,
} satisfies OperationHandlers;
