/**
 * Templates (docs/reference/interface-spec.md#template; docs/reference/interface-spec.md#template-states;
 * docs/reference/resources.md#templates; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 8). Storage and shapes: `store.ts`; handlers:
 * `templates.ts`; the rendering contract for emails and automations: `render.ts`.
 * | operationId | rule |
 * |---|---|
 * | templates/create | `name`, `html` required; `variables` ≤ 50, key `[A-Za-z0-9_]` ≤ 50, type string/number/boolean/object/list, reserved keys (FIRST_NAME, LAST_NAME, EMAIL, UNSUBSCRIBE_URL, contact, this) and duplicate keys → 422 `validation_error`; fallback of the variable's type; alias unique per team (422); 201 `{object: "template", id}`, status `draft` |
 * | templates/list | newest first, `limit` default 20; items id, name, status, published_at, created_at, updated_at, alias |
 * | templates/get | by id or alias; every field of docs/reference/interface-spec.md#template, `reply_to` string or null (the spec over the service's array, docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 8); shows the latest version |
 * | templates/update | name/alias on the template; content edits after publishing form a new draft version (`has_unpublished_versions: true`) → `{object, id}` |
 * | templates/publish | the latest version becomes the sent one; status `published`, `published_at` now → `{object, id}` |
 * | templates/duplicate | draft copy `<name> (copy)` without alias → 200 `{object, id}` (OA) |
 * | templates/remove | `{object, id, deleted: true}` |
 * Unknown id/alias → 404 `Template not found`.
 */
import type { ResourceModule } from '../../module.js';
import { insertTemplate, publishTemplate, tables } from './store.js';
import { templateOperations } from './handlers.js';

export const templatesModule: ResourceModule = {
  name: 'templates',
  tables,
  operations: templateOperations,
  seed(ctx, fixtures) {
    for (const t of fixtures.templates ?? []) {
      const createdAt = t.created_at ? Date.parse(t.created_at) : undefined;
      const row = insertTemplate(ctx, t.team_id, t, { id: t.id, createdAt });
      if (t.status === 'published') publishTemplate(ctx, row, createdAt);
    }
  },
};
