/**
 * The emulator's shared state, handed to every handler and job:
 * store, clock, scheduler, configuration and an in-process event bus.
 */
import { EventEmitter } from 'node:events';
import type { DB } from './store/db.js';
import type { Clock, ClockMode } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';

/**
 * How long the listeners wait for a slow or silent client (ms; issue 13,
 * "Server timeouts"). Defaults: `DEFAULT_TIMEOUTS` in src/server.ts.
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

/** Server configuration (DESIGN.md CLI flags and `startServer()` options). */
export interface EmulatorConfig {
  /** `:memory:` or a file path. */
  db: string;
  clock: ClockMode;
  /** `send`: POST deliveries to endpoints; `record`: only record them. */
  webhooks: 'send' | 'record';
  /** Path of the fixtures JSON (default `fixtures/default.json`). */
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
  /**
   * The URL other services reach the emulator at, used in the absolute URLs
   * it hands out (attachment `download_url`s, unsubscribe links, share URLs),
   * e.g. `http://resend:4400` in docker compose. Default: the listening URL.
   */
  publicUrl?: string;
  /** Base of the absolute URLs the emulator hands out: `publicUrl`, else the listening URL. */
  baseUrl: string;
  /**
   * When set, every `/_emulator` route but health (and the links handed out
   * to others) needs `Authorization: Bearer <adminToken>` or the inbox
   * page's cookie (src/admin/guard.ts; `--admin-token`).
   */
  adminToken?: string;
  /** Listener timeouts (internal; default `DEFAULT_TIMEOUTS`). */
  timeouts: ServerTimeouts;
  /** The address the HTTP server is bound to (`--host`), set when it listens; the admin API answers to it as a Host (src/admin/guard.ts). */
  bindHost?: string;
  /**
   * Where multipart uploads (contact import CSVs) are stored until their
   * import ends (default: the OS temp folder, read when the config is made;
   * kept across restarts so a `--db` store resumes its queued imports).
   */
  uploadDir: string;
}

/**
 * Notifications on `bus` (for the inbox page's server-sent events and
 * `waitForEmail`): `'email'` (email id), `'delivery'` (delivery id),
 * `'clock'` (now ms), `'reset'`.
 */
export interface Emulator {
  db: DB;
  clock: Clock;
  scheduler: Scheduler;
  config: EmulatorConfig;
  bus: EventEmitter;
  log: (level: 'error' | 'warn' | 'info' | 'debug', msg: string) => void;
}
