/**
 * The request pipeline, step by step (Prism's idea of named
 * stages). `src/app.ts` lists the steps of every operation in order:
 *
 * | step | does | fails with |
 * |---|---|---|
 * | `express.json()`, `readRawBody` (before the call, src/app.ts) | JSON (every request with a JSON Content-Type, `JSON_MEDIA_TYPES`); raw body as a Buffer (`express.raw()`) for `text/*`, `message/*` media types | 400 malformed JSON, 413 too large |
 * | `readUpload` (multipart operations) | the upload to a temp file (multer), once the caller is admitted | 400 malformed multipart, 413 too large |
 * | `authenticateCaller` | the API key → `call.auth` (`src/http/auth.ts`) | 401, 403 |
 * | `limitRate` | counts the request per team, sets the rate-limit headers (`src/http/rate-limit.ts`) | 429 |
 * | `validateRequest` | path and query parameters coerced and checked against the spec, the body pruned of keys the document does not declare (`pruneBody`), then checked (`src/http/validate.ts`) | 400, 422 |
 * | `honourIdempotencyKey` (operations that declare the `Idempotency-Key` header) | a key seen before: the recorded answer as `call.result` (the handler is not called); a new key: `call.idempotency`, under which `callHandler` runs (`src/http/idempotency.ts`) | 400 `invalid_idempotency_key`, 409 |
 * | `callHandler` | the operation's handler → `call.result` (with `call.idempotency`: in one transaction with the record of its answer) | the handler's `ApiError` |
 * | `sendReply` | the JSON reply (or a `Reply` with its own type, or nothing for `HANDLED`); with `validateResponses`, the body is checked against the spec first | 500 when the reply drifts from the spec (tests) |
 * | `logResponse` | the `onResponse` hooks (request logs) of an answered call | never |
 *
 * When a step throws, the error steps run (`logRefusal`: the hooks hear of an
 * `ApiError`; `discardUpload`: the temp file goes), then `renderError`
 * answers in the `{statusCode, message, name}` shape.
 *
 * A step is a function of the `Call`: it reads what the earlier steps
 * found and adds its own part; it is synchronous unless it must wait (only
 * synchronous steps' results are not awaited, so a request pays for no extra
 * turn of the event loop).
 */
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import fs from 'node:fs';
import type { Emulator } from '../context.js';
import { HANDLED, JsonText, Reply, type Auth, type OperationHandler, type OpRequest, type RawRequest, type ResponseInfo } from '../module.js';
import { ApiError, errors } from './errors.js';
import { authenticate } from './auth.js';
import type { createRateLimit } from './rate-limit.js';
import { compileOperation, toApiError, type OperationValidators } from './validate.js';
import type { Operation } from './spec.js';
import type { ReferenceCheck } from './reference-check.js';
import { storeFullError } from './store-full.js';
import { fullStore, isStoreFull } from '../store/full.js';
import { idempotencyKeyOf, idempotencyScope, lookUpIdempotencyKey, runUnderKey, type IdempotencyClaim } from './idempotency.js';

/** Largest JSON body accepted (attachments are ≤ 40 MB an email, docs/reference/resources.md#emails). */
export const JSON_BODY_LIMIT = '50mb';
/** Largest multipart upload (docs/reference/interface-spec.md#limits: import file 200MB). */
export const UPLOAD_LIMIT_BYTES = 200 * 1024 * 1024;

/**
 * What a call's steps need of the app that serves it: one per app
 * (`buildApp`, src/app.ts), handed to each of its calls as `call.scope`. The
 * steps themselves belong to the operation and are made once per process,
 * not once per app: an app is a few small objects, so starting and closing
 * emulators all day allocates little and leaves V8 little to promote
 * (docs/benchmarks.md, "Memory over start and close").
 */
