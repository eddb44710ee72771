/**
 * Creating and running an emulator: store, clock, scheduler, app, listener.
 * Used by `startServer()` (src/index.ts) and the CLI (src/cli.ts).
 */
import http from 'node:http';
import express from 'express';
import { errors } from './http/errors.js';
import { writeJson } from './http/pipeline.js';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Clock } from './clock/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { registerJobs } from './clock/jobs.js';
import { DEFAULT_HTTPS_PORT, type Emulator, type EmulatorConfig, type RuntimeState, type ServerTimeouts } from './context.js';
import { EventBus, listenerErrorText } from './bus.js';
import { hasTeams } from './state/teams.js';
import { applyDefaultKeyToken } from './resources/api-keys/service.js';
import { answerClosed, buildApp, buildRouteTable, closeApp, type EmulatorApp } from './app.js';
import type { ResponseInfo } from './module.js';
import { migrate, openDatabase } from './store/db.js';
import { reportCallbackErrors } from './store/after-commit.js';
import { defaultFixturesPath, loadFixtures } from './state/fixtures.js';
import { resetState } from './state/reset.js';
import { referencedUploads } from './state/uploads.js';
import { removeUploads } from './http/uploads.js';
import { modules, ports } from './modules.js';
import type { SmtpListener } from './smtp/server.js';
import type { TlsListener } from './tls/index.js';
import type { RecordingProxy } from './parity/proxy.js';
import { createFaultStore } from './faults/store.js';
import { listen } from './listen.js';

const LEVELS = ['error', 'warn', 'info', 'debug'];

/**
 * Listener timeouts (slow clients cannot hold connections): headers within 10 s,
 * checked every 5 s (so a client dribbling its headers is cut off within
 * 15 s), the whole request within 5 min (a 200 MB import upload over a slow
 * link still fits), idle keep-alive connections closed after 5 s, an SMTP
 * connection silent for 60 s closed.
 */
export const DEFAULT_TIMEOUTS: Readonly<ServerTimeouts> = Object.freeze({
  headersMs: 10_000,
  requestMs: 300_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 5_000,
  smtpSocketMs: 60_000,
});

