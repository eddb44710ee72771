/**
 * The public API of resend-emulator:
 *
 * ```ts
 * import { startServer, createApp } from 'resend-emulator';
 * const emu = await startServer();            // manual clock, in-memory store
 * const resend = new Resend(emu.apiKey, { baseUrl: emu.url });
 * await emu.clock.advance('10m');             // runs every job due
 * await emu.close();
 *
 * const { app } = await createApp();          // the express app, no port
 * await request(app).post('/emails')...       // supertest; or parent.use('/resend', app)
 * ```
 */
import { parseDuration } from './clock/clock.js';
import { registerInternals } from './internals.js';
import { defaultConfig, prepare, run, type Prepared } from './server.js';
import { listDeliveries } from './deliveries/inspect.js';
import { listEmails, waitForMatch } from './admin/emails.js';
import { inboxThreadViews } from './resources/inboxes/service.js';
import { checkRelayUrl } from './admin/release.js';
import { DEFAULT_TIMEOUT_MS, WaitTimeoutError } from './wait.js';
// The public shapes come from src/public-types.ts only, so these declarations reach no internal module.
import type { AdminEmail, DeliveryFilter, EmailFilter, EmulatorApp, FaultInput, FaultRule, FiredJob, InboxThreadFilter, InboxThreadView, WebhookDelivery } from './public-types.js';

/** A sent email as the admin API shows it (full content, events, links). */
type SentEmail = AdminEmail;

export type { WebhookDelivery, DeliveryFilter, FiredJob, AdminEmail as SentEmail, EmailFilter, EmulatorApp, FaultInput, FaultRule, EmailOutcome, InboxThreadFilter, InboxThreadView } from './public-types.js';
export { interceptResendApi, type InterceptTarget, type ResendApiInterception } from './intercept.js';
export { DEFAULT_TIMEOUT_MS, WaitTimeoutError } from './wait.js';

