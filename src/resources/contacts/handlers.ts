/**
 * Handlers of /contacts and /contacts/{contact}/segments|topics
 * (docs/reference/resources.md#contacts; docs/reference/interface-spec.md#contact-removal-from-a-segment;
 * docs/reference/interface-spec.md#versioning 3). Rules are listed in `index.ts`.
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { getSegmentOr404, segmentNamesOf } from '../segments/service.js';
import { pageTopics, type TopicRow } from '../topics/service.js';
import { explicitSubscriptions, pageContacts, pageMemberships, removeMembership, toContactItem } from './store.js';
import { contactRef } from './ref.js';
import {
  typedPropertyValues, createContactWith, getContactOr404, removeContact, updateContactWith, addContactToSegment, setSubscriptions, type Contact,
} from './service.js';
import type { Answer, Req, SchemaOf, OperationHandlers, ResponseBody } from '../../http/document-types.js';

/** Body of POST /contacts (and of the legacy POST, without segments/topics): `CreateContactBody` of spec/paths/contacts.yaml. */
export type CreateBody = SchemaOf<'CreateContactBody'>;

/**
 * The single contact shape `{object, id, email, first_name, last_name,
 * created_at, unsubscribed, properties}` (REC:CONv2-get-*), `properties`
 * each `{type, value}` (`typedPropertyValues`, the SDK's
 * `GetContactResponseSuccess`).
 */
export function toContactResponse(ctx: Emulator, contact: Contact): ResponseBody<'contacts/get'> {
  const properties = typedPropertyValues(ctx, contact.team_id, contact);
  return {
    object: 'contact',
    id: contact.id,
    email: contact.email,
    first_name: contact.first_name,
    last_name: contact.last_name,
    created_at: apiTime(contact.created_at),
    unsubscribed: contact.unsubscribed,
    properties,
  };
}

/** Creates (or finds) a contact from a POST body, with extra segment ids. */
export function createFromBody(ctx: Emulator, teamId: string, b: CreateBody, extraSegments: string[] = []): ResponseBody<'contacts/create'> {
  const segments = [...(b.segments ?? []).map((s) => (typeof s === 'string' ? s : s.id)), ...extraSegments];
  if (b.audience_id) segments.push(b.audience_id);
  const { contact } = createContactWith(ctx, teamId, {
    email: b.email,
    first_name: b.first_name,
    last_name: b.last_name,
    unsubscribed: b.unsubscribed,
    properties: b.properties,
    segments: [...new Set(segments)],
    topics: b.topics,
  });
  return { object: 'contact', id: contact.id };
}

function create(ctx: Emulator, req: Req<'contacts/create'>): Answer<'contacts/create'> {
  return createFromBody(ctx, req.auth.teamId, req.body);
}

function list(ctx: Emulator, req: Req<'contacts/list'>): Answer<'contacts/list'> {
  const teamId = req.auth.teamId;
  const { segment_id, ...page } = req.query;
  if (segment_id !== undefined) getSegmentOr404(ctx, teamId, segment_id);
  return pageContacts(ctx.db, teamId, segment_id, page, (r) => toContactItem(r));
}

/** GET /contacts/{id|email} (also the legacy path). */
export function get(ctx: Emulator, req: Req<'contacts/get'> | Req<'audiences/get-contact'>): ResponseBody<'contacts/get'> {
  return toContactResponse(ctx, getContactOr404(ctx, req.auth.teamId, contactRef(req.params.id)));
}

/** PATCH /contacts/{id|email} (also the legacy path) → `{object: "contact", id}`. */
export function update(ctx: Emulator, req: Req<'contacts/update'> | Req<'audiences/update-contact'>): ResponseBody<'contacts/update'> {
  const c = updateContactWith(ctx, req.auth.teamId, contactRef(req.params.id), req.body);
  return { object: 'contact', id: c.id };
}

function remove(ctx: Emulator, req: Req<'contacts/remove'>): Answer<'contacts/remove'> {
  const c = removeContact(ctx, req.auth.teamId, contactRef(req.params.id));
  if (!c) throw errors.notFound('Contact');
  return { object: 'contact', contact: c.id, deleted: true };
}

function listSegments(ctx: Emulator, req: Req<'contacts/list-segments'>): Answer<'contacts/list-segments'> {
  const teamId = req.auth.teamId;
  const contact = getContactOr404(ctx, teamId, contactRef(req.params.contact_id));
  const page = pageMemberships(ctx.db, teamId, contact.id, req.query, (r) => ({ id: r.id, created_at: apiTime(r.created_at) }));
  // The page's segment names in one query. A membership is removed with its segment (segments' delete), so every segment is found.
  const names = segmentNamesOf(ctx, teamId, page.data.map((s) => s.id));
  return { ...page, data: page.data.map((s) => ({ id: s.id, name: names.get(s.id)!, created_at: s.created_at })) };
}

function addSegment(ctx: Emulator, req: Req<'contacts/add-segment'>): Answer<'contacts/add-segment'> {
  const teamId = req.auth.teamId;
  const contact = getContactOr404(ctx, teamId, contactRef(req.params.contact_id));
  addContactToSegment(ctx, teamId, contact.id, req.params.segment_id);
  return { id: req.params.segment_id };
}

function removeSegment(ctx: Emulator, req: Req<'contacts/remove-segment'>): Answer<'contacts/remove-segment'> {
  const teamId = req.auth.teamId;
  const contact = getContactOr404(ctx, teamId, contactRef(req.params.contact_id));
  getSegmentOr404(ctx, teamId, req.params.segment_id);
  removeMembership(ctx, contact.id, req.params.segment_id);
  return { id: contact.id, audienceId: req.params.segment_id, deleted: true };
}

/**
 * GET /contacts/{id}/topics: every topic of the team with the contact's
 * subscription; `created_at` is the topic's (docs/reference/resources.md#contacts).
 */
function listTopics(ctx: Emulator, req: Req<'contacts/list-topics'>): Answer<'contacts/list-topics'> {
  const teamId = req.auth.teamId;
  const contact = getContactOr404(ctx, teamId, contactRef(req.params.contact_id));
  // The contact's own choices, read once; a topic without one shows its default.
  const chosen = new Map(
    explicitSubscriptions(ctx, contact.id).map((r) => [r.topic_id, r.subscription]),
  );
  return pageTopics(ctx.db, req, {
    defaultLimit: 20,
    map: (t: TopicRow) => ({ id: t.id, name: t.name, description: t.description, subscription: chosen.get(t.id) ?? t.default_subscription, created_at: apiTime(t.created_at) }),
  });
}

function updateTopics(ctx: Emulator, req: Req<'contacts/update-topics'>): Answer<'contacts/update-topics'> {
  const teamId = req.auth.teamId;
  const contact = getContactOr404(ctx, teamId, contactRef(req.params.contact_id));
  const topics = Array.isArray(req.body) ? req.body : req.body.topics;
  ctx.db.transaction(() => setSubscriptions(ctx, teamId, contact.id, topics))();
  return { id: contact.id };
}

export const contactOperations = {
  'contacts/create': create,
  'contacts/list': list,
  'contacts/get': get,
  'contacts/update': update,
  'contacts/remove': remove,
  'contacts/list-segments': listSegments,
  'contacts/add-segment': addSegment,
  'contacts/remove-segment': removeSegment,
  'contacts/list-topics': listTopics,
  'contacts/update-topics': updateTopics,
} satisfies OperationHandlers;
