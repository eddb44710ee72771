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
 * and path, or on two paths of the document that differ only in their
 * parameters' names (find-my-way: the same route twice).
 */
export function routerOf(operations: readonly Operation[]): Router {
  let router = built.get(operations);
  if (!router) {
    router = createRouter(operations);
    built.set(operations, router);
  }
  return router;
}

/**
 * One find-my-way route per path of the document, whose store maps each
 * method to its operation's index (HEAD is looked up as GET), rather than a
 * route per method and path: one tree instead of one per method, and half
 * the routes, each of which costs find-my-way compiled functions at the
 * first start (a route per method, HEAD beside GET, made the table a
 * noticeable part of `emulator start`: docs/benchmarks.md#figures-behind-the-code).
 */
function createRouter(operations: readonly Operation[]): Router {
  const fmw = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Ids are short, but a parameter is never refused for its length here: validation answers it.
    maxParamLength: 8192,
  });
  /** Operation index by method, for each route path (no prototype: a request's method is never an inherited name). */
  const byPath = new Map<string, Record<string, number>>();
  operations.forEach((op, index) => {
    let methods = byPath.get(op.routePath);
    if (!methods) {
      methods = Object.create(null) as Record<string, number>;
      byPath.set(op.routePath, methods);
    }
    const method = op.method.toUpperCase();
    if (methods[method] !== undefined) throw new Error(`two operations for ${method} ${op.path}`);
    methods[method] = index;
  });
  // find-my-way keeps a tree per method; every path goes in the GET one, the method is the store's key.
  for (const [routePath, methods] of byPath) fmw.on('GET', routePath, () => {}, methods);
  const find = (method: string, path: string): RouteMatch | null => {
    const found = fmw.find('GET', path);
    if (!found) return null;
    const index = (found.store as Record<string, number>)[method === 'HEAD' ? 'GET' : method];
    return index === undefined ? null : { index, params: found.params as Record<string, string> };
  };
  return {
    find,
    knowsPath: (path) => fmw.find('GET', path) !== null,
  };
}
