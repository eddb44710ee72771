/**
 * The emulator's shared state, handed to every handler and job:
 * store, clock, scheduler, configuration (frozen), runtime state and an
 * in-process event bus.
 */
import type { EventBus } from './bus.js';
import type { DB, Migration } from './store/db.js';
import type { AnyTable } from './store/table.js';
import type { Clock, ClockMode } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';
import type { FaultInput, Faults } from './faults/rules.js';

/**
 * Default port of the HTTPS listener of `--tls` (`--https-port`). Here, not
 * in src/tls/, so the CLI reads it without loading the certificate libraries.
 */
export const DEFAULT_HTTPS_PORT = 4443;

/**
 * How long the listeners wait for a slow or silent client (ms; slow
 * clients cannot hold connections). Defaults: `DEFAULT_TIMEOUTS` in src/server.ts.
 * Internal: tests shorten them; no flag sets them.
 */
export interface ServerTimeouts {
  /** HTTP: the whole header block must arrive within this (node's `headersTimeout`); ≤ 10 s. */
  headersMs: number;
  /** HTTP: the whole request, body included, must arrive within this (`requestTimeout`). */
  requestMs: number;
  /** HTTP: an idle keep-alive connection is closed after this (`keepAliveTimeout`). */
  keepAliveMs: number;
  /** HTTP: how often the two limits above are checked (`connectionsCheckingInterval`). */
  checkIntervalMs: number;
  /** SMTP: a connection silent this long is closed (smtp-server `socketTimeout`). */
  smtpSocketMs: number;
}

/** A plan whose quotas the emulator counts against (src/state/plans.ts). */
export type PlanName = 'free' | 'pro' | 'scale';

/** Where the recording proxy forwards (`EmulatorConfig.upstream`). */
export interface UpstreamConfig {
  /** Base URL of the upstream (`https://api.resend.com`, another emulator). */
  url: string;
  /** The key sent upstream instead of each request's own. */
  apiKey?: string;
  /** HAR file written at close with both sides of every forwarded call. */
  record?: string;
}

/**
 * Server configuration (docs/reference/design.md#cli and docs/reference/design.md#programmatic):
 * what the emulator was started with, never changed afterwards. `prepare`
 * (src/server.ts) freezes its own copy (`Object.freeze`, and its
 * `timeouts` and `faults`) as `ctx.config`; what changes while it runs is
 * `ctx.runtime` (`RuntimeState`).
 */
export interface EmulatorConfig {
  /** `:memory:` or a file path. */
  db: string;
  clock: ClockMode;
  /** `send`: POST deliveries to endpoints; `record`: only record them. */
  webhooks: 'send' | 'record';
  /** Path of the fixtures JSON, or a bundled set's name (`default`, `demo`; src/state/fixtures.ts). Default: the `default` set's file. */
  fixtures: string;
  /** Replaces the default team's full-access key token, if set. */
  apiKey?: string;
  /** `error` | `warn` | `info` | `debug`. */
  logLevel: string;
  /** Validate every response against its schema in spec/openapi.yaml (tests). */
  validateResponses: boolean;
  /** Webhook delivery timeout in ms (default 10 000). */
  webhookTimeoutMs: number;
  /** Requests per second per team; 0 = off (the default). */
  rateLimit: number;
  /** The plan whose quotas apply (`--plan`; src/state/plans.ts); unset: unlimited (the default). */
  plan?: PlanName;
  /**
   * The URL other services reach the emulator at, used in the absolute URLs
   * it hands out (attachment `download_url`s, unsubscribe links, share URLs),
   * e.g. `http://resend:4400` in docker compose. Default: the listening URL.
   */
  publicUrl?: string;
  /**
   * Path prefix the emulator's own listener serves the app under (`/resend`:
   * the app mounted in an express parent at that path; CLI `--mount-path`,
   * `startServer({ mountPath })`). Default: none, the app at `/`.
   */
  mountPath?: string;
  /**
   * Fault rules added at start and put back at every reset (CLI `--faults
   * FILE`, `startServer({ faults })`; src/faults/). Default: none.
   */
  faults?: readonly FaultInput[];
  /**
   * The recording proxy (src/parity/proxy.ts; CLI `--upstream URL
   * [--upstream-api-key KEY] [--record FILE.har]`, `startServer({ upstream,
   * upstreamApiKey, record })`; docs/parity.md#the-recording-proxy): every
   * call of the public API is also forwarded to `url`, both answers
   * compared, the differences printed at close and both sides written to
   * `record`. Default: none (the app has no proxy step at all).
   */
  upstream?: UpstreamConfig;
  /**
   * When set, every `/_emulator` route but health (and the links handed out
   * to others) needs `Authorization: Bearer <adminToken>` or the inbox
   * page's cookie (src/admin/guard.ts; `--admin-token`).
   */
  adminToken?: string;
  /**
   * A real SMTP server the admin API's release sends a stored email through
   * (`POST /_emulator/emails/{id}/release`, src/admin/release.ts; CLI
   * `--relay`): `smtp://user:pass@host:port` (STARTTLS when the server
   * offers it) or `smtps://…` (TLS from the start). Default: none (a release
   * answers 409 `relay_not_configured`). Nothing is ever sent on its own.
   */
  relay?: string;
  /**
   * The recipients a release may send to (CLI `--relay-allow`): addresses
   * or patterns with `*` (`*@example.com`, `me+*@x.org`), case-insensitive.
   * Default: none given, every address.
   */
  relayAllow?: readonly string[];
  /** Listener timeouts (internal; default `DEFAULT_TIMEOUTS`). */
  timeouts: Readonly<ServerTimeouts>;
  /** The address the HTTP server is bound to (`--host`; given by `run`, src/server.ts, unset for `createApp()`); the admin API answers to it as a Host (src/admin/guard.ts). */
  bindHost?: string;
  /**
   * Where multipart uploads (contact import CSVs) are stored until their
   * import ends (default: the OS temp folder, read when the config is made;
   * kept across restarts so a `--db` store resumes its queued imports).
   */
  uploadDir: string;
  /**
   * Also serve the app over HTTPS, as `api.resend.com`, with a certificate
   * signed by a local CA's name-constrained intermediate (src/tls/; `--tls`). Default off.
   */
  tls?: boolean;
  /** Port of the HTTPS listener when `tls` is on (default `DEFAULT_HTTPS_PORT`; 0 a free one). */
  httpsPort: number;
  /** Folder of the local CA (`ca.pem`, `intermediate.pem`, `intermediate-key.pem`); default: beside the `--db` file, or the user's cache folder. */
  tlsDir?: string;
}

