/**
 * Builds the request listener from the operations of `spec/openapi.yaml` and the
 * handlers of the modules in `src/modules.ts` (and `src/admin/`).
 *
 * Every operation runs the same steps, listed in order in `buildApp` below
 * and each described in `src/http/pipeline.ts`: read a raw body, authenticate,
 * rate-limit, inject a fault (`src/faults/step.ts`: public operations of
 * authenticated callers only), store an upload (multipart), validate
 * (parameters, then body), call the handler, reply
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
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Emulator } from './context.js';
import { errors } from './http/errors.js';
import { createRateLimit } from './http/rate-limit.js';
import { loadSpec, type Operation } from './http/spec.js';
import { loadReferenceCheck } from './http/reference-check.js';
import { routerOf } from './http/router.js';
import type { OperationHandler, RawRequest, ResourceModule, ResponseInfo } from './module.js';
import {
  UPLOAD_LIMIT_BYTES, authenticateCaller, callHandler, discardUpload, hasBody, lazyValidators, limitRate, logRefusal, logResponse,
  readJsonBody, readRawBody, readUpload, renderError, runCall, runMiddleware, sendReply, validateRequest,
  type Call, type ErrorStep, type Middleware, type Step,
} from './http/pipeline.js';
import { injectFault } from './faults/step.js';
import { UPLOAD_PREFIX } from './http/uploads.js';
import { adminGuard } from './admin/guard.js';
import { lazy, requirePackage } from './lazy.js';

export { JSON_BODY_LIMIT, UPLOAD_LIMIT_BYTES } from './http/pipeline.js';

/** One operation as the router holds it: the operation, its raw-body reader, its steps. */
interface Route {
  op: Operation;
  readRaw: Middleware | null;
  steps: readonly Step[];
}

/**
 * Builds the app. Throws at start if a module handles an operationId that the
 * document lacks, two modules handle the same one, or an operation of the
 * document has no handler.
 */
export async function buildApp(ctx: Emulator, modules: ResourceModule[], onResponse: ((info: ResponseInfo) => void)[] = []): Promise<RequestListener> {
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

  // Uploads go to `config.uploadDir`, named UPLOAD_PREFIX + 32 hex digits (src/http/uploads.ts), removed on every path.
  // multer loads with the first upload (issue 10: start-up).
  const upload = lazy(() => {
    const multer = requirePackage<typeof multerType>('multer');
    return multer({
      storage: multer.diskStorage({
        destination: ctx.config.uploadDir,
        filename: (_req, _file, cb) => cb(null, UPLOAD_PREFIX + randomBytes(16).toString('hex')),
      }),
      limits: { fileSize: UPLOAD_LIMIT_BYTES },
    });
  });
  const rateLimit = createRateLimit(ctx);
  // A refused call: the request logs hear of it, its upload is deleted (then `renderError` answers).
  const onError: ErrorStep[] = [logRefusal(onResponse), discardUpload];
  const render = renderError(ctx);
  // The admin API's Host / Origin / token checks, before any body is read (src/admin/guard.ts).
  const guardAdmin = adminGuard(ctx);
  const readJson = readJsonBody();

  const router = routerOf(operations);
  const routes: Route[] = operations.map((op) => {
    const validators = lazyValidators(op);
    const steps: Step[] = [
      authenticateCaller(ctx),
      limitRate(rateLimit),
      // Steps between authentication and validation see `call.auth`, not yet a validated request.
      injectFault(ctx),
      // A multipart body is stored only once the caller is admitted (issue 13, defect 3).
      ...(op.body?.mediaType === 'multipart/form-data' ? [readUpload(upload)] : []),
      validateRequest(validators),
      callHandler(ctx, handlers.get(op.operationId)!),
      sendReply(ctx, validators, referenceCheck),
      logResponse(onResponse),
    ];
    return { op, readRaw: readRawBody(op), steps };
  });

  /**
   * One request: admin guard, JSON body, route (404 unknown path, 405
   * known path with another method), raw body, then the operation's steps.
   */
  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    // The SDK joins baseUrl and path without clean-up (API-FACTS §1): `//emails`.
    const target = url.startsWith('//') ? url.replace(/^\/+/, '/') : url;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    let call: Call;
    let route: Route;
    try {
      guardAdmin(req, path);
      if (req.headers['content-type'] !== undefined && hasBody(req)) await runMiddleware(readJson, req, res);
      const match = router.find(req.method ?? 'GET', path);
      if (!match) throw router.knowsPath(path) ? errors.methodNotAllowed() : errors.routeNotFound();
      route = routes[match.index];
      if (route.readRaw && hasBody(req)) await runMiddleware(route.readRaw, req, res);
      call = {
        op: route.op, req: req as RawRequest, res, url, pathParams: match.params, queryString: q < 0 ? '' : target.slice(q + 1),
        auth: null, params: {}, query: {}, body: undefined,
      };
    } catch (err) {
      render(err, req, res);
      return;
    }
    await runCall(call, route.steps, onError, render);
  }

  return (req, res) => {
    dispatch(req, res).catch((err) => {
      ctx.log('error', `unhandled error: ${(err as Error)?.stack ?? err}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
}