/** Configuration defaults (docs/reference/design.md#cli). */
export function defaultConfig(overrides: Partial<EmulatorConfig> = {}): EmulatorConfig {
  return {
    db: ':memory:',
    clock: 'real',
    webhooks: 'send',
    fixtures: defaultFixturesPath(),
    logLevel: 'info',
    validateResponses: false,
    webhookTimeoutMs: 10_000,
    rateLimit: 0,
    uploadDir: os.tmpdir(),
    timeouts: DEFAULT_TIMEOUTS,
    httpsPort: DEFAULT_HTTPS_PORT,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
}

/**
 * The configuration as `ctx.config` holds it: a copy of `config`, frozen
 * with its `timeouts`, its `faults` list and its `upstream` (`Object.freeze`; a write
 * throws in strict mode), so nothing the caller does to its object later,
 * and nothing the emulator does while it runs, changes it. What changes at
 * run time is `ctx.runtime` (src/context.ts `RuntimeState`).
 */
export function frozenConfig(config: EmulatorConfig): Readonly<EmulatorConfig> {
  return Object.freeze({
    ...config,
    timeouts: Object.freeze({ ...config.timeouts }),
    ...(config.faults ? { faults: Object.freeze([...config.faults]) } : {}),
    ...(config.upstream ? { upstream: Object.freeze({ ...config.upstream }) } : {}),
  });
}

/**
 * An emulator with its app and no listener (what `createApp()` gives): the
 * store open and migrated, fixtures seeded, the scheduler running.
 */
export interface Prepared {
  ctx: Emulator;
  /** The express application (src/app.ts). */
  app: EmulatorApp;
  /** The default team's full-access token. */
  apiKey: string;
  fixtures: Record<string, any>;
  reset(): void;
  /** Stops the scheduler and closes the store (WAL checkpoint for a file). Idempotent. */
  close(): Promise<void>;
}

/** A running emulator: the app served on its own HTTP listener (and the SMTP relay). */
export interface Running extends Prepared {
  server: http.Server;
  url: string;
  /** Port of the SMTP relay (src/smtp/), or null when it is off. */
  smtpPort: number | null;
  /** `smtp://HOST:PORT` of the SMTP relay, or null when it is off. */
  smtpUrl: string | null;
  /** `https://HOST:PORT` of the HTTPS listener (`config.tls`), or null when it is off. */
  httpsUrl: string | null;
  /** Path of the local root CA certificate (`config.tls`): what a client trusts; its intermediate signs the HTTPS one. Or null. */
  caCertPath: string | null;
}

/** A listener that could not bind: the bind error, with the listener it came from. */
export type ListenFailure = NodeJS.ErrnoException & { listener?: 'http' | 'smtp' | 'https' };

/**
 * Opens the store (migrating it, seeding fixtures if it has no team), builds
 * the app and starts the scheduler; listens on nothing. `ctx.config` is a
 * frozen copy of `options` (`frozenConfig`). Throws if the
 * fixtures cannot be read or do not fit the store (then the store is closed).
 */
export async function prepare(options: EmulatorConfig): Promise<Prepared> {
  const config = frozenConfig(options);
  const schema = { tables: modules.flatMap((m) => m.tables ?? []), migrations: modules.flatMap((m) => m.migrations ?? []) };
  const db = openDatabase(config.db);
  const clock = new Clock(config.clock);
  // The base of handed-out URLs: `--public-url` now and for good; otherwise set by `run` once it listens, or by the requests of an app with no listener of its own (RuntimeState).
  const runtime: RuntimeState = { baseUrl: (config.publicUrl ?? '').replace(/\/+$/, ''), listening: false };
  const threshold = LEVELS.indexOf(config.logLevel);
  const log: Emulator['log'] = (level, msg) => {
    if (LEVELS.indexOf(level) <= threshold) process.stderr.write(`[resend-emulator] ${level}: ${msg}\n`);
  };
  // A committed write answers as committed: what a listener (or another after-commit callback) throws is logged, never thrown to the writer.
  const bus = new EventBus(db, (event, args, err) => log('error', listenerErrorText(event, args, err)));
  reportCallbackErrors(db, (err) => log('error', `a callback after a commit failed: ${(err as Error)?.stack ?? err}`));
  const scheduler = new Scheduler(db, clock, (m) => log('warn', m), (nowMs) => bus.emit('clock', nowMs));
  // The one place a context is composed: infrastructure made here, modules and ports from the composition root (src/modules.ts).
  const base = { db, clock, scheduler, config, runtime, bus, log, modules, ...ports };
  // Any failure from here to a prepared store closes the file (a locked --db stays usable by a retry).
  let ctx: Emulator;
  let fixtures: Record<string, any>;
  try {
    fixtures = loadFixtures(config.fixtures);
    ctx = { ...base, faults: await createFaultStore(base, config.faults ?? []) };
    // A new store gets the declared tables; a file of an earlier version since 1.0 its migrations (src/store/schema.ts).
    migrate(db, schema);
    registerJobs(ctx, modules.flatMap((m) => m.jobs ?? []));
    // Jobs a stopped process left running run again (crash safety: a stop in the middle repeats nothing and loses nothing).
    const recovered = scheduler.recover();
    if (recovered) log('info', `${recovered} job${recovered === 1 ? '' : 's'} interrupted by the last stop will run again`);
    // The start rules (`--faults`) go in once the store has its teams (the reset puts them back each time).
    if (!hasTeams(db)) {
      try {
        // A new in-memory store has nothing to delete first.
        resetState(ctx, fixtures, { strictFaults: true, empty: config.db === ':memory:' });
      } catch (err) {
        if ((err as { code?: string }).code === 'EFAULTRULE') throw err;
        throw new Error(`fixtures ${config.fixtures} do not fit the store: ${(err as Error).message}`);
      }
    } else {
      if (config.apiKey && !applyDefaultKeyToken(ctx, fixtures, config.apiKey)) {
        log('warn', `--api-key: the store has no default team key to give that token to`);
      }
      ctx.faults.restore();
    }
  } catch (err) {
    db.close();
    throw err;
  }
  const reset = () => resetState(ctx, fixtures);
  scheduler.restoreClock();
  const hooks: ((info: ResponseInfo) => void)[] = [];
  for (const m of modules) if (m.onResponse) hooks.push((info) => m.onResponse!(ctx, info));
  let app: EmulatorApp;
  let proxy: RecordingProxy | null = null;
  try {
    // The recording proxy of `--upstream` (src/parity/proxy.ts), loaded only then; it reports at close.
    if (config.upstream) proxy = (await import('./parity/proxy.js')).createRecordingProxy(ctx, config.upstream);
    app = await buildApp(ctx, modules, hooks, proxy?.middleware);
  } catch (err) {
    db.close();
    throw err;
  }
  scheduler.start();
  const apiKey = config.apiKey ?? (fixtures.api_keys ?? []).find((k: any) => k.default)?.token;
  let closed = false;
  return {
    ctx,
    app,
    apiKey,
    fixtures,
    reset,
    async close() {
      if (closed) return;
      closed = true;
      // `--upstream`: the calls still being forwarded end, the differences are printed, the HAR written.
      await proxy?.finish();
      // A request or SMTP stage waiting out a fault rule's latency ends now (503), not on a closed store later.
      ctx.faults.close();
      await scheduler.stop();
      bus.emit('close');
      // An in-memory store's queued imports end with it: their uploads go too (a file store resumes them).
      if (config.db === ':memory:') removeUploads(referencedUploads(ctx));
      // On a full disk the checkpoint may fail: the WAL stays beside the file and the next open replays it.
      if (config.db !== ':memory:') try { db.exec('PRAGMA wal_checkpoint(TRUNCATE)'); } catch { /* see above */ }
      db.close();
      // A server of the user's that holds the app keeps nothing of this emulator (closeApp).
      closeApp(app);
    },
  };
}

/**
 * A `--mount-path` as the listener uses it: `''` for none (or `/`), else
 * one leading slash and no trailing one (`resend/` → `/resend`).
 */
function normalizeMountPath(mountPath: string | undefined): string {
  const trimmed = (mountPath ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

/**
 * An express parent serving `app` under `mountPath` (as a user's own server
 * would: `parent.use('/resend', app)`); any other path answers 404
 * `not_found` in the service's error shape.
 */
function mountedApp(app: EmulatorApp, mountPath: string): EmulatorApp {
  const parent = express();
  parent.disable('x-powered-by');
  parent.disable('etag');
  parent.use(mountPath, app);
  parent.use((req: express.Request, res: express.Response) => writeJson(req, res, 404, {}, errors.routeNotFound().toJSON()));
  return parent;
}

/**
 * Request and response classes for the listener of `app`, whose instances
 * are born with the app's own prototypes, and the app's `request` /
 * `response` prototypes made those classes' (same methods, same `app`).
 *
 * express gives every request and response its app's prototypes with
 * `Object.setPrototypeOf` when it starts handling them. On node's objects,
 * which already hold their own properties, that change of prototype makes
 * every later property access on them, in node's HTTP code and in ours,
 * slow: by CPU profiles of `POST /emails`, close to half of a request's
 * time (docs/benchmarks.md#figures-behind-the-code). Born with those
 * prototypes, express's call finds the prototype already set and changes
 * nothing. A class that extends node's own is what the `IncomingMessage` /
 * `ServerResponse` options of `http.createServer` (and
 * `https.createServer`) are for. Only the emulator's own listeners (HTTP,
 * and HTTPS with `--tls`); an app mounted in a user's server keeps the
 * usual objects. Called once per app: a second call would leave the first
 * listener's classes off the app's prototypes. With `--mount-path` the
 * listener is the parent of `mountedApp`: the mounted app still swaps to its
 * own prototypes on every request, so there it saves nothing (serving the
 * prefix without a parent app would).
 *
 * `release()` (once the listeners are closed) gives the app its own
 * prototypes back and leaves the classes node's: a closed listener keeps its
 * classes (node holds a closed server until its handle's close callback, which
 * a process that never returns to the event loop between emulators does not
 * reach), and they must not reach the app.
 */
function bornWithAppPrototypes(app: EmulatorApp): { options: Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>; release(): void } {
  const classes = messageClasses();
  const { AppRequest, AppResponse } = classes;
  const appRequest = Object.getPrototypeOf(app.request) as object;
  const appResponse = Object.getPrototypeOf(app.response) as object;
  // The app's prototypes as express made them: express's request / response methods, then node's.
  Object.setPrototypeOf(AppRequest.prototype, appRequest);
  Object.setPrototypeOf(AppResponse.prototype, appResponse);
  Object.defineProperty(AppRequest.prototype, 'app', { configurable: true, enumerable: true, writable: true, value: app });
  Object.defineProperty(AppResponse.prototype, 'app', { configurable: true, enumerable: true, writable: true, value: app });
  const original = { request: app.request, response: app.response };
  app.request = AppRequest.prototype as unknown as typeof app.request;
  app.response = AppResponse.prototype as unknown as typeof app.response;
  let released = false;
  return {
    options: { IncomingMessage: AppRequest as typeof http.IncomingMessage, ServerResponse: AppResponse as unknown as typeof http.ServerResponse },
    release() {
      if (released) return;
      released = true;
      app.request = original.request;
      app.response = original.response;
      for (const [proto, base] of [[AppRequest.prototype, http.IncomingMessage.prototype], [AppResponse.prototype, http.ServerResponse.prototype]] as const) {
        delete (proto as { app?: unknown }).app;
        Object.setPrototypeOf(proto, base);
      }
      releasedClasses.push(classes);
    },
  };
}

/** A pair of classes of `messageClasses`. */
type MessageClasses = ReturnType<typeof newMessageClasses>;

/** Classes released by closed listeners (`bornWithAppPrototypes`), given to the next listener. */
const releasedClasses: MessageClasses[] = [];

/**
 * Request and response classes for `bornWithAppPrototypes`: a released
 * pair when there is one, else new ones. A closed server keeps its classes
 * (node holds it a while: `switchableListener`), and a pair per emulator
 * would be ~1.5 KB each of them keeps; a released pair, cut from its app,
 * serves the next listener (a closed server makes no more requests).
 */
function messageClasses(): MessageClasses {
  return releasedClasses.pop() ?? newMessageClasses();
}

/** New classes; in a function of their own, since a class keeps the scope it is made in (one made in `bornWithAppPrototypes` would keep its `app`). */
function newMessageClasses() {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse extends http.ServerResponse {}
  return { AppRequest, AppResponse };
}

/**
 * A request listener that passes each request to `target` until `cut()`,
 * then answers 503 `service_unavailable` (`errors.emulatorClosed`). The
 * emulator's listeners are given this one, not the app: node keeps a closed
 * server (and so its request listener) until its handle's close callback,
 * and a process that starts and closes emulators without returning to the
 * event loop in between (a test suite's hooks) keeps every one of them; cut,
 * each holds nothing of its emulator. Made here, outside `run`, so that it
 * holds `target` only (a closure made in `run` would hold `run`'s whole scope).
 */
function switchableListener(target: http.RequestListener): { listener: http.RequestListener; cut(): void } {
  let to: http.RequestListener | null = target;
  return {
    listener: (req, res) => {
      if (to) return to(req, res);
      answerClosed(req, res);
    },
    cut() {
      to = null;
    },
  };
}

/** Whether `buildRouteTableSoon` ran in this process (the table is built once per process). */
let routeTableScheduled = false;

/**
 * Builds the process's route table on the next turn of the event loop, the
 * first time only: a function outside `run`, so the pending immediate
 * holds no emulator (a closure made in `run` would hold its whole scope).
 */
function buildRouteTableSoon(): void {
  if (routeTableScheduled) return;
  routeTableScheduled = true;
  setImmediate(buildRouteTableNow);
}

/** See `buildRouteTableSoon`. */
function buildRouteTableNow(): void {
  void buildRouteTable();
}

/**
 * `prepare`s an emulator and serves its app on `host:port` (`port` 0 picks
 * a free one), and the SMTP relay on `host:smtpPort` unless `smtpPort` is
 * null (0: a free one). Throws as `prepare` does, or if a port cannot be
 * bound (then the error's `listener` says which: `http` or `smtp`, and
 * nothing stays open).
 */
export async function run(options: EmulatorConfig, host = '127.0.0.1', port = 4400, smtpPort: number | null = null): Promise<Running> {
  const prepared = await prepare({ ...options, bindHost: host });
  const { ctx, app } = prepared;
  const { config, runtime } = ctx;
  const t = config.timeouts;
  const mountPath = normalizeMountPath(config.mountPath);
  const listener = mountPath ? mountedApp(app, mountPath) : app;
  // The HTTPS listener of `--tls` takes the same options (timeouts, and requests born with the app's prototypes).
  const prototypes = bornWithAppPrototypes(listener);
  const serverOptions: http.ServerOptions = {
    headersTimeout: t.headersMs, requestTimeout: t.requestMs, keepAliveTimeout: t.keepAliveMs, connectionsCheckingInterval: t.checkIntervalMs,
    ...prototypes.options,
  };
  // What the closed listeners keep of the emulator is cut on close (switchableListener).
  const route = switchableListener(listener);
  const server = http.createServer(serverOptions, route.listener);
  /** Once the listeners are closed: they keep nothing of this emulator. */
  const release = () => {
    route.cut();
    prototypes.release();
  };
  try {
    await listen(server, port, host);
  } catch (err) {
    release();
    await prepared.close();
    throw Object.assign(err as ListenFailure, { listener: 'http' });
  }
  let tls: TlsListener | null = null;
  if (config.tls) {
    try {
      // Loaded only with TLS on (the certificate libraries are not needed otherwise).
      const { startTls } = await import('./tls/index.js');
      tls = await startTls(route.listener, host, config, serverOptions, (line) => ctx.log('warn', line));
    } catch (err) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      release();
      await prepared.close();
      throw Object.assign(err as ListenFailure, { listener: 'https' });
    }
  }
  let smtp: SmtpListener | null = null;
  if (smtpPort !== null) {
    try {
      // Loaded only when SMTP is on (smtp-server and the MIME parser are not needed otherwise; start-up speed).
      const { startSmtp } = await import('./smtp/server.js');
      smtp = await startSmtp(ctx, host, smtpPort, tls?.certificate);
    } catch (err) {
      await tls?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      release();
      await prepared.close();
      throw Object.assign(err as ListenFailure, { listener: 'smtp' });
    }
  }
  const addr = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${addr.port}${mountPath}`;
  const smtpUrl = smtp ? `smtp://${shownHost}:${smtp.port}` : null;
  const httpsUrl = tls ? `https://${shownHost}:${tls.port}${mountPath}` : null;
  // Listening: handed-out URLs start with the listening URL (mount path included), unless `--public-url` set them for good (RuntimeState).
  if (!config.publicUrl) runtime.baseUrl = url.replace(/\/+$/, '');
  runtime.listening = true;
  // Requests are coming: the route table is built next, while the first client connects (see buildRouteTable).
  buildRouteTableSoon();
  let closed = false;
  return {
    ...prepared,
    server,
    url,
    smtpPort: smtp?.port ?? null,
    smtpUrl,
    httpsUrl,
    caCertPath: tls?.caCertPath ?? null,
    async close() {
      if (closed) return;
      closed = true;
      // Fault latency ends first (503 at once), then the listeners, then the store.
      ctx.faults.close();
      await smtp?.close();
      await tls?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      runtime.listening = false;
      release();
      await prepared.close();
    },
  };
}