/**
 * What changes while an emulator runs, apart from its store and clock
 * (`ctx.runtime`; `ctx.config` never changes). Each field is written in one
 * place, named here with its rule.
 */
export interface RuntimeState {
  /**
   * Base of the absolute URLs the emulator hands out (attachment
   * `download_url`s, raw and unsubscribe links, share URLs), no trailing
   * slash: `config.publicUrl` when given (set by `prepare`, never changed);
   * else the listening URL, set by `run` once its listener is bound
   * (src/server.ts); else (an app with no listener of its own, `createApp()`,
   * or one mounted in a user's express app under a prefix) the origin and
   * mount path of the latest authenticated request, `http://HOST/prefix`
   * (`followRequestBase`, src/app.ts). `''` until one of these is known.
   */
  baseUrl: string;
  /** True while the emulator's own HTTP listener serves the app (set by `run` once bound, false again when it closes, src/server.ts); always false for `createApp()`. */
  listening: boolean;
}

/** The caller, from the API key (see `src/http/auth.ts`). */
export interface Auth {
  teamId: string;
  apiKeyId: string;
  permission: 'full_access' | 'sending_access';
  /** Domain a `sending_access` key is restricted to, or null. */
  domainId: string | null;
}

/** A key found by `KeyStore.find`: the caller, and when the key was last used (emulated ms). */
export type FoundKey = Auth & { lastUsedAt: number | null };

/**
 * The API keys as the request pipeline and the SMTP relay see them: the
 * `api_keys` table belongs to the api-keys resource
 * (src/resources/api-keys/service.ts implements this), so src/http/ reaches
 * it through the context and never imports a resource.
 */
export interface KeyStore {
  /**
   * The key of a token, or null when no key of any team has it (either
   * permission: the caller checks it). Writes nothing.
   */
  find(ctx: Emulator, token: string): FoundKey | null;
  /** Records the use of an accepted key (`last_used_at`, at most once a second); returns the caller. */
  markUsed(ctx: Emulator, key: FoundKey): Auth;
}

/** A webhook endpoint as a delivery attempt reads it (afresh each attempt): where to POST, the secrets to sign with, whether it is enabled. */
export interface WebhookEndpoint {
  id: string;
  endpoint: string;
  signing_secret: string;
  /** The secret replaced by the last rotation; still signs until `previous_secret_expires_at` (emulated ms). */
  previous_signing_secret: string | null;
  previous_secret_expires_at: number | null;
  /** `enabled` | `disabled`. */
  status: string;
}

/**
 * The webhook endpoints as the deliveries (src/deliveries/) see them: the
 * `webhooks` table belongs to the webhooks resource
 * (src/resources/webhooks/service.ts implements this), so the deliveries
 * reach it through the context, as src/http/ reaches the API keys, and
 * import no resource.
 */
export interface WebhookDirectory {
  /** The endpoint with this id (any team), or undefined when it was deleted. */
  find(ctx: Emulator, id: string): WebhookEndpoint | undefined;
  /** Ids of the team's enabled endpoints subscribed to event `type`, oldest first (who gets an event). */
  subscribed(ctx: Emulator, teamId: string, type: string): string[];
}

/** A stored received email as the inboxes file it: its id, subject, Message-ID (with angle brackets) and headers (lower-case name → value; `in-reply-to` and `references` are read). */
export interface ReceivedForInbox {
  id: string;
  subject: string | null;
  messageId: string | null;
  headers: Record<string, string>;
}

