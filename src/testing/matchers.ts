/**
 * The matchers' logic, shared by every test-framework entry
 * (`resend-emulator/vitest`, `/jest`, `/playwright`): which emails and
 * webhook deliveries match a filter, and the pass/fail messages with the
 * closest candidates and how each differs. No test framework is imported
 * here; each entry registers these results with its own `expect.extend`.
 */
import type { EmailFilter, SentEmail } from '../index.js';
import { DELIVERY_FILTER_KEYS } from '../deliveries/inspect.js';
import type { DeliveryAttempt, DeliveryFilter, DeliveryStatus, WebhookDelivery } from '../public-types.js';

/**
 * Filter of `toHaveDeliveredWebhook`: the `DeliveryFilter` fields (exact),
 * plus `data`, a subset of the payload's `data` (each key compared with the
 * test framework's equality, so asymmetric matchers such as
 * `expect.stringContaining` work).
 *
 * `status` is the delivery's status (`pending` | `succeeded` | `failed` |
 * `recorded` | `cancelled`; src/deliveries/jobs.ts). Left out, it is
 * `succeeded`: the matcher means delivered, an attempt its endpoint
 * accepted with a 2xx. A delivery still `pending` (attempts failed,
 * retries to come) or `failed` does not match unless the filter names that
 * status. Under `webhooks: 'record'` (`--webhooks record`) nothing is sent
 * and every delivery is `recorded`: name `status: 'recorded'` to match one
 * (docs/webhooks.md#in-tests-delivered-means-accepted).
 */
export interface WebhookFilter extends DeliveryFilter {
  status?: DeliveryStatus;
  data?: Record<string, unknown>;
}

/** The status `toHaveDeliveredWebhook` asks for when its filter names none: the endpoint answered 2xx. */
const DELIVERED_STATUS: DeliveryStatus = 'succeeded';

/** Anything whose emails (by `EmailFilter`) and deliveries can be read at once: an `EmulatorServer`, or what `useEmulator()` returns. */
export type Inspectable = { emails(filter?: EmailFilter): SentEmail[]; webhookDeliveries(): WebhookDelivery[] };

/** What a matcher hands back to its framework: jest's, vitest's and Playwright's `expect.extend` all take this shape. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** Equality of the test framework (`this.equals` in a matcher), for `WebhookFilter.data`. */
export type Equals = (a: unknown, b: unknown) => boolean;

/** One way a candidate differs from the filter: `field: why`. */
type Difference = string;

/** A value as messages show it (JSON; `undefined` as such). */
export const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));
const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

/**
 * How `email` differs from `filter`, with `EmailFilter`'s rules
 * (src/admin/emails.ts): `to` a case-insensitive substring of any of
 * to/cc/bcc, `from` and `subject` case-insensitive substrings, `tag` a
 * `name` or `name:value`, `team_id` and `last_event` exact. Empty: no field
 * differs. `q` (the search language) is not judged here: the matchers
 * decide with the emulator's own `emails(filter)` and use this only to
 * explain a failure.
 */
export function emailDifferences(email: SentEmail, filter: EmailFilter): Difference[] {
  const out: Difference[] = [];
  if (filter.to !== undefined) {
    const all = [...email.to, ...email.cc, ...email.bcc];
    if (!all.some((r) => contains(r, filter.to!))) out.push(`to: no recipient (to, cc, bcc) contains ${show(filter.to)}; got ${show(all)}`);
  }
  if (filter.from !== undefined && !contains(email.from, filter.from)) out.push(`from: ${show(email.from)} does not contain ${show(filter.from)}`);
  if (filter.subject !== undefined && !contains(email.subject, filter.subject)) out.push(`subject: ${show(email.subject)} does not contain ${show(filter.subject)}`);
  if (filter.tag !== undefined) {
    const [name, ...rest] = filter.tag.split(':');
    const value = rest.length ? rest.join(':') : undefined;
    if (!email.tags.some((t) => t.name === name && (value === undefined || t.value === value))) {
      out.push(`tag: no tag ${show(filter.tag)}; got ${show(email.tags.map((t) => `${t.name}:${t.value}`))}`);
    }
  }
  if (filter.team_id !== undefined && email.team_id !== filter.team_id) out.push(`team_id: ${show(email.team_id)}, expected ${show(filter.team_id)}`);
  if (filter.last_event !== undefined && email.last_event !== filter.last_event) out.push(`last_event: ${show(email.last_event)}, expected ${show(filter.last_event)}`);
  return out;
}