/** Options of `startServer` (docs/reference/design.md#programmatic). */
export interface StartServerOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Host to bind (default `127.0.0.1`). */
  host?: string;
  /**
   * Serve the app under this path prefix (`/resend`): `url` then ends with
   * it, as the SDK's `baseUrl` must. Default: env `EMULATOR_MOUNT_PATH`, else
   * none. (To mount the app in your own server instead, see `createApp`.)
   */
  mountPath?: string;
  /** `manual` (default here) or `real`. */
  clock?: 'manual' | 'real';
  /** Token of the default team's full-access key (default: the fixtures' key). */
  apiKey?: string;
  /** `:memory:` (default) or a SQLite file path. */
  db?: string;
  /**
   * What a new store and every `reset()` are seeded with: a bundled set,
   * `'default'` (the default: an account set up, with no sent or received
   * email, delivery or run, so nothing seeded satisfies an assertion on
   * what a test did) or `'demo'` (the same with some history: three sent
   * emails, a sent broadcast, an inbox thread), or the path of a fixtures
   * JSON of your own (docs/fixtures.md).
   */
  fixtures?: string;
  /** `send` (default) POSTs deliveries; `record` only records them. */
  webhooks?: 'send' | 'record';
  /** Validate each response against spec/openapi.yaml (default: env `EMULATOR_VALIDATE_RESPONSES=1`). */
  validateResponses?: boolean;
  /** Webhook delivery timeout in ms (default 10 000). */
  webhookTimeoutMs?: number;
  /** Requests per second per team, 0 = off (default). */
  rateLimit?: number;
  /**
   * Count usage against this plan's quotas (`free`, `pro`, `scale`;
   * docs/quotas-and-rate-limits.md#usage-and-quotas): over a quota, sends are refused with 429
   * `daily_quota_exceeded` / `monthly_quota_exceeded`. Default: unlimited.
   */
  plan?: 'free' | 'pro' | 'scale';
  /** URL other services reach the emulator at, for the absolute links it hands out (default: `url`). */
  publicUrl?: string;
  /** `error` (default here), `warn`, `info`, `debug`. */
  logLevel?: string;
  /**
   * Port of the SMTP relay (user `resend`, password an API key; each message
   * sent as `POST /emails`, src/smtp/server.ts); 0 picks a free one.
   * Default: no SMTP relay (the CLI's default is 2587).
   */
  smtpPort?: number;
  /**
   * Fault rules added at start and put back by every `reset()` (as the CLI's
   * `--faults FILE`; docs/faults.md). Default: none. A bad rule
   * makes `startServer` reject with its message.
   */
  faults?: FaultInput[];
  /**
   * Require this token on the admin API: every `/_emulator` route but
   * health (and the download and unsubscribe links handed out to others)
   * then needs `Authorization: Bearer <adminToken>` (src/admin/guard.ts).
   * The helpers below call the emulator directly and keep working.
   * Default: none (CLI `--admin-token`).
   */
  adminToken?: string;
  /**
   * A real SMTP server to release stored emails to (`smtp://user:pass@host:port`,
   * STARTTLS when offered, or `smtps://…`): the inbox page's "Send to a real
   * inbox" and `POST /_emulator/emails/{id}/release` send an email's raw
   * message through it, only when asked (docs/admin-api.md#releasing-an-email-to-a-real-mail-server).
   * Default: none (CLI `--relay`). A URL that is not `smtp:`/`smtps:` with a
   * host makes `startServer` throw a TypeError.
   */
  relay?: string;
  /** The recipients a release may go to: addresses or `*` patterns (`*@example.com`); default every address (CLI `--relay-allow`). */
  relayAllow?: string[];
  /**
   * Also serve the API over HTTPS (`httpsUrl`) with a certificate for
   * `api.resend.com`, `localhost`, `127.0.0.1`, `::1` and the `publicUrl`
   * host, signed by the name-constrained intermediate of a local CA kept in
   * `tlsDir` (docs/https-and-interception.md; CLI `--tls`). Default off.
   */
  tls?: boolean;
  /** Port of the HTTPS listener with `tls` (default 0 here: a free one; the CLI's default is 4443). */
  httpsPort?: number;
  /** Folder of the local CA (`ca.pem` the root, `intermediate.pem`, and `intermediate-key.pem` mode 0600); default beside `db`, or the user's cache folder for `:memory:`. */
  tlsDir?: string;
  /**
   * The recording proxy (docs/parity.md#the-recording-proxy; CLI
   * `--upstream`): every call of the public API is answered by the emulator
   * as usual and also forwarded, in order, to this base URL
   * (`https://api.resend.com`, another emulator) with the same headers; a
   * send is forwarded only when every recipient is one of the service's
   * test addresses, any other is refused with 422 `upstream_send_refused`.
   * `close()` waits for the calls still being forwarded, prints the
   * differences to stderr and writes `record`. Default: none.
   */
  upstream?: string;
  /** The key sent to `upstream` instead of each request's own (CLI `--upstream-api-key`). */
  upstreamApiKey?: string;
  /** With `upstream`: a HAR 1.2 file written at `close()` with both answers of every forwarded call, API keys removed (CLI `--record`). */
  record?: string;
}

/** The fault rules of a running emulator (docs/faults.md; src/faults/). */
export interface EmulatorFaults {
  /**
   * Adds a rule (the body of `POST /_emulator/faults`) and returns it with
   * its `id` and `fired` 0. Throws an Error with `statusCode` (400 or 422)
   * and the admin API's message for a rule it would refuse (unknown
   * `operation` or `team_id`, fields that do not go together, ...).
   */
  add(rule: FaultInput): FaultRule;
  /** Every rule, oldest first, with how often each fired (`fired`). */
  list(): FaultRule[];
  /** Removes one rule; false when no rule has that id. */
  remove(id: string): boolean;
  /** Removes every rule; returns how many there were. */
  clear(): number;
}

/**
 * An emulator's app and helpers, as `createApp` returns them (no port is
 * opened): what `startServer` returns too, less its listener.
 */