/**
 * The inboxes as the receiving resource sees them: the inboxes resource
 * (src/resources/inboxes/service.ts implements this) reads received emails
 * through the receiving resource's service, so receiving reaches the
 * inboxes through the context (as src/http/ reaches the API keys) and the
 * two rooms import each other in no circle.
 */
export interface InboxRouter {
  /** The team of the inbox whose `receiving_address` is `address` (case-insensitive; forwarded mail), or null. */
  forwardingTeamOf(ctx: Emulator, address: string): string | null;
  /**
   * Files a received email, just stored for `teamId`, in every inbox of the
   * team that one of `receivedFor` addresses (threads, `inbox.*` events).
   * Call inside the transaction that stores it. Returns the inbox ids.
   */
  fileReceived(ctx: Emulator, teamId: string, receivedFor: string[], email: ReceivedForInbox): string[];
}

/** One emulator: what every handler, job and step gets as `ctx`: its store, clock, scheduler, configuration, runtime state, bus and fault rules, and the `Ports` between rooms. */
export interface Emulator extends Ports {
  db: DB;
  clock: Clock;
  scheduler: Scheduler;
  /** What the emulator was started with, frozen (`Object.freeze`): reading it is always safe, writing it throws. */
  config: Readonly<EmulatorConfig>;
  /** What changes while it runs (the base of handed-out URLs, whether it listens); see `RuntimeState` for who sets each field. */
  runtime: RuntimeState;
  /**
   * In-process notifications (src/bus.ts: `BusEvents` lists every event and
   * its payload), each emitted after the transaction of its change commits;
   * for the inbox page's server-sent events, `waitForEmail` and caches.
   */
  bus: EventBus;
  /** The fault rules (src/faults/store.ts): `POST /_emulator/faults`, `emu.faults`, `--faults`. */
  faults: Faults;
  log: (level: 'error' | 'warn' | 'info' | 'debug', msg: string) => void;
  /** Every module, in seeding order (`src/modules.ts`): reset seeds the fixtures through them. */
  readonly modules: readonly SeededModule[];
}

/**
 * What one room serves another through the context, where importing it
 * would close a circle of imports: each is implemented by a resource's
 * `service.ts` and given once, with the module list, by the composition
 * root (`ports` in src/modules.ts), when `prepare` (src/server.ts) builds
 * the context; nothing sets them afterwards (`readonly`).
 */
export interface Ports {
  /** The API keys, for authentication (src/resources/api-keys/service.ts). */
  readonly keys: KeyStore;
  /** The webhook endpoints, for the deliveries (src/resources/webhooks/service.ts). */
  readonly webhooks: WebhookDirectory;
  /** The inboxes, for the receiving resource (src/resources/inboxes/service.ts). */
  readonly inboxes: InboxRouter;
}

/**
 * A module as the context lists it: its name and how it seeds fixtures.
 * Every entry is a whole `ResourceModule` (src/module.ts), which extends
 * this; the context names only the part reset needs, because the contract
 * is typed by the context (so neither file imports the other in a circle).
 */
export interface SeededModule {
  name: string;
  /**
   * The tables this module owns, each declared once (`defineTable`,
   * src/store/table.ts): a new store is every module's tables, in module
   * order (src/store/db.ts `migrate`).
   */
  tables?: readonly AnyTable[];
  /**
   * The steps that bring a store (or a snapshot) of an earlier schema
   * version since the 1.0 baseline to the declared tables
   * (src/store/schema.ts); empty at the baseline.
   */
  migrations?: readonly Migration[];
  /**
   * Tables of this module that 0.x stores had and the 1.0 baseline
   * dropped: a 0.x snapshot listing one without rows imports (an export
   * lists every table); one with rows is refused (src/state/snapshot.ts).
   */
  droppedAtBaseline?: readonly string[];
  /**
   * Inserts this module's part of the fixtures (`fixtures[name]`), inside
   * the reset transaction. Must be synchronous.
   */
  seed?: (ctx: Emulator, fixtures: Record<string, any>, db: DB) => void;
  /**
   * Called when reset (src/state/reset.ts) or a snapshot import
   * (src/state/snapshot.ts) has emptied every table, inside its
   * transaction, before any module seeds or the snapshot's rows go in: to
   * empty what the module keeps beside the rows and does not export (usage:
   * its ledger of counts). Must be synchronous.
   */
  cleared?: (ctx: Emulator) => void;
  /**
   * Called after a snapshot's rows are stored (src/state/snapshot.ts),
   * inside the import's transaction, in module order: to rebuild what the
   * module keeps beside its rows and does not export (emails and receiving:
   * they record the imported sends and received emails in the usage
   * ledger). Must be synchronous.
   */
  imported?: (ctx: Emulator) => void;
  /**
   * Stored uploads (paths, src/http/uploads.ts) that this module's rows still
   * need, e.g. the CSVs of imports not yet run. Reset, a snapshot import and
   * the close of an in-memory store delete those no row needs any more
   * (src/state/uploads.ts).
   */
  uploads?: (ctx: Emulator) => string[];
}