/**
 * How `delivery` differs from `filter` (`equals`: the test framework's
 * equality, for `data`). Empty: it matches. A filter without `status`
 * asks for `DELIVERED_STATUS` (`succeeded`), as `toHaveDeliveredWebhook` does.
 */
export function deliveryDifferences(delivery: WebhookDelivery, filter: WebhookFilter, equals: Equals): Difference[] {
  const out: Difference[] = [];
  for (const key of DELIVERY_FILTER_KEYS) {
    if (key === 'status' && filter.status === undefined) {
      if (delivery.status !== DELIVERED_STATUS) out.push(`status: ${show(delivery.status)}, expected ${show(DELIVERED_STATUS)} (accepted by its endpoint with a 2xx; the filter names no other status)`);
      continue;
    }
    if (filter[key] !== undefined && delivery[key] !== filter[key]) out.push(`${key}: ${show(delivery[key])}, expected ${show(filter[key])}`);
  }
  for (const [key, want] of Object.entries(filter.data ?? {})) {
    const got = delivery.payload.data?.[key];
    if (!equals(got, want)) out.push(`data.${key}: ${got === undefined ? 'missing' : show(got)}, expected ${show(want)}`);
  }
  return out;
}

/** Most attempts a failure message lists per delivery (the first ones, then how many more). */
const ATTEMPTS_SHOWN = 10;

/** One attempt as failure messages list it: `attempt N at TIME: ANSWER[, ERROR][ (replay)]`. */
function attemptLine(a: DeliveryAttempt, n: number): string {
  const answer = a.status_code === null ? 'no answer' : `answered ${a.status_code}`;
  return `attempt ${n} at ${a.at}: ${answer}${a.error ? `, ${a.error}` : ''}${a.replay ? ' (replay)' : ''}`;
}

/** A delivery's attempts, each with its status and error, then the next attempt due, as lines of a failure message. */
function attemptLines(d: WebhookDelivery): string[] {
  const lines = d.attempts.length === 0 ? ['no attempt yet'] : d.attempts.slice(0, ATTEMPTS_SHOWN).map((a, i) => attemptLine(a, i + 1));
  if (d.attempts.length > ATTEMPTS_SHOWN) lines.push(`… ${d.attempts.length - ATTEMPTS_SHOWN} more`);
  if (d.next_attempt_at) lines.push(`next attempt at ${d.next_attempt_at} (emulated time: advance the clock to run it)`);
  return lines;
}

/** How many candidates a failure message lists. */
const CLOSEST = 3;

/** The `CLOSEST` candidates with the fewest differences (ties keep the given order), formatted; `details`: more lines under each. */
function closest<T>(items: T[], differences: (item: T) => Difference[], label: (item: T) => string, details: (item: T) => string[] = () => []): string {
  return items
    .map((item, i) => ({ item, i, diff: differences(item) }))
    .sort((a, b) => a.diff.length - b.diff.length || a.i - b.i)
    .slice(0, CLOSEST)
    .map(({ item, diff }, n) => [`  ${n + 1}. ${label(item)}`, ...diff.map((d) => `     - ${d}`), ...details(item).map((l) => `       ${l}`)].join('\n'))
    .join('\n');
}

const emailLabel = (e: SentEmail) => `${e.id} ${show(e.subject)} from ${show(e.from)} to ${show(e.to)} (${e.last_event})`;
const deliveryLabel = (d: WebhookDelivery) => `${d.id} ${d.event_type} to webhook ${d.webhook_id} (${d.status})`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Throws a TypeError (`MATCHER: expected the emulator ...`) unless
 * `received` has `emails` and `webhookDeliveries` methods (sync or async).
 */
