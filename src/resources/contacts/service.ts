/**
 * CONTRACT between modules (owned by the contacts module; automations,
 * broadcasts, emails and imports call it). Tables owned by the contacts
 * family: `contacts`, `contact_segments (contact_id, segment_id, created_at)`
 * in the segments module, `contact_topics (contact_id, topic_id, subscription)`
 * in the topics module.
 *
 * Rules implemented here (docs/reference/resources.md#contacts; docs/reference/webhooks.md#envelope-and-data; 
 * docs/reference/interface-spec.md#audience-deprecated-and-segment):
 * - emails are unique per team, case-insensitively; an id never contains `@`;
 * - creating an existing email returns the existing contact unchanged (REC:
 *   POST of an existing email → 201 with the existing id);
 * - custom `properties` must be contact properties of the team, typed as
 *   they are (`src/resources/contact-properties/store.ts`); `null` clears;
 * - `contact.created` / `contact.updated` / `contact.deleted` webhook events
 *   carry `{id, audience_id, segment_ids, created_at, updated_at, email,
 *   first_name, last_name, unsubscribed}` (docs/reference/webhooks.md#envelope-and-data; times ISO `Z`;
 *   `audience_id` = the oldest segment or null). CSV imports raise none.
 */
import type { Emulator } from '../../context.js';
import { isoTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { isContactEmail } from '../../http/addresses.js';
import { contactMessages } from './messages.js';
import { emitEvent } from '../../deliveries/emit.js';
import { checkTyped, contactPropertyMessages, fallbackOf, propertiesByKey, validateContactProperties, type PropertyRow } from '../contact-properties/service.js';
import { getSegmentOr404 } from '../segments/service.js';
import { getTopicOr404, type Subscription, type TopicRow } from '../topics/service.js';
import type { Auth } from '../../module.js';
import type { PageQuery } from '../../http/pagination.js';
import {
  contactRowById, contactRowByRef, deleteContactRows, insertContactRow, insertContactRowsIfAbsent, updateContactRow, CONTACT_INSERT_CHUNK,
  explicitSubscription, insertMembership, pageContacts, segmentIdsOf, toContact, toSegmentContactItem, upsertSubscriptions, type Contact, type ContactRow, type NewContactRow,
} from './store.js';

export type { Contact } from './store.js';

/** The team's contact by id or (case-insensitive) email, or undefined. */
export function findContact(ctx: Emulator, teamId: string, idOrEmail: string): Contact | undefined {
  const row = contactRowByRef(ctx, teamId, idOrEmail);
  return row ? toContact(row) : undefined;
}

/** The team's contact by id or email, or 404 `Contact not found` (docs/reference/errors.md#recorded-messages). */
export function getContactOr404(ctx: Emulator, teamId: string, idOrEmail: string): Contact {
  const c = findContact(ctx, teamId, idOrEmail);
  if (!c) throw errors.notFound('Contact');
  return c;
}

/** The `data` of a `contact.*` webhook event (docs/reference/webhooks.md#envelope-and-data). */
export function contactEventData(ctx: Emulator, contact: Contact): Record<string, unknown> {
  const segmentIds = segmentIdsOf(ctx, contact.id);
  return {
    id: contact.id,
    audience_id: segmentIds[0] ?? null,
    segment_ids: segmentIds,
    created_at: isoTime(contact.created_at),
    updated_at: isoTime(contact.updated_at),
    email: contact.email,
    first_name: contact.first_name,
    last_name: contact.last_name,
    unsubscribed: contact.unsubscribed,
  };
}

/** What `createContactWith` accepts: the contract's input plus memberships and topic choices. */
export interface CreateContactInput {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  unsubscribed?: boolean;
  properties?: Record<string, unknown>;
  /** Segment ids to add the contact to (each must be the team's: 404 `Audience not found`). */
  segments?: string[];
  /** Explicit topic subscriptions (each topic must be the team's: 404 `Topic not found`). */
  topics?: { id: string; subscription: Subscription }[];
}

/**
 * Creates a contact with its memberships and topic choices in one
 * transaction, or, if the email exists, adds the memberships and choices to
 * the existing contact and returns it (`created: false`, fields unchanged).
 * Raises `contact.created` (new contacts only) unless `emitEvents` is false.
 * Throws `ApiError` 422 for an invalid email or property, 404 for an unknown
 * segment or topic; nothing is written then.
 */
export function createContactWith(ctx: Emulator, teamId: string, input: CreateContactInput, opts: { emitEvents?: boolean } = {}): { contact: Contact; created: boolean } {
  const email = input.email.trim();
  if (!isContactEmail(email)) throw contactMessages.invalidEmail();
  const props = validateContactProperties(ctx, teamId, input.properties ?? {});
  for (const s of input.segments ?? []) getSegmentOr404(ctx, teamId, s);
  for (const t of input.topics ?? []) getTopicOr404(ctx, teamId, t.id);
  return ctx.db.transaction(() => {
    let row = contactRowByRef(ctx, teamId, email);
    const created = !row;
    if (!row) {
      const now = ctx.clock.nowMs();
      const id = newId();
      const stored = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== null));
      insertContactRow(ctx, { id, teamId, email, firstName: input.first_name ?? null, lastName: input.last_name ?? null, unsubscribed: Boolean(input.unsubscribed), properties: stored, at: now });
      row = contactRowById(ctx, id)!;
    }
    for (const s of input.segments ?? []) insertMembership(ctx, teamId, row.id, s);
    if (input.topics?.length) setSubscriptions(ctx, teamId, row.id, input.topics, opts.emitEvents !== false);
    const contact = toContact(row);
    if (created && opts.emitEvents !== false) emitEvent(ctx, teamId, 'contact.created', contactEventData(ctx, contact));
    return { contact, created };
  })();
}