export interface AppScope {
  /** The emulator the app serves. */
  readonly ctx: Emulator;
  /** Its rate limiter (`createRateLimit`). */
  readonly rateLimit: ReturnType<typeof createRateLimit>;
  /** The `file` field's reader (multer into `ctx.config.uploadDir`), made on the first upload. */
  readonly readFile: () => Middleware;
  /** The modules' `onResponse` hooks (request logs). */
  readonly hooks: readonly ResponseHook[];
  /** The modules' `replayHeaders`, by operationId. */
  readonly replayHeaders: ReplayHeaders;
  /** The reference check (development only, env RESEND_EMULATOR_REFERENCE_SPEC), or null. */
  readonly referenceCheck: ReferenceCheck | null;
  /** True once the app is mounted in another express app (its `mount` event). */
  readonly mount: { mounted: boolean };
}

/** One API call on its way through the steps: the operation, the node request and response, and what the steps found. */
export interface Call {
  /** The app serving the call: what its steps need of the emulator (`AppScope`). */
  readonly scope: AppScope;
  readonly op: Operation;
  readonly req: RawRequest;
  readonly res: ServerResponse;
  /** The request target as sent (`/emails?limit=2`, `//emails` included): the request log's path. */
  readonly url: string;
  /** Path parameters as routed (decoded, unvalidated; src/http/router.ts). */
  readonly pathParams: Record<string, string>;
  /** The query string without `?` (parsed by `validateRequest`). */
  readonly queryString: string;
  /** The caller, set by `authenticateCaller`; null on operations without security (the admin API) and before. */
  auth: Auth | null;
  /** Path parameters, validated (set by `validateRequest`). */
  params: Record<string, string>;
  /** Query parameters, validated and coerced to their schema types (set by `validateRequest`). */
  query: Record<string, any>;
  /**
   * The request body (set by `validateRequest`, before its schema check, so
   * a refused body is still logged): parsed JSON, a Buffer for a raw media
   * type, multipart fields; undefined for an operation without a body.
   * Keys the document does not declare are dropped from it before the
   * schema check (`pruneBody`, src/http/validate.ts).
   */
  body: unknown;
  /** The body as the client sent it, before `pruneBody` (set by `validateRequest`): what the request log records. */
  received?: unknown;
  /** What the handler returned (set by `callHandler`), or the recorded answer of an idempotent replay (set by `honourIdempotencyKey`). */
  result?: unknown;
  /** The key a call runs under (set by `honourIdempotencyKey` for a key not seen before): `callHandler` records its answer. */
  idempotency?: IdempotencyClaim;
  /** The JSON reply sent (set by `sendReply`; the body may be a `JsonText`); unset for a `HANDLED` stream or a non-JSON `Reply`, which are not logged. */
  sent?: { status: number; body: unknown };
}

/** A step of the pipeline. Throws (an `ApiError`, normally) to refuse the call; the error steps and `renderError` take over. */
export type Step = (call: Call) => void | Promise<void>;

/** A step run when a step has thrown `err`, before the error is rendered. */
export type ErrorStep = (call: Call, err: unknown) => void | Promise<void>;

/** The `onResponse` hooks of the modules (request logs), bound to the emulator. */
export type ResponseHook = (info: ResponseInfo) => void;

/** The operation's validators, compiled on its first request (start-up stays fast; test/docs.test.ts compiles them all). */
export function lazyValidators(op: Operation): () => OperationValidators {
  let compiled: OperationValidators | undefined;
  return () => (compiled ??= compileOperation(op));
}

/** A connect-style middleware (body-parser's, multer's): calls `next` once, with an error or none. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** Runs a connect-style middleware as a promise (rejected with its error). */
export function runMiddleware(mw: Middleware, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => mw(req, res, (err) => (err ? reject(err) : resolve())));
}

/**
 * The media types `express.json()` reads, app-wide before routing (src/app.ts):
 * malformed JSON is 400 and a body over 50 MB 413 on any path. It sets
 * `req.body` (left undefined for other media types).
 */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/**
 * Read raw body: for an operation that declares raw media types (`text/*`,
 * `message/*` beside JSON), a body of those types as a Buffer in
 * `req.body`, unvalidated; null for other operations. Multipart bodies are
 * read by the `readUpload` step instead, after the caller is admitted.
 */
export function readRawBody(op: Operation): Middleware | null {
  const types = op.body?.rawMediaTypes;
  return types ? (express.raw({ type: types, limit: JSON_BODY_LIMIT }) as Middleware) : null;
}

