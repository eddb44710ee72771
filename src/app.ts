/**
 * Builds the express app from the operations of `spec/openapi.yaml` and the
 * handlers of the modules in `src/resources/index.ts` (and `src/admin/`).
 *
 * For each operation, in order: for a `multipart/form-data` body,
 * authentication and rate limiting first, then the upload (so a refused
 * request never stores its file: issue 13, defect 3; files go to
 * `config.uploadDir` named `UPLOAD_PREFIX` + 32 hex digits, and are removed
 * when the request fails at any later step), raw body (if the spec also declares `text/*` or
 * `message/*` media types: such a body reaches the handler as a Buffer,
 * unvalidated), authentication, rate limiting (`src/http/rate-limit.ts`),
 * parameter validation, body validation, the handler, response validation (when
 * `config.validateResponses`), then the JSON reply. A path served with
 * another method answers 405; an unknown path 404; malformed JSON or
 * multipart 400; a non-empty body of another Content-Type to a JSON operation
 * 400 (it never passes as `{}`); a body over 50 MB 413; all in the error shape of `src/http/errors.ts`.
 * A handler that returns `HANDLED` has written its own response (a
 * server-sent events stream) and gets nothing more.
 * With env `RESEND_EMULATOR_REFERENCE_SPEC` set (development only), each JSON
 * success is also checked against the real service's document
 * (`src/http/reference-check.ts`).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Emulator } from './context.js';
import { ApiError, errors } from './http/errors.js';
import { authenticate } from './http/auth.js';
import { createRateLimit } from './http/rate-limit.js';
import { compileOperation, toApiError } from './http/validate.js';
import { loadSpec, type Operation } from './http/spec.js';
import { loadReferenceCheck } from './http/reference-check.js';
import { UPLOAD_PREFIX } from './http/uploads.js';
import { adminGuard } from './admin/guard.js';
import { HANDLED, Reply, type OperationHandler, type OpRequest, type ResourceModule, type Auth } from './http/types.js';

/** Largest JSON body accepted (attachments are ≤ 40 MB an email, API-FACTS §5.1). */
export const JSON_BODY_LIMIT = '50mb';
/** Largest multipart upload (interface-spec "Limits": import file 200MB). */
export const UPLOAD_LIMIT_BYTES = 200 * 1024 * 1024;
/** What an `onResponse` hook learns about an answered API request. */
export interface ResponseInfo {
  auth: Auth | null;
  operationId: string;
  method: string;
  path: string;
  status: number;
  requestBody: unknown;
  responseBody: unknown;
  userAgent: string | null;
}

/** Whether the request carries a non-empty body (or a chunked one). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Sorts paths so that literal segments are tried before parameters
 * (`/contacts/imports` before `/contacts/{id}`).
 */
