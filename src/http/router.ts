/**
 * Routing: which operation of `spec/openapi.yaml` a request is for, with its
 * path parameters (find-my-way, the radix-tree router of fastify; one lookup
 * per request whatever the number of operations). The rules are express's
 * defaults, which the emulator followed before (issue 10 replaced express's
 * linear route list): paths match ignoring case (parameters keep theirs), a
 * trailing slash is ignored, `HEAD` is served by the `GET` operation, path
 * parameters are percent-decoded.
 */
import FindMyWay from 'find-my-way';
import type { Operation } from './spec.js';

/** A matched request: the operation and its path parameters (decoded, as sent). */
export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

/** The routes of an app: every operation's `method` + `routePath`, with a value per operation. */
export interface Router<T> {
  /** The operation for `method` and `path` (no query string), or null. */
  find(method: string, path: string): RouteMatch<T> | null;
  /** Whether `path` is served with some method (a miss on it answers 405, not 404). */
  knowsPath(path: string): boolean;
}

/**
 * Builds the router. `valueOf(op)` is what a match carries (the operation's
 * compiled pipeline). Throws at start on two operations with the same method
 * and path.
 */
export function createRouter<T>(operations: readonly Operation[], valueOf: (op: Operation) => T): Router<T> {
  const fmw = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Ids are short, but a parameter is never refused for its length here: validation answers it.
    maxParamLength: 8192,
  });
  const methods = new Set<string>();
  for (const op of operations) {
    const method = op.method.toUpperCase() as FindMyWay.HTTPMethod;
    const value = valueOf(op);
    for (const m of method === 'GET' ? (['GET', 'HEAD'] as const) : [method]) {
      methods.add(m);
      fmw.on(m, op.routePath, () => {}, { value });
    }
  }
  const find = (method: string, path: string): RouteMatch<T> | null => {
    const found = fmw.find(method as FindMyWay.HTTPMethod, path);
    if (!found) return null;
    return { value: (found.store as { value: T }).value, params: found.params as Record<string, string> };
  };
  return {
    find,
    knowsPath: (path) => [...methods].some((m) => fmw.find(m as FindMyWay.HTTPMethod, path) !== null),
  };
}
