/**
 * Reading an emulator from a test, whether the test started it in-process
 * (`localConnection(startServer())`) or it runs elsewhere and is reached
 * over its admin API (`remoteConnection(url)`, e.g. an emulator started by
 * Playwright's `webServer` or docker compose). Both answer the same
 * promise-returning calls, so the Playwright fixture works the same either
 * way. Waiting for an email is one request on the admin API's `wait`
 * long-poll (`GET /_emulator/emails/latest?wait=MS`, spec
 * spec/paths/admin-emails.yaml) or the in-process `waitForEmail`, which
 * listens for the email: nothing polls in a loop.
 */
import { assertEmailFilter, EMAIL_FILTER_KEYS } from '../admin/emails.js';
import { DELIVERY_FILTER_KEYS } from '../deliveries/inspect.js';
import { DEFAULT_TIMEOUT_MS, WaitTimeoutError } from '../wait.js';
import type { DeliveryFilter, EmailFilter, EmulatorServer, SentEmail, WebhookDelivery } from '../index.js';

/** `{ timeout }` of the waiting calls: wall-clock ms, default `DEFAULT_TIMEOUT_MS`. */
export interface WaitOptions {
  timeout?: number;
}

export { DEFAULT_TIMEOUT_MS, WaitTimeoutError } from '../wait.js';

/** The longest `wait` the admin API takes, ms (spec/paths/admin-emails.yaml `wait`: maximum 300000). */
const MAX_WAIT_MS = 300_000;

/** What a test reads an emulator through; every call returns a promise. */
export interface EmulatorConnection {
  /** Base URL of the emulator, e.g. `http://127.0.0.1:54321` (no trailing slash): what an app's `RESEND_BASE_URL` is set to. */
  readonly url: string;
  /** An API key of the default team (the fixtures' key unless told otherwise). */
  readonly apiKey: string;
  /** The in-process server when the test started it, else null (an emulator running elsewhere). */
  readonly server: EmulatorServer | null;
  /** Sent emails of every team, newest first (`EmailFilter`; see `EmulatorServer.emails`). A bad filter key rejects with a TypeError. */
  emails(filter?: EmailFilter): Promise<SentEmail[]>;
  /** Recorded webhook deliveries, oldest first (see `EmulatorServer.webhookDeliveries`). */
  webhookDeliveries(filter?: DeliveryFilter): Promise<WebhookDelivery[]>;
  /** The newest email matching `filter`, as soon as one exists; rejects with a `WaitTimeoutError` after `timeout` ms (default `DEFAULT_TIMEOUT_MS`). */
  waitForEmail(filter?: EmailFilter, options?: WaitOptions): Promise<SentEmail>;
  /** The first one-time code (`SentEmail.codes[0]`) of the newest matching email, waited for as `waitForEmail`; rejects when that email has none. */
  code(filter?: EmailFilter, options?: WaitOptions): Promise<string>;
  /** The first link of the newest matching email that contains `pattern` (a string) or matches it (a RegExp); any link without one. Rejects when none does. */
  link(filter?: EmailFilter, pattern?: string | RegExp, options?: WaitOptions): Promise<string>;
  /** Back to the fixtures (`POST /_emulator/reset`; clock unchanged). */
  reset(): Promise<void>;
}

/**
 * The first one-time code of `email` (`codes`, src/admin/codes.ts). Throws
 * an Error naming the email, its subject and the start of its text when it
 * has none.
 */
