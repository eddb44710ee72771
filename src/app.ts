/**
 * Builds the express 5 application from the operations of `spec/openapi.yaml`
 * and the handlers of the modules in `src/modules.ts`.
 *
 * The app's middlewares, in order: `admitRequest` (the admin guard, and the
 * base of handed-out URLs when the app is mounted or has no listener of its
 * own), `express.json()` (the JSON body), `dispatchOperation` (one
 * find-my-way lookup, then the operation's steps) and `renderApiError`, the
 * error-handling middleware (four arguments) that answers every failure in
 * the service's shape. Every operation runs the same steps, listed in order
 * in `buildApp` below and each described in `src/http/pipeline.ts`: read a
 * raw body, authenticate,
 * rate-limit, inject a fault (`src/faults/step.ts`: public operations of
 * authenticated callers only), store an upload (multipart), validate
 * (parameters, then body), honour an `Idempotency-Key` (operations that
 * declare the header), call the handler, reply
 * (checked against the spec when `config.validateResponses`), log (the
 * `onResponse` hooks); a step that throws ends in the error steps and the
 * error renderer. A path served with another method answers 405; an
 * unknown path 404; malformed JSON or multipart 400; a non-empty body of
 * another Content-Type to a JSON operation 400 (it never passes as `{}`); a
 * body over 50 MB 413; all in the error shape of `src/http/errors.ts`.
 * With env `RESEND_EMULATOR_REFERENCE_SPEC` set (development only), each JSON
 * success is also checked against the real service's document
 * (`src/http/reference-check.ts`).
 */
import type multerType from 'multer';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Emulator } from './context.js';
import { errors } from './http/errors.js';
import { createRateLimit } from './http/rate-limit.js';
import { loadSpec, type Operation } from './http/spec.js';
import { loadReferenceCheck } from './http/reference-check.js';
import { routerOf } from './http/router.js';
import type { OperationHandler, RawRequest, ResourceModule, ResponseInfo } from './module.js';
import {
  JSON_BODY_LIMIT, JSON_MEDIA_TYPES, UPLOAD_LIMIT_BYTES, authenticateCaller, callHandler, discardUpload, hasBody, honourIdempotencyKey, lazyValidators, limitRate,
  logRefusal, logResponse, readRawBody, readUpload, renderError, runCall, runMiddleware, sendReply, validateRequest, writeJson,
  type AppScope, type Call, type ErrorStep, type Middleware, type ReplayHeaders, type Step,
} from './http/pipeline.js';
import { injectFault } from './faults/step.js';
import { UPLOAD_PREFIX } from './http/uploads.js';
import { adminGuard } from './admin/guard.js';
import { lazy, requirePackage } from './lazy.js';
import type { EmulatorApp } from './public-types.js';

export { JSON_BODY_LIMIT, UPLOAD_LIMIT_BYTES } from './http/pipeline.js';

/** One operation as the router holds it: the operation, its raw-body reader, its steps. */
interface Route {
  op: Operation;
  readRaw: Middleware | null;
  steps: readonly Step[];
}

// The express application of one emulator (`mountpath` and the `mount` event are express's own): public, declared in src/public-types.ts.
export type { EmulatorApp };

/**
 * Builds the app (an express 5 application; a node request listener, so
 * `http.createServer(app)`, `parent.use('/prefix', app)` and
 * `supertest(app)` all take it). Throws at start if a module handles an
 * operationId that the document lacks, two modules handle the same one, or
 * an operation of the document has no handler.
 *
 * Handed-out URLs (attachment `download_url`, raw and unsubscribe links,
 * share URLs) start with `ctx.runtime.baseUrl` (`RuntimeState`,
 * src/context.ts): `--public-url` when given; else the listening URL, set by
 * the server; else (an app with no listener of its own, or one mounted under
 * a prefix) the origin and mount path of the latest authenticated request,
 * `http://HOST/prefix`, set here (`followRequestBase`).
 *
 * `recordingProxy`: the middleware of the recording proxy
 * (src/parity/proxy.ts, `config.upstream`), run between the JSON body and
 * the dispatch; without it the app has no such step.
 */