export interface EmulatorInstance {
  /**
   * The express 5 application: a node request listener. Drive it with
   * supertest (`request(app).post('/emails')`), mount it in your own
   * express server (`parent.use('/resend', app)`: handed-out URLs then
   * carry the prefix), or serve it with `http.createServer(app)`.
   */
  app: EmulatorApp;
  /** Full-access token of the default team. */
  apiKey: string;
  clock: {
    /**
     * Emulated now, as a `Date` (a new one each call). Arithmetic on it
     * needs `.getTime()`: `now() + 3_600_000` concatenates a string; use
     * `nowMs()` for a number.
     */
    now(): Date;
    /** Emulated now in ms since the Unix epoch (what `now().getTime()` gives), for arithmetic and comparisons with `Date.now()`-style numbers. */
    nowMs(): number;
    /** Moves time forward by ms or a duration text (`'10m'`, `'1h30m'`), running every due job first. */
    advance(by: number | string): Promise<FiredJob[]>;
  };
  /** Back to the fixtures (clock unchanged). */
  reset(): Promise<void>;
  /** Recorded webhook deliveries, oldest first. */
  webhookDeliveries(filter?: DeliveryFilter): WebhookDelivery[];
  /**
   * Sent emails of every team, newest first, with full content (html, text,
   * headers, attachments, tags, events, links, codes). `filter`: `to` (any of
   * to/cc/bcc), `from`, `subject` (substrings, case-insensitive), `tag`
   * (`name` or `name:value`), `team_id`, `last_event`, `q` (search language,
   * docs/sending.md#searching-emails-q). Throws a TypeError for an unknown key, an
   * Error (`statusCode` 422) for a bad `q`.
   */
  emails(filter?: EmailFilter): SentEmail[];
  /**
   * Resolves with the newest email matching `filter` as soon as one exists
   * (at once if one already does). Rejects with a `WaitTimeoutError` after
   * `timeout` ms of wall-clock time (default `DEFAULT_TIMEOUT_MS`, 5000) or
   * if the emulator closes first; with a TypeError for a bad filter.
   */
  waitForEmail(filter?: EmailFilter, options?: { timeout?: number }): Promise<SentEmail>;
  /**
   * Inbox threads (docs/inboxes.md), most recently active first per inbox,
   * each with its emails oldest first. `filter`: `inbox` (id or address),
   * `team_id`.
   */
  inboxThreads(filter?: InboxThreadFilter): InboxThreadView[];
  /** Fault injection: rules that make the API fail or slow down, SMTP stages fail, emails end badly. `reset()` puts back the start rules (`faults` option; none by default). */
  faults: EmulatorFaults;
  /**
   * The base of the absolute URLs the emulator hands out now (attachment
   * `download_url`s, raw and unsubscribe links, share URLs), no trailing
   * slash: `publicUrl` when given; else the listening URL (`url` of
   * `startServer`); else, for `createApp()` or an app mounted in your own
   * server, the origin and mount path of the latest authenticated request
   * (`http://HOST/prefix`, docs/express-app.md). `''` until one is known.
   */
  baseUrl(): string;
  /** Stops the scheduler and closes the store (and, for `startServer`, the listeners). */
  close(): Promise<void>;
}

/** A running emulator, as `startServer` returns it: the app and helpers, served on a port. */
export interface EmulatorServer extends EmulatorInstance {
  /** e.g. `http://127.0.0.1:54321` (no trailing slash). */
  url: string;
  /** Port of the SMTP relay when `smtpPort` was given, else null. */
  smtpPort: number | null;
  /** e.g. `https://127.0.0.1:54322` with `tls`, else null. */
  httpsUrl: string | null;
  /** Path of the local root CA certificate (`ca.pem`) with `tls`, else null: what a client trusts. */
  caCertPath: string | null;
}

/** Options of `createApp`: those of `startServer` less the listeners'. */
export type CreateAppOptions = Omit<StartServerOptions, 'port' | 'host' | 'smtpPort' | 'mountPath' | 'tls' | 'httpsPort' | 'tlsDir'>;