/**
 * Read upload (multipart operations): the `file` field to a temp file
 * (multer). A step after authentication, rate limiting and fault injection,
 * so a refused request never stores its file (a refused or finished upload leaves no file behind); a
 * malformed body (no boundary, truncated) is the client's fault, 400 like
 * malformed JSON; multer's own limits reach `renderError`.
 */
export const readUpload: Step = (call) =>
  new Promise<void>((resolve, reject) =>
    call.scope.readFile()(call.req, call.res, (err?: any) => {
      if (!err) return resolve();
      if (!(err instanceof ApiError) && err.name !== 'MulterError' && !isStoreFull(err)) {
        return reject(errors.validation(`The request body is not valid multipart/form-data: ${err.message}.`, 400));
      }
      reject(err);
    }),
  );

/** Authenticate: the caller of an operation that requires a key (`src/http/auth.ts`: 401 missing, 403 invalid, 401 restricted). */
export const authenticateCaller: Step = (call) => {
  if (call.op.requiresAuth) call.auth = authenticate(call.scope.ctx, call.req.headers.authorization, call.op);
};

/** Rate-limit: an authenticated call counts against its team's limit (429 over it; headers on every answer). */
export const limitRate: Step = (call) => {
  if (call.auth) call.scope.rateLimit(call.auth, call.res);
};

/** Whether the request carries a non-empty body (or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Validate: parameters (path and query, coerced), then the body. A
 * non-empty body of another Content-Type to a JSON operation is 400 (it
 * never passes as `{}`); a JSON body that is not an object is 400; schema
 * failures are 422 (or the node's `x-error`), see `toApiError`.
 */
export function validateRequest(validators: () => OperationValidators): Step {
  return (call) => {
    const { op, req } = call;
    const v = validators();
    // The query as express's "simple" parser read it (node:querystring: a repeated name gives an array).
    const params: Record<string, any> = { ...(call.queryString ? parseQuery(call.queryString) : {}), ...call.pathParams };
    if (v.params && !v.params(params)) throw toApiError(v.params.errors, 'params');
    for (const p of op.parameters) {
      if (p.in === 'path') call.params[p.name] = params[p.name];
      else if (p.in === 'query' && params[p.name] !== undefined) call.query[p.name] = params[p.name];
    }
    if (op.body?.rawMediaTypes && Buffer.isBuffer(req.body)) {
      call.body = req.body;
    } else if (op.body) {
      // A body the JSON reader did not read (another Content-Type) must not pass as `{}`.
      if (op.body.mediaType === 'application/json' && req.body === undefined && hasBody(req)) {
        throw errors.validation(`The request body must be JSON, sent with \`Content-Type: application/json\` (got \`${String(req.headers['content-type'] ?? 'none').split(';')[0]}\`).`, 400);
      }
      call.body = call.received = req.body ?? {};
      if (op.body.mediaType === 'application/json' && (typeof call.body !== 'object' || call.body === null) && !Array.isArray(call.body)) {
        throw errors.validation('The request body must be a JSON object.', 400);
      }
      // Undeclared keys and "not given" values go before anything reads the body (one rule for every operation: `pruneBody`).
      call.body = v.prune(call.body);
      if (v.body && !v.body(call.body)) throw toApiError(v.body.errors, 'body');
    }
  };
}

/** Headers of now for an idempotent replay, by operationId (the modules' `replayHeaders`). */
export type ReplayHeaders = ReadonlyMap<string, (ctx: Emulator, auth: Auth) => Record<string, string>>;

/**
 * Honour the `Idempotency-Key` (src/http/idempotency.ts), for an operation
 * that declares the header (`Operation.idempotent`), after validation and
 * before the call: no header, nothing; a key seen before with the same body
 * within 24 h, the recorded status and body as `call.result` (with the
 * operation's `replayHeaders` of now) and the handler is not called; a new
 * key, `call.idempotency`. One rule for every such operation, scoped to the
 * team, the operationId and the path parameters. Throws 400
 * `invalid_idempotency_key`, 409 `invalid_idempotent_request`. Synchronous,
 * as `callHandler` is under a key: nothing runs between the lookup and the
 * handler's transaction.
 */