export async function buildApp(
  ctx: Emulator,
  modules: readonly ResourceModule[],
  onResponse: ((info: ResponseInfo) => void)[] = [],
  recordingProxy?: RequestHandler,
): Promise<EmulatorApp> {
  const { operations } = await loadSpec();
  const routes = routesOf(operations, modules);
  // Uploads go to `config.uploadDir`, named UPLOAD_PREFIX + 32 hex digits (src/http/uploads.ts), removed on every path.
  // multer loads with the first upload, so start-up does not pay for it.
  const readFile = lazy(() => {
    const multer = requirePackage<typeof multerType>('multer');
    return multer({
      storage: multer.diskStorage({
        destination: ctx.config.uploadDir,
        filename: (_req, _file, cb) => cb(null, UPLOAD_PREFIX + randomBytes(16).toString('hex')),
      }),
      limits: { fileSize: UPLOAD_LIMIT_BYTES },
    }).single('file') as unknown as Middleware;
  });
  const scope: AppScope = {
    ctx,
    rateLimit: createRateLimit(ctx),
    readFile,
    hooks: onResponse,
    replayHeaders: replayHeadersOf(modules),
    // Development only (env RESEND_EMULATOR_REFERENCE_SPEC): null, and so free, when off.
    referenceCheck: await loadReferenceCheck(),
    // `mounted`: true once the app is mounted in another express app (`parent.use('/prefix', app)`; the `mount` event below).
    mount: { mounted: false },
  };
  const render = renderError(ctx);
  // The admin API's Host / Origin / token checks, before any body is read (src/admin/guard.ts).
  const guardAdmin = adminGuard(ctx);
  // The route table is built once per process, by buildRouteTable (a listening server, right after it starts) or the first request, not at start.
  const router = lazy(() => routerOf(operations));

  const app = express();
  // Answers carry what the service's do: no `X-Powered-By`, no ETag of ours on JSON.
  app.disable('x-powered-by');
  app.disable('etag');
  app.on('mount', markMounted(scope.mount));

  /** Admit: the admin guard (403/401 before any body is read). */
  const admitRequest: RequestHandler = (req, _res, next) => {
    guardAdmin(req, pathOf(normalized(req.url)));
    next();
  };

  /**
   * Dispatch: the operation of the request (one find-my-way lookup: 404
   * unknown path, 405 known path with another method), its raw body, then
   * its steps; a step that throws runs the error steps and passes the
   * error on to `renderApiError`.
   */
  const dispatchOperation = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const url = req.url;
    const target = normalized(url);
    const path = pathOf(target);
    const match = router().find(req.method, path);
    if (!match) throw router().knowsPath(path) ? errors.methodNotAllowed() : errors.routeNotFound();
    const route = routes[match.index];
    if (route.readRaw && hasBody(req)) await runMiddleware(route.readRaw, req, res);
    const call: Call = {
      scope, op: route.op, req: req as RawRequest, res, url, pathParams: match.params, queryString: target.slice(path.length + 1),
      auth: null, params: {}, query: {}, body: undefined, received: undefined,
    };
    await runCall(call, route.steps, ON_ERROR, next);
  };

  /** Render: every failure, from any middleware, in the `{statusCode, message, name}` shape (`renderError`). */
  const renderApiError: ErrorRequestHandler = (err, req, res, _next) => render(err, req, res);

  app.use(admitRequest);
  app.use(express.json({ limit: JSON_BODY_LIMIT, type: JSON_MEDIA_TYPES }));
  // `--upstream`: forward and record (src/parity/proxy.ts); absent otherwise.
  if (recordingProxy) app.use(recordingProxy);
  app.use(dispatchOperation);
  app.use(renderApiError);
  return app;
}

/** A refused call: the request logs hear of it, its upload is deleted (then `renderApiError` answers). */
const ON_ERROR: readonly ErrorStep[] = [logRefusal, discardUpload];

/**
 * Follow the request's base: when the app is mounted or listens on no port
 * of its own (`createApp`), the base of handed-out URLs follows the latest
 * admitted call (its Host and the mount path): set once the caller is
 * authenticated, so a request refused or unrouted, with any Host, changes
 * nothing. The one writer of `ctx.runtime.baseUrl` besides the server's
 * listener (RuntimeState).
 */
const followRequestBase: Step = ({ req, scope: { ctx, mount } }) => {
  if ((mount.mounted || !ctx.runtime.listening) && !ctx.config.publicUrl && req.headers.host) {
    // The app's requests are express's (`protocol` honours `trust proxy`).
    ctx.runtime.baseUrl = `${(req as unknown as Request).protocol}://${req.headers.host}${req.baseUrl ?? ''}`;
  }
};

/** The route tables made, by the module list they serve (the composition root's in every emulator of a process): one table per process. */
const routeTables = new WeakMap<readonly ResourceModule[], readonly Route[]>();

/**
 * The routes of `operations` (in their order, the router's indexes) served
 * by `modules`: each operation's steps, made once per module list and shared
 * by every app of the process (a step reads its app's part from
 * `call.scope`). Throws if a module handles an operationId that the document
 * lacks, two modules handle the same one, or an operation of the document
 * has no handler.
 */