export function codeOf(email: SentEmail, filter: EmailFilter = {}): string {
  const code = email.codes[0];
  if (code === undefined) {
    const text = (email.text ?? email.html?.replace(/<[^>]*>/g, ' ') ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new Error(`code: the newest email matching ${JSON.stringify(filter)} (${email.id} "${email.subject}") holds no one-time code; its text: ${JSON.stringify(text)}`);
  }
  return code;
}

/**
 * The first link of `email` (`links`: http(s) URLs of its html and text, in
 * order) containing `pattern` (a string, case-sensitive) or matching it (a
 * RegExp); the first link at all without `pattern`. Throws an Error listing
 * the email's links when none does.
 */
export function linkOf(email: SentEmail, pattern?: string | RegExp, filter: EmailFilter = {}): string {
  const fits = (l: string) => (pattern === undefined ? true : typeof pattern === 'string' ? l.includes(pattern) : new RegExp(pattern.source, pattern.flags.replace('g', '')).test(l));
  const found = email.links.find(fits);
  if (found === undefined) {
    const which = pattern === undefined ? 'no link' : `no link ${typeof pattern === 'string' ? `containing ${JSON.stringify(pattern)}` : `matching ${pattern}`}`;
    throw new Error(`link: the newest email matching ${JSON.stringify(filter)} (${email.id} "${email.subject}") has ${which}; its links: ${JSON.stringify(email.links)}`);
  }
  return found;
}

/** `code` and `link` over any `waitForEmail` (a connection's, or `useEmulator()`'s): both wait as it does, then read the email with `codeOf` / `linkOf`. */
export function withCodeAndLink(waitForEmail: EmulatorConnection['waitForEmail']): Pick<EmulatorConnection, 'code' | 'link'> {
  return {
    code: async (filter = {}, options) => codeOf(await waitForEmail(filter, options), filter),
    link: async (filter = {}, pattern, options) => linkOf(await waitForEmail(filter, options), pattern, filter),
  };
}

/** A connection to an emulator this process started (`startServer()`). */
export function localConnection(server: EmulatorServer): EmulatorConnection {
  const waitForEmail: EmulatorConnection['waitForEmail'] = (filter, options) => server.waitForEmail(filter, options);
  return {
    url: server.url,
    apiKey: server.apiKey,
    server,
    emails: async (filter) => server.emails(filter),
    webhookDeliveries: async (filter) => server.webhookDeliveries(filter),
    waitForEmail,
    ...withCodeAndLink(waitForEmail),
    reset: () => server.reset(),
  };
}

/** Options of `remoteConnection`. */
export interface RemoteOptions {
  /** API key handed to tests as `apiKey` (default: the bundled fixtures' `re_emulator_default_key`). */
  apiKey?: string;
  /** Sent as `Authorization: Bearer` on the admin API, for an emulator started with `--admin-token`. */
  adminToken?: string;
}

/** The bundled fixtures' full-access key (fixtures/default.json). */
const FIXTURES_API_KEY = 're_emulator_default_key';

/**
 * A connection to an emulator running elsewhere, through its admin API
 * (`/_emulator/emails`, `/_emulator/webhook-deliveries`, `/_emulator/reset`).
 * Calls reject with an Error naming the URL when it cannot be reached, and
 * with the admin API's status and message when it refuses a request.
 * `waitForEmail` waits at most 300 000 ms (the admin API's `wait` maximum).
 */
export function remoteConnection(baseUrl: string, options: RemoteOptions = {}): EmulatorConnection {
  const url = baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {};

  /** GET or POST `path`; the parsed JSON body, or null for a 404 when `notFoundIsNull`. */
  async function call<T>(method: 'GET' | 'POST', path: string, query: Record<string, string | undefined> = {}, waitMs = 0, notFoundIsNull = false): Promise<T | null> {
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    let res: Response;
    try {
      res = await fetch(`${url}${path}${qs ? `?${qs}` : ''}`, { method, headers, signal: AbortSignal.timeout(waitMs + 30_000) });
    } catch (err) {
      throw new Error(`cannot reach the emulator at ${url} (EMULATOR_URL / RESEND_BASE_URL): ${(err as Error).cause ?? (err as Error).message}`);
    }
    if (res.status === 404 && notFoundIsNull) return null;
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (!res.ok) throw new Error(`${method} ${url}${path}: ${res.status} ${body?.message ?? res.statusText}`);
    return body as T;
  }

  const filterQuery = (filter: EmailFilter): Record<string, string | undefined> => {
    assertEmailFilter(filter);
    return Object.fromEntries(EMAIL_FILTER_KEYS.map((k) => [k, filter[k]]));
  };

  const waitForEmail: EmulatorConnection['waitForEmail'] = async (filter = {}, opts) => {
    const timeout = Math.min(Math.max(0, opts?.timeout ?? DEFAULT_TIMEOUT_MS), MAX_WAIT_MS);
    const found = await call<SentEmail>('GET', '/_emulator/emails/latest', { ...filterQuery(filter), wait: timeout > 0 ? String(Math.ceil(timeout)) : undefined }, timeout, true);
    if (!found) throw new WaitTimeoutError(filter, timeout);
    return found;
  };

  return {
    url,
    apiKey: options.apiKey ?? FIXTURES_API_KEY,
    server: null,
    emails: async (filter = {}) => (await call<{ data: SentEmail[] }>('GET', '/_emulator/emails', filterQuery(filter)))!.data,
    webhookDeliveries: async (filter = {}) =>
      (await call<{ data: WebhookDelivery[] }>('GET', '/_emulator/webhook-deliveries', Object.fromEntries(DELIVERY_FILTER_KEYS.map((k) => [k, filter[k]]))))!.data,
    waitForEmail,
    ...withCodeAndLink(waitForEmail),
    reset: async () => {
      await call('POST', '/_emulator/reset');
    },
  };
}