export const honourIdempotencyKey: Step = (call) => {
  const key = idempotencyKeyOf(call.req);
  if (key === null || !call.auth) return;
  const { ctx, replayHeaders } = call.scope;
  const pathParams = call.op.parameters.filter((p) => p.in === 'path').map((p) => String(call.params[p.name]));
  const found = lookUpIdempotencyKey(ctx, call.auth.teamId, idempotencyScope(call.op.operationId, pathParams), key, call.body);
  if ('claim' in found) {
    call.idempotency = found.claim;
    return;
  }
  const headers = replayHeaders.get(call.op.operationId)?.(ctx, call.auth);
  call.result = headers ? new Reply(found.replay.status, found.replay.body, headers) : found.replay;
};

/**
 * Call: the operation's handler with the validated request (`OpRequest`);
 * skipped when an earlier step answered (an idempotent replay). Under
 * `call.idempotency`, the handler and the record of its answer are one
 * transaction (`runUnderKey`).
 */
export function callHandler(handler: OperationHandler): Step {
  return (call) => {
    if (call.result !== undefined) return;
    const { req, scope: { ctx } } = call;
    // `Req<op>` promises the handler of an operation that needs a key its caller (src/http/document-types.ts `AuthOf`).
    if (call.op.requiresAuth && !call.auth) throw new Error(`${call.op.operationId} needs a key, yet no step authenticated the caller`);
    const opReq: OpRequest = { operationId: call.op.operationId, params: call.params, query: call.query, body: call.body, auth: call.auth, headers: req.headers, file: req.file, raw: req, response: call.res };
    const claim = call.idempotency;
    const result = claim ? runUnderKey(ctx, claim, call.op.successStatus, () => handler(ctx, opReq)) : handler(ctx, opReq);
    if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
      return Promise.resolve(result).then((r) => void (call.result = r));
    }
    call.result = result;
  };
}

/**
 * Reply: the handler's result as the answer. `HANDLED`: the handler
 * streamed its own response (src/module.ts), nothing is sent. A `Reply` with
 * a content type: sent as it is. Otherwise JSON with the operation's first
 * 2xx status (or the `Reply`'s); with `config.validateResponses` a status or
 * body the spec does not declare throws (a 500 in tests), and with the
 * reference check on (development) the body is also checked against the
 * real service's document.
 */
export function sendReply(validators: () => OperationValidators): Step {
  return (call) => {
    const { op, req, res, result, scope: { ctx, referenceCheck } } = call;
    if (result === HANDLED) return;
    const reply = result instanceof Reply ? result : new Reply(op.successStatus, result);
    if (reply.contentType) {
      writeBody(req, res, reply.status, reply.headers, reply.contentType, reply.body);
      return;
    }
    const value = () => (reply.body instanceof JsonText ? reply.body.value() : reply.body);
    if (ctx.config.validateResponses) {
      const check = validators().response(String(reply.status));
      if (!check) throw new Error(`${op.operationId} answered ${reply.status}, which spec/openapi.yaml does not declare`);
      if (!check(value())) {
        throw new Error(`${op.operationId} ${reply.status} response does not match spec/openapi.yaml: ${JSON.stringify(check.errors?.slice(0, 5))} body=${JSON.stringify(reply.body).slice(0, 500)}`);
      }
    }
    writeJson(req, res, reply.status, reply.headers, reply.body);
    call.sent = { status: reply.status, body: reply.body };
    referenceCheck?.({ operationId: op.operationId, method: op.method, path: call.url, status: reply.status, body: value() });
  };
}

/**
 * Writes a JSON answer as express's `res.json` did (the body as
 * `JSON.stringify` gives it, or a `JsonText`'s text as it is;
 * `application/json; charset=utf-8`, its length; no body for HEAD).
 * `headers` are set first.
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body) ?? '';
  // One writeHead with every header: node stores them in one pass (no setHeader per header).
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * Writes a non-JSON answer (`Reply` with a content type: the inbox page, a
 * raw message, an attachment) as express's `res.type().send()` did: a text
 * body gets `; charset=utf-8` unless its type names a charset; its length;
 * no body for HEAD.
 */