function routesOf(operations: readonly Operation[], modules: readonly ResourceModule[]): readonly Route[] {
  const made = routeTables.get(modules);
  if (made) return made;
  const handlers = new Map<string, OperationHandler>();
  for (const mod of modules) {
    // Each map was checked per operation where it was written (`OperationMap`); the router takes any handler.
    for (const [id, h] of Object.entries(mod.operations ?? {}) as [string, OperationHandler][]) {
      if (handlers.has(id)) throw new Error(`operation ${id} handled twice (module ${mod.name})`);
      if (!operations.some((o) => o.operationId === id)) throw new Error(`module ${mod.name} handles ${id}, which spec/openapi.yaml lacks`);
      handlers.set(id, h);
    }
  }
  const unhandled = operations.filter((o) => !handlers.has(o.operationId)).map((o) => o.operationId);
  if (unhandled.length) throw new Error(`spec/openapi.yaml operations without a handler: ${unhandled.join(', ')}`);
  const routes = operations.map((op): Route => {
    const validators = lazyValidators(op);
    const steps: Step[] = [
      authenticateCaller,
      followRequestBase,
      limitRate,
      // Steps between authentication and validation see `call.auth`, not yet a validated request.
      injectFault,
      // A multipart body is stored only once the caller is admitted: a refused request never writes a file.
      ...(op.body?.mediaType === 'multipart/form-data' ? [readUpload] : []),
      validateRequest(validators),
      // Operations that declare the `Idempotency-Key` header (spec/paths/*.yaml): a repeated key answers the recorded reply.
      ...(op.idempotent ? [honourIdempotencyKey] : []),
      callHandler(handlers.get(op.operationId)!),
      sendReply(validators),
      logResponse,
    ];
    return { op, readRaw: readRawBody(op), steps };
  });
  routeTables.set(modules, routes);
  return routes;
}

/** The modules' `replayHeaders` (headers of now for an idempotent replay), by operationId. */
function replayHeadersOf(modules: readonly ResourceModule[]): ReplayHeaders {
  const replayHeaders = new Map<string, NonNullable<ResourceModule['replayHeaders']>[string]>();
  for (const mod of modules) for (const [id, h] of Object.entries(mod.replayHeaders ?? {})) replayHeaders.set(id, h);
  return replayHeaders;
}

/**
 * A `mount` listener that sets `flag.mounted`. Made outside `buildApp`, so
 * that it holds the flag only: a closure made there would hold `buildApp`'s
 * whole scope (the emulator), which an app kept by a user's server after
 * `close()` must not (`closeApp`).
 */
function markMounted(flag: { mounted: boolean }): () => void {
  return () => {
    flag.mounted = true;
  };
}

/**
 * Empties the app of a closed emulator (its `close()`, src/server.ts), so
 * that a user's server or parent app that still holds `app`
 * (`http.createServer(app)`, `parent.use('/resend', app)`, supertest) keeps
 * a function of a few hundred bytes and nothing of the emulator: its
 * middlewares, router, settings, prototypes and listeners (everything the
 * store, the clock and the routes were reached by) are let go. Node keeps
 * a closed server, and so its request listener, until its handle's close
 * callback, which a process starting and closing emulators without
 * returning to the event loop in between (a test suite's hooks) does not
 * reach. From then on the app answers every request 503
 * `service_unavailable` (`errors.emulatorClosed`) and is no longer an
 * express app to configure (`use`, `set`, `listen` are gone). A request
 * already in its middlewares finishes on them.
 */
export function closeApp(app: EmulatorApp): void {
  // express's app is `(req, res, next) => app.handle(req, res, next)` with express's methods and state copied onto it.
  const target = app as unknown as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(app)) {
    if (key !== 'handle' && Object.getOwnPropertyDescriptor(app, key)?.configurable) delete target[key];
  }
  target.handle = answerClosed;
}

/** The request handler of a closed emulator: 503 `service_unavailable` (`errors.emulatorClosed`); a closed app's (`closeApp`) and a cut listener's (src/server.ts). */
export function answerClosed(req: IncomingMessage, res: ServerResponse): void {
  writeJson(req, res, 503, {}, errors.emulatorClosed().toJSON());
}

/**
 * Builds the process's route table now (once per process; later calls cost
 * nothing). A listening server calls it right after it starts listening, so
 * that the table is built while its first client connects, not by that
 * client's first request, which would wait for find-my-way to compile it
 * (docs/benchmarks.md#figures-behind-the-code).
 */
export async function buildRouteTable(): Promise<void> {
  routerOf((await loadSpec()).operations);
}

/** The SDK joins baseUrl and path without clean-up (docs/reference/transport.md#base-url-and-keys): `//emails` is `/emails`. */
function normalized(url: string): string {
  return url.charCodeAt(1) === 47 /* / */ && url.charCodeAt(0) === 47 ? url.replace(/^\/+/, '/') : url;
}

/** The path of a request target, without its query string. */
function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}
