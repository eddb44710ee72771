/**
 * Contacts (docs/reference/resources.md#contacts; docs/reference/webhooks.md#envelope-and-data; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 4;
 * docs/reference/interface-spec.md#contact-removal-from-a-segment; docs/reference/interface-spec.md#errors 6; docs/reference/interface-spec.md#versioning 3). Shared functions other modules
 * call: `service.ts` (the contract).
 * | operationId | rule |
 * |---|---|
 * | contacts/create | `{email (required: 422 ``Missing `email` field.``), first_name, last_name, unsubscribed, properties, segments [{id}\|id], topics [{id, subscription}]}` → 201 `{object: "contact", id}`; an existing email (case-insensitive) → 201 with the existing id (REC), memberships added; unknown segment → 404 `Audience not found`, topic → 404 `Topic not found`, property → 422; raises `contact.created` |
 * | contacts/list | items `{id, created_at, email, unsubscribed, first_name, last_name}`, newest first; all when `limit` is omitted (REC:CONv2-list-*); `segment_id` filter (OA) |
 * | contacts/get | by id or raw email; `{object, id, email, first_name, last_name, created_at, unsubscribed, properties}`; `properties` = per contact property of the team, `{type, value}` (the property's type; the value or the fallback; neither: key left out; SDK `GetContactResponseSuccess`); unknown → 404 `Contact not found` |
 * | contacts/update | `{email, first_name, last_name, unsubscribed, properties}` (`null` clears) → `{object: "contact", id}`; raises `contact.updated` |
 * | contacts/remove | `{object: "contact", contact: <uuid>, deleted: true}` (key `contact`, the UUID even by email, REC); unknown → 404; raises `contact.deleted` |
 * | contacts/list-segments | items `{id, name, created_at}` (membership time), newest first |
 * | contacts/add-segment | idempotent → `{id: <segment id>}` (SDK type) |
 * | contacts/remove-segment | `{id: <contact id>, audienceId: <segment id>, deleted: true}` (docs/reference/interface-spec.md#contact-removal-from-a-segment, key `audienceId`); unknown contact/segment → 404 |
 * | contacts/list-topics | every topic of the team with the contact's `subscription` (explicit, else the topic default); `limit` default 20 |
 * | contacts/update-topics | body the bare array (SDK) or `{topics: [...]}` (OA) → `{id: <contact id>}` |
 * | audiences/*-contact(s) | legacy paths, see `legacy.ts` |
 * A `{contact}` path value that is neither an email nor a UUID → 422
 * `missing_required_field` ``Missing `id` or `email` field.``.
 */
import type { ResourceModule } from '../../module.js';
import { contactOperations } from './handlers.js';
import { legacyOperations } from './legacy.js';
import { createContactWith } from './service.js';
import { tables, renumberSeededContact } from './store.js';
import type { OperationHandlers } from '../../http/document-types.js';

export const contactsModule: ResourceModule = {
  name: 'contacts',
  tables,
  operations: { ...contactOperations, ...legacyOperations } satisfies OperationHandlers,
  seed(ctx, fixtures, db) {
    for (const c of fixtures.contacts ?? []) {
      const { contact } = createContactWith(
        ctx,
        c.team_id,
        { email: c.email, first_name: c.first_name, last_name: c.last_name, unsubscribed: c.unsubscribed, properties: c.properties, segments: c.segments, topics: c.topics },
        { emitEvents: false },
      );
      if (c.id || c.created_at) {
        const at = c.created_at ? Date.parse(c.created_at) : contact.created_at;
        const id = c.id ?? contact.id;
        renumberSeededContact(db, contact.id, id, at);
      }
    }
  },
};
