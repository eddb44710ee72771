/**
 * Events (docs/reference/interface-spec.md#event; docs/reference/interface-spec.md#events item 1;
 * docs/reference/interface-spec.md#errors 2;
 * docs/reference/resources.md#events). Rows, coercion: `store.ts`; handlers: `events.ts`. Runs
 * are started by the automations engine (`../automations/jobs.ts`).
 * | operationId | rule |
 * |---|---|
 * | events/create | `name` required, not prefixed `resend:` (422), unique per team (422); `schema` `{key: string|number|boolean|date}` or null → 201 `{object: "event", id}` |
 * | events/list | newest first, `limit` default 20; items id, name, schema, created_at, updated_at |
 * | events/get | by id or (URL-encoded) name → `{object: "event", ...item}` |
 * | events/update | `schema` required (null clears) → `{object, id}` |
 * | events/remove | `{object, id, deleted: true}` |
 * | events/send | exactly one of `contact_id`/`email` (422 `validation_error`, docs/reference/interface-spec.md#errors 2); payload coerced to the schema of the event of that name, if any (422 naming the field) → 202 `{object: "event", event}`; each enabled automation whose trigger has `event_name` = `event` gets a `running` run whose steps run at the next clock tick; runs of that contact waiting for the event resume |
 * Unknown → 404 `Event not found`.
 */
import type { ResourceModule } from '../../module.js';
import { eventOperations } from './handlers.js';
import { insertEvent, tables } from './store.js';

export const eventsModule: ResourceModule = {
  name: 'events',
  tables,
  operations: eventOperations,
  seed(ctx, fixtures) {
    for (const e of fixtures.events ?? []) {
      insertEvent(ctx, e.team_id, { id: e.id, name: e.name, schema: e.schema ?? null, createdAt: e.created_at ? Date.parse(e.created_at) : undefined });
    }
  },
};
