/**
 * The parity tour: the calls `emulator parity` makes to both sides, as a
 * table. Only calls that cannot send real mail or harm the account: sends
 * go from the service's shared test sender to its test addresses
 * (docs/reference/test-addresses.md#test-addresses-resenddev), what is
 * created is named with the run's prefix and deleted by the run (the ids it
 * captured, never a listed one), the rest reads or is refused.
 * docs/parity.md "What it calls" lists it for users.
 */
import type { AuthKind } from './exchange.js';

/** One call of the tour. */
export interface TourStep {
  /** `resource.what`, unique in the tour. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /**
   * Path and query. `{run}` is the run's name prefix, `{random}` a random
   * UUID of the run (the same on both sides: an id that names nothing), and
   * `{<capture>}` an id an earlier step captured on the same side.
   */
  path: string;
  /** JSON body; `{run}` in its strings is the run's prefix. */
  body?: unknown;
  /** How the call is authorised (default `key`). */
  auth?: AuthKind;
  /** Keep the answer's `id` (2xx only) as `name`; `cleanup` (a DELETE path with `{name}`) removes it at the end unless a step `deletes` it first. */
  capture?: { name: string; cleanup?: string };
  /** The capture this step removes (no cleanup after it). */
  deletes?: string;
  /** Paths whose enum value changes with time (compared by type only). */
  loose?: string[];
  /** Emails the step sends on the service (counted against the account's quota). */
  sends?: number;
}

/** The shared test sender of the service (docs/reference/test-addresses.md#test-addresses-resenddev). */
const TEST_SENDER = 'onboarding@resend.dev';

/** The tour, in order. */
export const TOUR: readonly TourStep[] = [
  { name: 'api-keys.list', method: 'GET', path: '/api-keys' },
  // An invalid name: refused; captured all the same, so that were it ever accepted the run deletes it.
  { name: 'domains.create-invalid-name', method: 'POST', path: '/domains', body: { name: 'not a domain name' }, capture: { name: 'domain', cleanup: '/domains/{domain}' } },
  {
    name: 'emails.send',
    method: 'POST',
    path: '/emails',
    body: { from: `Parity <${TEST_SENDER}>`, to: ['delivered@resend.dev'], subject: '{run}', text: 'A parity check of resend-emulator.' },
    capture: { name: 'email' },
    sends: 1,
  },
  // The email moves on by itself on the service (queued, sent, delivered): its state is compared as a type.
  { name: 'emails.get', method: 'GET', path: '/emails/{email}', loose: ['$.last_event'] },
  { name: 'emails.list-after-and-before', method: 'GET', path: '/emails?after={random}&before={random}' },
  { name: 'emails.send-without-to', method: 'POST', path: '/emails', body: { from: TEST_SENDER, subject: '{run}', text: 'No recipient.' }, capture: { name: 'refused-email' } },
  { name: 'auth.missing-key', method: 'GET', path: '/domains', auth: 'none' },
  { name: 'auth.unknown-key', method: 'GET', path: '/domains', auth: 'unknown' },
  { name: 'domains.get-unknown', method: 'GET', path: '/domains/{random}' },
  { name: 'segments.create', method: 'POST', path: '/segments', body: { name: '{run}' }, capture: { name: 'segment', cleanup: '/segments/{segment}' } },
  { name: 'segments.get', method: 'GET', path: '/segments/{segment}' },
  { name: 'segments.remove', method: 'DELETE', path: '/segments/{segment}', deletes: 'segment' },
  { name: 'segments.get-unknown', method: 'GET', path: '/segments/{random}' },
  { name: 'topics.create', method: 'POST', path: '/topics', body: { name: '{run}', default_subscription: 'opt_in' }, capture: { name: 'topic', cleanup: '/topics/{topic}' } },
  { name: 'topics.get', method: 'GET', path: '/topics/{topic}' },
  { name: 'topics.remove', method: 'DELETE', path: '/topics/{topic}', deletes: 'topic' },
  {
    name: 'contacts.create',
    method: 'POST',
    path: '/contacts',
    body: { email: 'delivered+{run}@resend.dev', first_name: 'Parity' },
    capture: { name: 'contact', cleanup: '/contacts/{contact}' },
  },
  { name: 'contacts.get', method: 'GET', path: '/contacts/{contact}' },
  { name: 'contacts.remove', method: 'DELETE', path: '/contacts/{contact}', deletes: 'contact' },
  { name: 'templates.create', method: 'POST', path: '/templates', body: { name: '{run}', html: '<p>{run}</p>' }, capture: { name: 'template', cleanup: '/templates/{template}' } },
  { name: 'templates.get', method: 'GET', path: '/templates/{template}' },
  { name: 'templates.remove', method: 'DELETE', path: '/templates/{template}', deletes: 'template' },
  { name: 'webhooks.list', method: 'GET', path: '/webhooks' },
];

/** The emails a tour sends on the service (its cost against the account's sending quota). */
export function tourSends(steps: readonly TourStep[] = TOUR): number {
  return steps.reduce((n, s) => n + (s.sends ?? 0), 0);
}