function routeOrder(a: Operation, b: Operation): number {
  const ka = a.path.replace(/\{/g, '~');
  const kb = b.path.replace(/\{/g, '~');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Builds the app. Throws at start if a module handles an operationId that the
 * document lacks, two modules handle the same one, or an operation of the
 * document has no handler.
 */
export async function buildApp(ctx: Emulator, modules: ResourceModule[], onResponse: ((info: ResponseInfo) => void)[] = []) {
  const { operations } = await loadSpec();
  // Development only (env RESEND_EMULATOR_REFERENCE_SPEC): null, and so free, when off.
  const referenceCheck = await loadReferenceCheck();
  const handlers = new Map<string, OperationHandler>();
  for (const mod of modules) {
    for (const [id, h] of Object.entries(mod.operations ?? {})) {
      if (handlers.has(id)) throw new Error(`operation ${id} handled twice (module ${mod.name})`);
      if (!operations.some((o) => o.operationId === id)) throw new Error(`module ${mod.name} handles ${id}, which spec/openapi.yaml lacks`);
      handlers.set(id, h);
    }
  }
  const unhandled = operations.filter((o) => !handlers.has(o.operationId)).map((o) => o.operationId);
  if (unhandled.length) throw new Error(`spec/openapi.yaml operations without a handler: ${unhandled.join(', ')}`);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // The SDK joins baseUrl and path without clean-up (API-FACTS §1): `//emails`.
  app.use((req, _res, next) => {
    if (req.url.startsWith('//')) req.url = req.url.replace(/^\/+/, '/');
    next();
  });
  // The admin API's Host / Origin / token checks, before any body is read (src/admin/guard.ts).
  app.use(adminGuard(ctx));
  app.use(express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  const upload = multer({
    storage: multer.diskStorage({
      destination: ctx.config.uploadDir,
      filename: (_req, _file, cb) => cb(null, UPLOAD_PREFIX + randomBytes(16).toString('hex')),
    }),
    limits: { fileSize: UPLOAD_LIMIT_BYTES },
  });
  const rateLimit = createRateLimit(ctx);
  /** Authentication (with the key's permission) and rate limiting of a request; the caller, or null for an operation without auth. */
  const admit = (req: Request, res: Response, op: Operation): Auth | null => {
    const auth = op.requiresAuth ? authenticate(ctx, req.headers.authorization, op) : null;
    if (auth) rateLimit(auth, res);
    return auth;
  };

  const sorted = [...operations].sort(routeOrder);
  for (const op of sorted) {
    const handler = handlers.get(op.operationId)!;
    // Compiled on the operation's first request (start-up stays fast); test/docs.test.ts compiles them all.
    let compiled: ReturnType<typeof compileOperation> | undefined;
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const chain: express.RequestHandler[] = [];
    if (op.body?.mediaType === 'multipart/form-data') {
      // Who may upload is settled before a byte is stored (issue 13, defect 3).
      chain.push((req, res, next) => {
        try {
          res.locals.auth = admit(req, res, op);
          next();
        } catch (err) {
          next(err);
        }
      });
      // A malformed multipart body (no boundary, truncated) is the client's fault: 400, like malformed JSON.
      const single = upload.single('file');
      chain.push((req, res, next) => single(req, res, (err?: any) => {
        if (err && !(err instanceof ApiError) && err.name !== 'MulterError') {
          return next(errors.validation(`The request body is not valid multipart/form-data: ${err.message}.`, 400));
        }
        next(err);
      }));
    }
    if (op.body?.rawMediaTypes) chain.push(express.raw({ type: op.body.rawMediaTypes, limit: JSON_BODY_LIMIT }));
    chain.push(async (req: Request, res: Response, next: NextFunction) => {
      let auth: Auth | null = null;
      const v = (compiled ??= compileOperation(op));
      let body: unknown = undefined;
      /** Tells the onResponse hooks (request logs) of an answer; only authenticated calls have a team to file it under. */
      const notify = (status: number, responseBody: unknown) => {
        if (!auth) return;
        for (const hook of onResponse) {
          hook({ auth, operationId: op.operationId, method: op.method, path: req.originalUrl, status, requestBody: body, responseBody, userAgent: req.headers['user-agent'] ?? null });
        }
      };
      try {
        auth = res.locals.auth !== undefined ? (res.locals.auth as Auth | null) : admit(req, res, op);
        const params: Record<string, any> = { ...(req.query as Record<string, unknown>), ...req.params };
        if (v.params && !v.params(params)) throw toApiError(v.params.errors, 'params');
        const pathParams: Record<string, string> = {};
        const query: Record<string, any> = {};
        for (const p of op.parameters) {
          if (p.in === 'path') pathParams[p.name] = params[p.name];
          else if (p.in === 'query' && params[p.name] !== undefined) query[p.name] = params[p.name];
        }
        if (op.body?.rawMediaTypes && Buffer.isBuffer(req.body)) {
          body = req.body;
        } else if (op.body) {
          // A body express.json did not read (another Content-Type) must not pass as `{}`.
          if (op.body.mediaType === 'application/json' && req.body === undefined && hasBody(req)) {
            throw errors.validation(`The request body must be JSON, sent with \`Content-Type: application/json\` (got \`${String(req.headers['content-type'] ?? 'none').split(';')[0]}\`).`, 400);
          }
          body = req.body ?? {};
          if (op.body.mediaType === 'application/json' && (typeof body !== 'object' || body === null) && !Array.isArray(body)) {
            throw errors.validation('The request body must be a JSON object.', 400);
          }
          if (v.body && !v.body(body)) throw toApiError(v.body.errors, 'body');
        }
        const opReq: OpRequest = { params: pathParams, query, body, auth, headers: req.headers, file: req.file, raw: req };
        const result = await handler(ctx, opReq);
        // Escape hatch: the handler streamed its own response (src/http/types.ts HANDLED).
        if (result === HANDLED) return;
        const reply = result instanceof Reply ? result : new Reply(op.successStatus, result);
        if (reply.contentType) {
          res.status(reply.status).set(reply.headers).type(reply.contentType).send(reply.body);
          return;
        }
        if (ctx.config.validateResponses) {
          const check = v.responses[String(reply.status)];
          if (!check) throw new Error(`${op.operationId} answered ${reply.status}, which spec/openapi.yaml does not declare`);
          if (!check(reply.body)) {
            throw new Error(`${op.operationId} ${reply.status} response does not match spec/openapi.yaml: ${JSON.stringify(check.errors?.slice(0, 5))} body=${JSON.stringify(reply.body).slice(0, 500)}`);
          }
        }
        res.status(reply.status).set(reply.headers).json(reply.body);
        referenceCheck?.({ operationId: op.operationId, method: op.method, path: req.originalUrl, status: reply.status, body: reply.body });
        notify(reply.status, reply.body);
      } catch (err) {
        if (err instanceof ApiError) notify(err.statusCode, err.toJSON());
        // A refused request (auth, validation, the handler's own error) keeps no upload in the temp folder.
        if (req.file) await fs.promises.rm(req.file.path, { force: true }).catch(() => {});
        next(err);
      }
    });
    app[method](op.expressPath, ...chain);
  }
  const paths = [...new Set(sorted.map((o) => o.expressPath))];
  for (const p of paths) app.all(p, (_req, _res, next) => next(errors.methodNotAllowed()));
  app.use((_req, _res, next) => next(errors.routeNotFound()));

  // The error renderer: every failure in the `{statusCode, message, name}` shape.
  app.use((err: any, _req: Request, res: Response, _next: NextFunction) => {
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else if (err?.type === 'entity.parse.failed') apiErr = errors.validation(`The request body is not valid JSON: ${err.message}`, 400);
    else if (err?.type === 'entity.too.large') apiErr = errors.payloadTooLarge(JSON_BODY_LIMIT);
    else if (err?.name === 'MulterError') {
      apiErr = err.code === 'LIMIT_FILE_SIZE'
        ? errors.payloadTooLarge('200MB')
        : errors.validation(`Invalid multipart body: ${err.message}${err.field ? ` (field \`${err.field}\`)` : ''}.`, 422);
    } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
      apiErr = errors.validation(String(err.message ?? 'Invalid request.'), err.status);
    } else {
      ctx.log('error', `unhandled error: ${err?.stack ?? err}`);
      apiErr = new ApiError(500, 'application_error', ctx.config.validateResponses ? String(err?.message ?? err) : 'Internal server error. We are unable to process your request right now, please try again later.');
    }
    if (res.headersSent) return;
    res.status(apiErr.statusCode).set(apiErr.headers).json(apiErr.toJSON());
  });
  return app;
}