function writeBody(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, contentType: string, body: unknown): void {
  const data = Buffer.isBuffer(body) || body instanceof Uint8Array ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body) ?? '', 'utf8');
  const isText = !(Buffer.isBuffer(body) || body instanceof Uint8Array);
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader('Content-Type', isText && !/;\s*charset=/i.test(contentType) ? `${contentType}; charset=utf-8` : contentType);
  res.setHeader('Content-Length', data.length);
  res.end(req.method === 'HEAD' ? undefined : data);
}

/** Tells the hooks of an answer; only authenticated calls have a team to file it under. */
function notify(hooks: readonly ResponseHook[], call: Call, status: number, responseBody: unknown): void {
  if (!call.auth) return;
  const auth = call.auth;
  for (const hook of hooks) {
    hook({ auth, operationId: call.op.operationId, method: call.op.method, path: call.url, status, requestBody: call.received ?? call.body, responseBody, userAgent: call.req.headers['user-agent'] ?? null });
  }
}

/** Log: the `onResponse` hooks (request logs) hear of a JSON answer. */
export const logResponse: Step = (call) => {
  if (call.sent) notify(call.scope.hooks, call, call.sent.status, call.sent.body);
};

/** Error step: the `onResponse` hooks hear of a refusal (`ApiError`), in its error shape. */
export const logRefusal: ErrorStep = (call, err) => {
  if (err instanceof ApiError) notify(call.scope.hooks, call, err.statusCode, err.toJSON());
};

/** Error step: a refused request (auth, validation, the handler's own error) keeps no upload in the temp folder. */
export async function discardUpload(call: Call): Promise<void> {
  if (call.req.file) await fs.promises.rm(call.req.file.path, { force: true }).catch(() => {});
}

/** Renders a failure as the answer (see `renderError`). */
export type ErrorRenderer = (err: unknown, req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs `steps` in order on `call` (awaiting only a step that returns a
 * promise); when one throws, runs `onError` in order and hands the error to
 * `fail` (the app's `next`, so its error-handling middleware renders it).
 * Never rejects.
 */
export async function runCall(call: Call, steps: readonly Step[], onError: readonly ErrorStep[], fail: (err: unknown) => void): Promise<void> {
  try {
    for (const step of steps) {
      const pending = step(call);
      if (pending) await pending;
    }
  } catch (err) {
    for (const step of onError) await step(call, err);
    fail(err);
  }
}

/**
 * Render error: every failure in the
 * `{statusCode, message, name}` shape of `src/http/errors.ts`. Malformed
 * JSON 400, too large 413, multer errors 413/422, other body-parser 4xx as
 * they are; anything else is logged and answered 500 `application_error` (with
 * its message when `validateResponses` is on, i.e. in tests).
 */
export function renderError(ctx: Emulator): ErrorRenderer {
  return (err: any, req, res) => {
    let apiErr: ApiError;
    const full = fullStore(err);
    if (err instanceof ApiError) apiErr = err;
    else if (err?.type === 'entity.parse.failed') apiErr = errors.validation(`The request body is not valid JSON: ${err.message}`, 400);
    else if (err?.type === 'entity.too.large') apiErr = errors.payloadTooLarge(JSON_BODY_LIMIT);
    else if (err?.name === 'MulterError') {
      apiErr = err.code === 'LIMIT_FILE_SIZE'
        ? errors.payloadTooLarge('200MB')
        : errors.validation(`Invalid multipart body: ${err.message}${err.field ? ` (field \`${err.field}\`)` : ''}.`, 422);
    } else if (full) apiErr = storeFullError(ctx, full, err, `${req.method} ${req.url}`);
    else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
      apiErr = errors.validation(String(err.message ?? 'Invalid request.'), err.status);
    } else {
      ctx.log('error', `unhandled error: ${err?.stack ?? err}`);
      apiErr = new ApiError(500, 'application_error', ctx.config.validateResponses ? String(err?.message ?? err) : 'Internal server error. We are unable to process your request right now, please try again later.');
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    writeJson(req, res, apiErr.statusCode, apiErr.headers, apiErr.toJSON());
  };
}