export function assertEmulatorLike(received: unknown, matcher: string): void {
  const r = received as { emails?: unknown; webhookDeliveries?: unknown } | null;
  if (typeof r?.emails !== 'function' || typeof r?.webhookDeliveries !== 'function') {
    throw new TypeError(`${matcher}: expected the emulator (what useEmulator() or startServer() returns), got ${typeof received}`);
  }
}

/**
 * What `toHaveSentEmail` reads through the emulator's own `emails()`:
 * `matching` = `emails(filter)` (its rules: `q` compiled by its search, an
 * unknown key a TypeError); when none matches, `all` = `emails()` and, for
 * a filter with `q`, `matchingQ` = `emails({ q })`, to explain the failure.
 */
export interface SentEmailReading {
  matching: SentEmail[];
  all: SentEmail[];
  matchingQ?: SentEmail[];
}

/**
 * Reads what `sentEmailResult` needs through `emails` (sync, or async as
 * over the admin API); `all` and `matchingQ` only when nothing matches.
 * Throws (rejects) whatever `emails(filter)` throws for a bad filter.
 */
export function readSentEmails(emails: (filter?: EmailFilter) => SentEmail[], filter: EmailFilter): SentEmailReading;
export function readSentEmails(emails: (filter?: EmailFilter) => SentEmail[] | Promise<SentEmail[]>, filter: EmailFilter): SentEmailReading | Promise<SentEmailReading>;
export function readSentEmails(emails: (filter?: EmailFilter) => SentEmail[] | Promise<SentEmail[]>, filter: EmailFilter): SentEmailReading | Promise<SentEmailReading> {
  const first = emails(filter);
  const rest = (matching: SentEmail[]): SentEmailReading | Promise<SentEmailReading> => {
    if (matching.length > 0) return { matching, all: [] };
    const all = emails();
    const matchingQ = filter.q === undefined ? undefined : emails({ q: filter.q });
    if (all instanceof Promise || matchingQ instanceof Promise) return Promise.all([all, matchingQ]).then(([a, q]) => ({ matching, all: a, matchingQ: q }));
    return { matching, all, matchingQ };
  };
  return first instanceof Promise ? first.then(rest) : rest(first);
}

/**
 * `toHaveSentEmail` over what `readSentEmails` read: passes when the
 * emulator's `emails(filter)` found one (`EmailFilter` rules, `q`
 * included, all fields ANDed). The failure lists the closest of all the
 * sent emails (newest first) and how each differs; under `.not`, the
 * emails that match.
 */
export function sentEmailResult({ matching, all, matchingQ }: SentEmailReading, filter: EmailFilter = {}): MatcherResult {
  const want = `an email matching ${show(filter)}`;
  const inQ = matchingQ && new Set(matchingQ.map((e) => e.id));
  const differences = (e: SentEmail) => [...emailDifferences(e, filter), ...(inQ && !inQ.has(e.id) ? [`q: the search ${show(filter.q)} does not find it`] : [])];
  return {
    pass: matching.length > 0,
    message: () => {
      if (matching.length > 0) {
        return `expected no email matching ${show(filter)}, but ${plural(matching.length, 'email matches', 'emails match')}:\n${matching.slice(0, CLOSEST).map((e, n) => `  ${n + 1}. ${emailLabel(e)}`).join('\n')}`;
      }
      if (all.length === 0) return `expected ${want}, but no email was sent`;
      return `expected ${want}, but none of the ${plural(all.length, 'sent email', 'sent emails')} matches. Closest:\n${closest(all, differences, emailLabel)}`;
    },
  };
}

/**
 * `toHaveDeliveredWebhook` over the recorded deliveries `all`: passes when
 * one matches `filter` (`WebhookFilter`; `equals` compares `data` values),
 * its `status` `succeeded` (accepted by the endpoint with a 2xx) unless
 * the filter names another. The failure lists the closest deliveries, how
 * each differs and each one's attempts (answer and error), with a hint
 * when they were only recorded (`webhooks: 'record'`); under `.not`, the
 * deliveries that match.
 */
