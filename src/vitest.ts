/**
 * The fastest Vitest pattern, built in: one emulator per test file, reset
 * before each test, and matchers over what it sent.
 *
 * ```ts
 * import { useEmulator } from 'resend-emulator/vitest';
 *
 * const emu = useEmulator();          // beforeAll: start, beforeEach: reset, afterAll: close
 *
 * it('sends a welcome email', async () => {
 *   await emu.resend.emails.send({ from: 'hi@example.com', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });
 *   expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });
 * });
 * ```
 *
 * Costs measured here: a reset about 1 ms, a fresh `startServer()` about
 * 20 ms, so one server per file with a reset per test is the fast path.
 * `vitest` and `resend` are optional peer dependencies: this entry needs
 * both, the main entry neither.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { Resend } from 'resend';
import { interceptResendApi, startServer, type DeliveryFilter, type EmailFilter, type EmulatorServer, type SentEmail, type StartServerOptions, type WebhookDelivery } from './index.js';

/** What `useEmulator()` hands a test file; every member is usable inside tests and hooks (after `beforeAll`). */
export interface VitestEmulator {
  /** e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  /** Full-access token of the default team. */
  readonly apiKey: string;
  /** The official SDK client pointed at this emulator with `apiKey`. */
  readonly resend: Resend;
  /** The emulated clock: `now()`, `advance(ms | '10m')` (runs every due job). */
  readonly clock: EmulatorServer['clock'];
  /** Sent emails of every team, newest first (see `EmulatorServer.emails`). */
  emails(filter?: EmailFilter): SentEmail[];
  /** Resolves with the newest matching email; rejects after `timeout` ms (default 5000). */
  waitForEmail(filter?: EmailFilter, options?: { timeout?: number }): Promise<SentEmail>;
  /** Recorded webhook deliveries, oldest first (see `EmulatorServer.webhookDeliveries`). */
  webhookDeliveries(filter?: DeliveryFilter): WebhookDelivery[];
  /** Fault rules (see `EmulatorServer.faults`); `reset()` puts back the start rules, so each test starts without its own. */
  readonly faults: EmulatorServer['faults'];
  /** Back to the fixtures (clock unchanged). `useEmulator` already calls it before each test. */
  reset(): Promise<void>;
  /** The running server itself (its `ctx` holds the internals, for advanced tests). */
  readonly server: EmulatorServer;
}

/** Options of `useEmulator`: those of `startServer`, and the interception of `https://api.resend.com`. */
export interface UseEmulatorOptions extends StartServerOptions {
  /**
   * Route every request of the test process to `https://api.resend.com`
   * (global `fetch`, `node:http(s)`) into this emulator, in-process, from
   * `beforeAll` to `afterAll` (`interceptResendApi`), for code that
   * hard-codes the URL. Default false.
   */
  interceptResendApi?: boolean;
}

/**
 * Starts one emulator for the current test file (`beforeAll`), resets it to
 * the fixtures before each test (`beforeEach`) and closes it after the last
 * (`afterAll`). `options` go to `startServer` (manual clock, in-memory store
 * and a free port by default). Call it at the top of a file or a `describe`.
 * Reading a member before `beforeAll` ran throws an Error saying so.
 */
export function useEmulator(options: UseEmulatorOptions = {}): VitestEmulator {
  const { interceptResendApi: intercept, ...serverOptions } = options;
  let server: EmulatorServer | undefined;
  let resend: Resend | undefined;
  const running = (): EmulatorServer => {
    if (!server) throw new Error('useEmulator(): the emulator starts in beforeAll; use it inside tests and hooks');
    return server;
  };
  beforeAll(async () => {
    server = await startServer(serverOptions);
    resend = new Resend(server.apiKey, { baseUrl: server.url });
    // Ended by close() in afterAll.
    if (intercept) interceptResendApi(server);
  });
  beforeEach(async () => {
    await server?.reset();
  });
  afterAll(async () => {
    await server?.close();
    server = undefined;
    resend = undefined;
  });
  return {
    get url() { return running().url; },
    get apiKey() { return running().apiKey; },
    get resend() { running(); return resend!; },
    get clock() { return running().clock; },
    get server() { return running(); },
    get faults() { return running().faults; },
    emails: (filter) => running().emails(filter),
    waitForEmail: (filter, opts) => running().waitForEmail(filter, opts),
    webhookDeliveries: (filter) => running().webhookDeliveries(filter),
    reset: () => running().reset(),
  };
}

/**
 * Filter of `toHaveDeliveredWebhook`: the `DeliveryFilter` fields (exact;
 * `status` is `pending` | `succeeded` | `failed` | `recorded` |
 * `cancelled`), plus `data`, a subset of the payload's `data` (each key
 * compared with vitest's equality, so asymmetric matchers such as
 * `expect.stringContaining` work).
 */
export interface WebhookFilter extends DeliveryFilter {
  data?: Record<string, unknown>;
}

/** Anything with the inspection methods: a `VitestEmulator` or an `EmulatorServer`. */
type Inspectable = Pick<EmulatorServer, 'emails' | 'webhookDeliveries'>;

/** One way a candidate differs from the filter: `field: why`. */
type Difference = string;

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));
const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