/**
 * Creates a contact (or returns the existing one with that email, as the
 * service does). `emitEvents` false for CSV imports (no contact.created,
 * docs/reference/resources.md#contact-imports). Synchronous; throws `ApiError` on bad input.
 */
export function createContact(
  ctx: Emulator,
  teamId: string,
  input: { email: string; first_name?: string | null; last_name?: string | null; unsubscribed?: boolean; properties?: Record<string, unknown> },
  opts?: { emitEvents?: boolean },
): { contact: Contact; created: boolean } {
  return createContactWith(ctx, teamId, input, opts);
}

/** A contact update; `properties` values of `null` clear the value. */
export interface ContactPatch {
  /** A new email (must be valid and not another contact's: 422). */
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  unsubscribed?: boolean;
  properties?: Record<string, unknown>;
}

/**
 * `updateContact` with options: `emitEvents` false for CSV imports.
 * `id` may be the id or the email. Throws 404 `Contact not found`, 422 for a
 * bad property.
 */
export function updateContactWith(ctx: Emulator, teamId: string, id: string, patch: ContactPatch, opts: { emitEvents?: boolean } = {}): Contact {
  const row = contactRowByRef(ctx, teamId, id);
  if (!row) throw errors.notFound('Contact');
  const props = validateContactProperties(ctx, teamId, patch.properties ?? {});
  let email = row.email;
  if (patch.email !== undefined && patch.email.trim().toLowerCase() !== row.email_lower) {
    email = patch.email.trim();
    if (!isContactEmail(email)) throw contactMessages.invalidEmail();
    if (contactRowByRef(ctx, teamId, email)) throw contactMessages.emailTaken(email);
  }
  return ctx.db.transaction(() => {
    const merged: Record<string, unknown> = JSON.parse(row.properties);
    for (const [k, v] of Object.entries(props)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    updateContactRow(ctx, row.id, {
      email,
      firstName: patch.first_name !== undefined ? patch.first_name : row.first_name,
      lastName: patch.last_name !== undefined ? patch.last_name : row.last_name,
      unsubscribed: patch.unsubscribed !== undefined ? Boolean(patch.unsubscribed) : Boolean(row.unsubscribed),
      properties: merged,
      at: ctx.clock.nowMs(),
    });
    const contact = toContact(contactRowById(ctx, row.id)!);
    if (opts.emitEvents !== false) emitEvent(ctx, teamId, 'contact.updated', contactEventData(ctx, contact));
    return contact;
  })();
}

/** Updates fields of a contact; raises contact.updated. Throws 404 if absent. */
export function updateContact(
  ctx: Emulator,
  teamId: string,
  id: string,
  patch: { first_name?: string | null; last_name?: string | null; unsubscribed?: boolean; properties?: Record<string, unknown> },
): Contact {
  return updateContactWith(ctx, teamId, id, patch);
}

/**
 * References a bulk writer (the CSV import) has checked once for all its
 * rows: `defs` the team's contact properties by key (`propertiesByKey`),
 * `segments` segment ids and `topics` topic choices known to be the team's.
 */
export interface CheckedRefs {
  defs: Map<string, PropertyRow>;
  segments: string[];
  topics: { id: string; subscription: Subscription }[];
}

/** The fields of a row a bulk writer (the CSV import) writes: `email` and what its cells gave. */
export interface ContactFields { email: string; first_name?: string | null; last_name?: string | null; unsubscribed?: boolean; properties?: Record<string, unknown> }

/** A row's property values typed against `defs` (`null` clears); throws 422 `validation_error` for an unknown key or a wrong type. */
function checkedProperties(defs: CheckedRefs['defs'], fields: ContactFields): Record<string, string | number | null> {
  const props: Record<string, string | number | null> = {};
  if (!fields.properties) return props;
  for (const [key, value] of Object.entries(fields.properties)) {
    const def = defs.get(key);
    if (!def) throw contactPropertyMessages.unknownProperty(key);
    props[key] = checkTyped(def.type, value, `properties.${key}`);
  }
  return props;
}

/** A new contact row of `fields` (email as given, trimmed; properties without their nulls). */
function newContactRow(fields: ContactFields, props: Record<string, string | number | null>, now: number): NewContactRow {
  const email = fields.email.trim();
  if (!isContactEmail(email)) throw contactMessages.invalidEmail();
  const stored: Record<string, string | number> = {};
  for (const key in props) if (props[key] !== null) stored[key] = props[key];
  return { id: newId(), email, firstName: fields.first_name ?? null, lastName: fields.last_name ?? null, unsubscribed: Boolean(fields.unsubscribed), properties: stored, at: now };
}

/** Updates `existing` with a row's fields (given fields replace, properties merge, as `updateContactWith`). */
function updateWithFields(ctx: Emulator, existing: Contact, fields: ContactFields, props: Record<string, string | number | null>, now: number): void {
  const merged: Record<string, unknown> = { ...existing.properties };
  for (const [k, v] of Object.entries(props)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  updateContactRow(ctx, existing.id, {
    email: existing.email,
    firstName: fields.first_name !== undefined ? fields.first_name : existing.first_name,
    lastName: fields.last_name !== undefined ? fields.last_name : existing.last_name,
    unsubscribed: Boolean(fields.unsubscribed !== undefined ? fields.unsubscribed : existing.unsubscribed),
    properties: merged,
    at: now,
  });
}

/** Adds a written contact to the checked segments and topic choices. */
function joinChecked(ctx: Emulator, teamId: string, id: string, checked: CheckedRefs, now: number): void {
  for (const s of checked.segments) insertMembership(ctx, teamId, id, s, now);
  // The contacts store's upsert, without `setSubscriptions`' per-topic lookup: the caller checked the topics.
  upsertSubscriptions(ctx, id, checked.topics, now);
}

/** How many of a `contactWriter`'s rows were created, updated and skipped. */
export interface ContactWriteTally { created: number; updated: number; skipped: number }

/** A bulk writer of contact rows (`contactWriter`). */
export interface ContactWriter {
  /**
   * Checks a row now and queues it: throws the row's own `ApiError` (422:
   * an invalid email, an unknown property or a wrong type), nothing queued.
   */
  add(fields: ContactFields): void;
  /** Whether the team has a contact with `email` (any case) once the rows queued so far are written: writes them first. */
  has(email: string): boolean;
  /** Writes the queued rows; returns the tally of every row added. */
  finish(): ContactWriteTally;
}

/**
 * The CSV import's writer (no `contact.*` events, docs/reference/resources.md#contact-imports):
 * the rows added are written in order, each with the outcome it would
 * have alone after a `findContact` of its email (an earlier row of the same
 * writer counts): a new email is created (email as given, trimmed), an
 * existing one updated (given fields replace, properties merge, as
 * `updateContactWith`), or left untouched and counted `skipped` with
 * `skipExisting`; each written contact joins `checked.segments` and gets
 * `checked.topics` (references checked once by the caller: no lookups). Rows are queued and written `CONTACT_INSERT_CHUNK` at a
 * time (one INSERT, `insertContactRowsIfAbsent`; a contact is read only
 * when its email exists), all at one emulated time, now. Use inside one transaction:
 * `add` the rows, then `finish`. Throws the store's error (a full store)
 * from `has` or `finish`; the caller's transaction then rolls back.
 */
export function contactWriter(ctx: Emulator, teamId: string, opts: { checked: CheckedRefs; skipExisting?: boolean }): ContactWriter {
  const now = ctx.clock.nowMs();
  const tally: ContactWriteTally = { created: 0, updated: 0, skipped: 0 };
  let rows: NewContactRow[] = [];
  let queued: { fields: ContactFields; props: Record<string, string | number | null> }[] = [];
  const flush = (): void => {
    if (rows.length === 0) return;
    const [written, writing] = [rows, queued];
    rows = [];
    queued = [];
    const inserted = insertContactRowsIfAbsent(ctx, teamId, written);
    // In row order: memberships keep the order of a row at a time, and a row updates what the rows before it wrote.
    for (let i = 0; i < written.length; i++) {
      if (inserted[i]) {
        joinChecked(ctx, teamId, written[i].id, opts.checked, now);
        tally.created++;
        continue;
      }
      if (opts.skipExisting) {
        tally.skipped++;
        continue;
      }
      const existing = findContact(ctx, teamId, written[i].email)!;
      updateWithFields(ctx, existing, writing[i].fields, writing[i].props, now);
      joinChecked(ctx, teamId, existing.id, opts.checked, now);
      tally.updated++;
    }
  };
  return {
    add(fields) {
      const props = checkedProperties(opts.checked.defs, fields);
      rows.push(newContactRow(fields, props, now));
      queued.push({ fields, props });
      // Written a statement's worth at a time: rows held for a whole batch outlived the young generation (GC time).
      if (rows.length === CONTACT_INSERT_CHUNK) flush();
    },
    has(email) {
      flush();
      return findContact(ctx, teamId, email) !== undefined;
    },
    finish() {
      flush();
      return { ...tally };
    },
  };
}

/**
 * Deletes a contact (by id or email) with its memberships and topic choices;
 * raises contact.deleted. Returns the deleted contact, or undefined if absent.
 */
export function removeContact(ctx: Emulator, teamId: string, idOrEmail: string): Contact | undefined {
  return ctx.db.transaction(() => {
    const row = contactRowByRef(ctx, teamId, idOrEmail);
    if (!row) return undefined;
    const contact = toContact(row);
    const data = contactEventData(ctx, contact);
    deleteContactRows(ctx, row.id);
    emitEvent(ctx, teamId, 'contact.deleted', data);
    return contact;
  })();
}

/** Deletes a contact (and its memberships); raises contact.deleted. No-op if absent. */
export function deleteContact(ctx: Emulator, teamId: string, id: string): void {
  removeContact(ctx, teamId, id);
}

/** Adds a contact to a segment (idempotent). Throws 404 if the segment is not the team's. */
export function addContactToSegment(ctx: Emulator, teamId: string, contactId: string, segmentId: string): void {
  getSegmentOr404(ctx, teamId, segmentId);
  const contact = getContactOr404(ctx, teamId, contactId);
  insertMembership(ctx, teamId, contact.id, segmentId);
}




/**
 * A contact's subscription to a topic: its explicit `opt_in`/`opt_out`, else
 * the topic's `default_subscription`. Throws 404 if the topic is not the team's.
 * `preloaded`: the topic row already read by the caller (e.g. once per batch);
 * it must be the team's topic `topicId`.
 */
export function topicSubscription(ctx: Emulator, teamId: string, contactId: string, topicId: string, preloaded?: TopicRow): 'opt_in' | 'opt_out' {
  const topic = preloaded ?? getTopicOr404(ctx, teamId, topicId);
  return explicitSubscription(ctx, contactId, topicId) ?? topic.default_subscription;
}

/**
 * A contact's property values with the team's contact-property fallbacks
 * applied. `definitions`: the team's `propertiesByKey` already read by the
 * caller (e.g. once per batch).
 */
export function contactPropertyValues(
  ctx: Emulator,
  teamId: string,
  contact: Contact,
  definitions?: Map<string, PropertyRow>,
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, def] of definitions ?? propertiesByKey(ctx, teamId)) {
    const v = contact.properties[key];
    out[key] = v !== undefined && v !== null ? v : fallbackOf(def);
  }
  return out;
}


