/**
 * Routing: which operation of `spec/openapi.yaml` a request is for, with its
 * path parameters (find-my-way, the radix-tree router of fastify; one lookup
 * per request whatever the number of operations). The rules are express's
 * defaults, which the emulator followed before (one lookup instead of express's
 * linear route list): paths match ignoring case (parameters keep theirs), a
 * trailing slash is ignored, `HEAD` is served by the `GET` operation, path
 * parameters are percent-decoded.
 */
import FindMyWay from 'find-my-way';
import type { Operation } from './spec.js';

/** A matched request: the operation's index in the list the router was built from, and its path parameters (decoded, as sent). */
export interface RouteMatch {
  index: number;
  params: Record<string, string>;
}

/** The routes of the document: every operation's `method` + `routePath`. */
export interface Router {
  /** The operation for `method` and `path` (no query string), or null. */
  find(method: string, path: string): RouteMatch | null;
  /** Whether `path` is served with some method (a miss on it answers 405, not 404). */
  knowsPath(path: string): boolean;
}

/** Routers by the operations list they were built from: built once per process, shared by every app (a later `startServer()` costs no routing tree). */
const built = new WeakMap<readonly Operation[], Router>();

/**
 * The router of `operations` (the list `loadSpec()` returns, which is the
 * same object for the process). A match carries the operation's index in
 * that list. Throws at first build on two operations with the same method
 * and path.
 */
export function routerOf(operations: readonly Operation[]): Router {
  let router = built.get(operations);
  if (!router) {
    router = createRouter(operations);
    built.set(operations, router);
  }
  return router;
}

function createRouter(operations: readonly Operation[]): Router {
  const fmw = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Ids are short, but a parameter is never refused for its length here: validation answers it.
    maxParamLength: 8192,
  });
  const methods = new Set<string>();
  // HEAD is looked up as GET rather than registered twice: each route costs find-my-way compiled functions (the
  // first start's route table was ~35 ms of CPU with both, by a CPU profile of `emulator start`).
  operations.forEach((op, index) => {
    const method = op.method.toUpperCase() as FindMyWay.HTTPMethod;
    methods.add(method);
    fmw.on(method, op.routePath, () => {}, { index });
  });
  const find = (method: string, path: string): RouteMatch | null => {
    const found = fmw.find((method === 'HEAD' ? 'GET' : method) as FindMyWay.HTTPMethod, path);
    if (!found) return null;
    return { index: (found.store as { index: number }).index, params: found.params as Record<string, string> };
  };
  return {
    find,
    knowsPath: (path) => [...methods].some((m) => fmw.find(m as FindMyWay.HTTPMethod, path) !== null),
  };
}