export function deliveredWebhookResult(all: WebhookDelivery[], filter: WebhookFilter = {}, equals: Equals = structuralEquals): MatcherResult {
  const differences = (d: WebhookDelivery) => deliveryDifferences(d, filter, equals);
  const matching = all.filter((d) => differences(d).length === 0);
  const accepted = filter.status === undefined ? ` and accepted by its endpoint (status ${show(DELIVERED_STATUS)})` : '';
  const want = `a webhook delivery matching ${show(filter)}${accepted}`;
  return {
    pass: matching.length > 0,
    message: () => {
      if (matching.length > 0) {
        return `expected no webhook delivery matching ${show(filter)}${accepted}, but ${plural(matching.length, 'delivery matches', 'deliveries match')}:\n${matching.slice(0, CLOSEST).map((d, n) => `  ${n + 1}. ${deliveryLabel(d)}`).join('\n')}`;
      }
      if (all.length === 0) return `expected ${want}, but no webhook delivery was recorded`;
      const recordedOnly = filter.status === undefined && all.some((d) => d.status === 'recorded' && deliveryDifferences(d, { ...filter, status: 'recorded' }, equals).length === 0);
      const hint = recordedOnly ? "\nThe emulator runs with webhooks: 'record' (--webhooks record): nothing is sent, so nothing is accepted. Add status: 'recorded' to the filter to match what was recorded." : '';
      return `expected ${want}, but none of the ${plural(all.length, 'recorded delivery', 'recorded deliveries')} matches. Closest:\n${closest(all, differences, deliveryLabel, attemptLines)}${hint}`;
    },
  };
}

/** Equality of JSON values (the payload's `data` is parsed JSON), for a framework whose matchers have no `this.equals`. */
export function structuralEquals(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && structuralEquals((a as any)[k], (b as any)[k]));
}

/** The matchers every entry registers on `expect` (`R`: what the framework's assertion returns). */
export interface EmulatorMatchers<R = unknown> {
  /** The emulator sent an email matching `filter` (`EmailFilter`: `to`, `from`, `subject`, `tag`, `team_id`, `last_event`, `q`), as its `emails(filter)` finds them. */
  toHaveSentEmail(filter?: EmailFilter): R;
  /**
   * The emulator delivered a webhook matching `filter` (`event_type`,
   * `status`, `webhook_id`, `team_id`, `data`): its endpoint accepted it
   * (2xx, status `succeeded`) unless `filter.status` names another status
   * (`'recorded'` under `webhooks: 'record'`, `'pending'`, `'failed'`, …).
   */
  toHaveDeliveredWebhook(filter?: WebhookFilter): R;
}

/**
 * The two matchers as `expect.extend` takes them, for the frameworks whose
 * matcher context has `equals` (Vitest, Jest): `toHaveSentEmail(filter)`
 * passes when the emulator's `emails(filter)` finds at least one email
 * (`EmailFilter` rules, ANDed, `q` included; an unknown key throws its
 * TypeError); `toHaveDeliveredWebhook(filter)` when a delivery matching
 * `filter` was accepted by its endpoint (status `succeeded`, or the status
 * the filter names; `data` compared with the framework's equality, so
 * asymmetric matchers work). A failure lists the closest emails
 * (deliveries, with their attempts) and how each differs; under `.not`,
 * the ones that match. Throws a TypeError when `received` is not an emulator.
 */
export const emulatorMatcherSet = {
  toHaveSentEmail(this: { equals: Equals }, received: unknown, filter: EmailFilter = {}): MatcherResult {
    assertEmulatorLike(received, 'toHaveSentEmail');
    const r = received as Inspectable;
    return sentEmailResult(readSentEmails((f) => r.emails(f), filter), filter);
  },
  toHaveDeliveredWebhook(this: { equals: Equals }, received: unknown, filter: WebhookFilter = {}): MatcherResult {
    assertEmulatorLike(received, 'toHaveDeliveredWebhook');
    return deliveredWebhookResult((received as Inspectable).webhookDeliveries(), filter, (a, b) => this.equals(a, b));
  },
};
