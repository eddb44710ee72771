/**
 * CONTRACT between modules (owned by the contacts module; automations,
 * broadcasts, emails and imports call it). Tables owned by the contacts
 * family: `contacts`, `contact_segments (contact_id, segment_id, created_at)`
 * in the segments module, `contact_topics (contact_id, topic_id, subscription)`
 * in the topics module.
 */
import type { Emulator } from '../../context.js';

/** A contact as stored; times in emulated ms. */
export interface Contact {
  id: string;
  team_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  unsubscribed: boolean;
  /** Custom property values by key (without fallbacks applied). */
  properties: Record<string, string | number | boolean | null>;
  created_at: number;
  updated_at: number;
}

/** The team's contact by id or (case-insensitive) email, or undefined. */
export function findContact(ctx: Emulator, teamId: string, idOrEmail: string): Contact | undefined {
  void ctx; void teamId; void idOrEmail;
  throw new Error('findContact: being built by the contacts module');
}

/**
 * Creates a contact (or returns the existing one with that email, as the
 * service does). `emitEvents` false for CSV imports (no contact.created,
 * API-FACTS §5.9). Synchronous; throws `ApiError` on bad input.
 */
export function createContact(
  ctx: Emulator,
  teamId: string,
  input: { email: string; first_name?: string | null; last_name?: string | null; unsubscribed?: boolean; properties?: Record<string, unknown> },
  opts?: { emitEvents?: boolean },
): { contact: Contact; created: boolean } {
  void ctx; void teamId; void input; void opts;
  throw new Error('createContact: being built by the contacts module');
}

/** Updates fields of a contact; raises contact.updated. Throws 404 if absent. */
export function updateContact(
  ctx: Emulator,
  teamId: string,
  id: string,
  patch: { first_name?: string | null; last_name?: string | null; unsubscribed?: boolean; properties?: Record<string, unknown> },
): Contact {
  void ctx; void teamId; void id; void patch;
  throw new Error('updateContact: being built by the contacts module');
}

/** Deletes a contact (and its memberships); raises contact.deleted. No-op if absent. */
export function deleteContact(ctx: Emulator, teamId: string, id: string): void {
  void ctx; void teamId; void id;
  throw new Error('deleteContact: being built by the contacts module');
}

/** Adds a contact to a segment (idempotent). Throws 404 if the segment is not the team's. */
export function addContactToSegment(ctx: Emulator, teamId: string, contactId: string, segmentId: string): void {
  void ctx; void teamId; void contactId; void segmentId;
  throw new Error('addContactToSegment: being built by the contacts module');
}

/** Contacts of a segment, oldest membership first. */
export function contactsOfSegment(ctx: Emulator, teamId: string, segmentId: string): Contact[] {
  void ctx; void teamId; void segmentId;
  throw new Error('contactsOfSegment: being built by the contacts module');
}

/**
 * A contact's subscription to a topic: its explicit `opt_in`/`opt_out`, else
 * the topic's `default_subscription`. Throws 404 if the topic is not the team's.
 */
export function topicSubscription(ctx: Emulator, teamId: string, contactId: string, topicId: string): 'opt_in' | 'opt_out' {
  void ctx; void teamId; void contactId; void topicId;
  throw new Error('topicSubscription: being built by the contacts module');
}

/** A contact's property values with the team's contact-property fallbacks applied. */
export function contactPropertyValues(ctx: Emulator, teamId: string, contact: Contact): Record<string, string | number | boolean | null> {
  void ctx; void teamId; void contact;
  throw new Error('contactPropertyValues: being built by the contacts module');
}