/** One contact property value as GET /contacts/{id} answers it: `{type, value}`, typed by the property (SDK `ContactPropertyValue`). */
export type TypedPropertyValue = { type: 'string'; value: string } | { type: 'number'; value: number };

/**
 * A contact's property values as GET /contacts/{id} (and the audience path)
 * answers them: per key of the team's contact properties, `{type, value}`
 * with `type` the property's (`string` | `number`) and `value` the contact's
 * value or the property's fallback; keys with neither are left out. The
 * shape of the SDK's `GetContactResponseSuccess.properties` (resend 6.38
 * `ContactPropertyValue`; its unit-test mocks answer `{"country": {"type":
 * "string", "value": "Canada"}}`; the Java SDK >= 4.19 and the PHP SDK parse
 * it). A stored value of another type (a CSV import's `boolean` column) is
 * given as its property's type (`String(v)`, `Number(v)`).
 */
export function typedPropertyValues(ctx: Emulator, teamId: string, contact: Contact): Record<string, TypedPropertyValue> {
  const definitions = propertiesByKey(ctx, teamId);
  const values = contactPropertyValues(ctx, teamId, contact, definitions);
  const out: Record<string, TypedPropertyValue> = {};
  for (const [key, def] of definitions) {
    const v = values[key];
    if (v === null || v === undefined) continue;
    out[key] = def.type === 'number' ? { type: 'number', value: typeof v === 'number' ? v : Number(v) } : { type: 'string', value: String(v) };
  }
  return out;
}