/** The configuration of an in-process emulator (manual clock, quiet log), from the options both entries share. */
function configOf(options: StartServerOptions) {
  if (options.record && !options.upstream) throw new Error('record needs upstream (the base URL to forward to)');
  return defaultConfig({
    clock: options.clock ?? 'manual',
    apiKey: options.apiKey,
    db: options.db,
    fixtures: options.fixtures,
    webhooks: options.webhooks,
    validateResponses: options.validateResponses ?? process.env.EMULATOR_VALIDATE_RESPONSES === '1',
    webhookTimeoutMs: options.webhookTimeoutMs,
    rateLimit: options.rateLimit,
    plan: options.plan,
    publicUrl: options.publicUrl,
    logLevel: options.logLevel ?? 'error',
    faults: options.faults,
    adminToken: options.adminToken,
    relay: options.relay === undefined ? undefined : checkRelayUrl(options.relay),
    relayAllow: options.relayAllow,
    tls: options.tls,
    httpsPort: options.httpsPort ?? 0,
    tlsDir: options.tlsDir,
    upstream: options.upstream ? { url: options.upstream, apiKey: options.upstreamApiKey, record: options.record } : undefined,
  });
}

/**
 * The helpers of a prepared emulator (shared by `createApp` and `startServer`).
 * Its internals are not among them: this repository's tests reach them
 * through src/internals.ts, by the instance (`registerInternals`).
 */
function instanceOf(r: Prepared): EmulatorInstance {
  return {
    app: r.app,
    apiKey: r.apiKey,
    baseUrl: () => r.ctx.runtime.baseUrl,
    faults: {
      add: (rule) => r.ctx.faults.add(rule),
      list: () => r.ctx.faults.list(),
      remove: (id) => r.ctx.faults.remove(id),
      clear: () => r.ctx.faults.clear(),
    },
    clock: {
      now: () => r.ctx.clock.now(),
      nowMs: () => r.ctx.clock.nowMs(),
      advance: (by) => {
        const ms = parseDuration(by);
        if (ms === null) throw new Error(`cannot read duration ${JSON.stringify(by)}`);
        return r.ctx.scheduler.advance(ms);
      },
    },
    reset: () => r.ctx.scheduler.exclusive(() => r.reset()),
    webhookDeliveries: (filter) => listDeliveries(r.ctx, filter),
    emails: (filter) => listEmails(r.ctx, filter),
    inboxThreads: (filter) => inboxThreadViews(r.ctx, filter),
    waitForEmail: async (filter = {}, opts = {}) => {
      const timeout = opts.timeout ?? DEFAULT_TIMEOUT_MS;
      const found = await waitForMatch(r.ctx, filter, timeout);
      if (!found) throw new WaitTimeoutError(filter, timeout);
      return found;
    },
    close: () => r.close(),
  };
}

/**
 * Builds an emulator and its express app without opening any port: the
 * store (in memory by default), the fixtures, the manual clock and the
 * helpers of `startServer`. Handed-out URLs follow the requests (their Host
 * and the mount path) unless `publicUrl` is given. Throws as `startServer`
 * does for unreadable fixtures or bad fault rules.
 */
export async function createApp(options: CreateAppOptions = {}): Promise<EmulatorInstance> {
  const r = await prepare(configOf(options));
  return registerInternals(instanceOf(r), r.ctx);
}

/**
 * Starts an emulator. Throws if the port is taken, the fixtures cannot be
 * read, or `clock.advance` is given an unreadable duration (at call time).
 */
export async function startServer(options: StartServerOptions = {}): Promise<EmulatorServer> {
  const config = { ...configOf(options), mountPath: options.mountPath ?? process.env.EMULATOR_MOUNT_PATH };
  const r = await run(config, options.host ?? '127.0.0.1', options.port ?? 0, options.smtpPort ?? null);
  return registerInternals({ ...instanceOf(r), url: r.url, smtpPort: r.smtpPort, httpsUrl: r.httpsUrl, caCertPath: r.caCertPath }, r.ctx);
}