/**
 * How `email` differs from `filter`, with `EmailFilter`'s rules
 * (src/admin/emails.ts): `to` a case-insensitive substring of any of
 * to/cc/bcc, `from` and `subject` case-insensitive substrings, `tag` a
 * `name` or `name:value`, `team_id` and `last_event` exact. Empty: it matches.
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

/** How `delivery` differs from `filter` (`equals`: vitest's equality, for `data`). Empty: it matches. */
export function deliveryDifferences(delivery: WebhookDelivery, filter: WebhookFilter, equals: (a: unknown, b: unknown) => boolean): Difference[] {
  const out: Difference[] = [];
  for (const key of ['event_type', 'status', 'webhook_id', 'team_id'] as const) {
    if (filter[key] !== undefined && delivery[key] !== filter[key]) out.push(`${key}: ${show(delivery[key])}, expected ${show(filter[key])}`);
  }
  for (const [key, want] of Object.entries(filter.data ?? {})) {
    const got = delivery.payload.data?.[key];
    if (!equals(got, want)) out.push(`data.${key}: ${got === undefined ? 'missing' : show(got)}, expected ${show(want)}`);
  }
  return out;
}

/** How many candidates a failure message lists. */
const CLOSEST = 3;

/** The `CLOSEST` candidates with the fewest differences (ties keep the given order), formatted. */
function closest<T>(items: T[], differences: (item: T) => Difference[], label: (item: T) => string): string {
  return items
    .map((item, i) => ({ item, i, diff: differences(item) }))
    .sort((a, b) => a.diff.length - b.diff.length || a.i - b.i)
    .slice(0, CLOSEST)
    .map(({ item, diff }, n) => `  ${n + 1}. ${label(item)}\n${diff.map((d) => `     - ${d}`).join('\n')}`)
    .join('\n');
}

const emailLabel = (e: SentEmail) => `${e.id} ${show(e.subject)} from ${show(e.from)} to ${show(e.to)} (${e.last_event})`;
const deliveryLabel = (d: WebhookDelivery) => `${d.id} ${d.event_type} to webhook ${d.webhook_id} (${d.status})`;

function assertInspectable(received: unknown, matcher: string): asserts received is Inspectable {
  const r = received as Partial<Inspectable> | null;
  if (typeof r?.emails !== 'function' || typeof r?.webhookDeliveries !== 'function') {
    throw new TypeError(`${matcher}: expected the emulator (what useEmulator() or startServer() returns), got ${typeof received}`);
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

expect.extend({
  /**
   * Passes when the emulator sent at least one email matching `filter`
   * (`EmailFilter` rules, all fields ANDed). The failure lists the closest
   * emails and how each differs; under `.not`, the emails that match.
   */
  toHaveSentEmail(received: unknown, filter: EmailFilter = {}) {
    assertInspectable(received, 'toHaveSentEmail');
    const all = received.emails();
    const matching = all.filter((e) => emailDifferences(e, filter).length === 0);
    const want = `an email matching ${show(filter)}`;
    return {
      pass: matching.length > 0,
      message: () => {
        if (matching.length > 0) {
          return `expected no email matching ${show(filter)}, but ${plural(matching.length, 'email matches', 'emails match')}:\n${matching.slice(0, CLOSEST).map((e, n) => `  ${n + 1}. ${emailLabel(e)}`).join('\n')}`;
        }
        if (all.length === 0) return `expected ${want}, but no email was sent`;
        return `expected ${want}, but none of the ${plural(all.length, 'sent email', 'sent emails')} matches. Closest:\n${closest(all, (e) => emailDifferences(e, filter), emailLabel)}`;
      },
    };
  },
  /**
   * Passes when the emulator recorded at least one webhook delivery matching
   * `filter` (`WebhookFilter`). The failure lists the closest deliveries and
   * how each differs; under `.not`, the deliveries that match.
   */
  toHaveDeliveredWebhook(received: unknown, filter: WebhookFilter = {}) {
    assertInspectable(received, 'toHaveDeliveredWebhook');
    const all = received.webhookDeliveries();
    const equals = (a: unknown, b: unknown) => this.equals(a, b);
    const matching = all.filter((d) => deliveryDifferences(d, filter, equals).length === 0);
    const want = `a webhook delivery matching ${show(filter)}`;
    return {
      pass: matching.length > 0,
      message: () => {
        if (matching.length > 0) {
          return `expected no webhook delivery matching ${show(filter)}, but ${plural(matching.length, 'delivery matches', 'deliveries match')}:\n${matching.slice(0, CLOSEST).map((d, n) => `  ${n + 1}. ${deliveryLabel(d)}`).join('\n')}`;
        }
        if (all.length === 0) return `expected ${want}, but no webhook delivery was recorded`;
        return `expected ${want}, but none of the ${plural(all.length, 'recorded delivery', 'recorded deliveries')} matches. Closest:\n${closest(all, (d) => deliveryDifferences(d, filter, equals), deliveryLabel)}`;
      },
    };
  },
});

/** The matchers this entry registers on `expect`. */
export interface EmulatorMatchers<R = unknown> {
  /** The emulator sent an email matching `filter` (`EmailFilter`: `to`, `from`, `subject`, `tag`, `team_id`, `last_event`). */
  toHaveSentEmail(filter?: EmailFilter): R;
  /** The emulator recorded a webhook delivery matching `filter` (`event_type`, `status`, `webhook_id`, `team_id`, `data`). */
  toHaveDeliveredWebhook(filter?: WebhookFilter): R;
}

declare module 'vitest' {
  interface Assertion<T = any> extends EmulatorMatchers<T> {}
  interface AsymmetricMatchersContaining extends EmulatorMatchers {}
}

export type { DeliveryFilter, EmailFilter, SentEmail, WebhookDelivery, StartServerOptions, EmulatorServer } from './index.js';