/**
 * Sets a contact's explicit subscriptions (upsert per topic). Every topic
 * must be the team's: throws 404 `Topic not found` before writing anything.
 * Raises `contact.topics.updated` (SDK `ContactTopicsEventData`: `{email,
 * topics: [{id, subscription}]}`, the topics changed in this update with their
 * new subscription, D:webhooks/contacts/topics-updated) unless `emit` is false.
 * Call inside the caller's transaction.
 */
export function setSubscriptions(ctx: Emulator, teamId: string, contactId: string, topics: { id: string; subscription: Subscription }[], emit = true): void {
  for (const t of topics) getTopicOr404(ctx, teamId, t.id);
  upsertSubscriptions(ctx, contactId, topics, ctx.clock.nowMs());
  if (emit && topics.length) {
    emitEvent(ctx, teamId, 'contact.topics.updated', () => ({
      email: contactRowById(ctx, contactId)?.email ?? '',
      topics: topics.map((t) => ({ id: t.id, subscription: t.subscription })),
    }));
  }
}

/** GET /segments/{id}/contacts: the segment's contacts, newest contact first. */
export function listSegmentContacts(ctx: Emulator, req: { auth: Auth; query: unknown }, segmentId: string) {
  const teamId = req.auth.teamId;
  getSegmentOr404(ctx, teamId, segmentId);
  return pageContacts(ctx.db, teamId, segmentId, req.query as PageQuery, (r) => toSegmentContactItem(r));
}

export {
  countContacts, subscribedEmailsOfSegment, explicitSubscription, lastMembershipSeq, listContacts, removePropertyValues, segmentContactsPage,
  segmentIdsOf, unsubscribedNow,
} from './store.js';
