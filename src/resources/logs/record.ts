/**
 * Recording of API requests (API-FACTS §5.17): one row a request, written by
 * the module's `onResponse` hook after the reply is sent.
 */
import type { Emulator } from '../../context.js';
import type { ResponseInfo } from '../../app.js';
import type { DB } from '../../store/db.js';
import { newId } from '../../http/format.js';

type Insert = { run(...params: unknown[]): unknown };
const inserts = new WeakMap<DB, Insert>();

/** The prepared INSERT of a store (prepared once per database). */
function insertOf(db: DB): Insert {
  let stmt = inserts.get(db);
  if (!stmt) {
    stmt = db.prepare(
      `INSERT INTO logs (id, team_id, created_at, endpoint, method, response_status, user_agent, request_body, response_body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    inserts.set(db, stmt);
  }
  return stmt;
}

/** A stored log row; times in emulated ms, bodies as JSON text. */
export interface LogRow {
  seq: number;
  id: string;
  team_id: string;
  created_at: number;
  endpoint: string;
  method: string;
  response_status: number;
  user_agent: string | null;
  request_body: string;
  response_body: string;
}

/**
 * The endpoint as the service shows it: the request path without query
 * string, repeated leading slashes collapsed (the SDK may send `//emails`,
 * API-FACTS §1).
 */
export function endpointOf(path: string): string {
  const p = path.split('?')[0].replace(/^\/+/, '/');
  return p === '' ? '/' : p;
}

/**
 * Records one answered request. Skipped: requests without an authenticated
 * team (auth failures, the admin API) and `/_emulator/*` paths. Never throws
 * (a failure is logged at `warn`): recording must not break a reply.
 * Cost: one prepared INSERT.
 */
export function recordRequest(ctx: Emulator, info: ResponseInfo): void {
  try {
    if (!info.auth) return;
    const endpoint = endpointOf(info.path);
    if (endpoint.startsWith('/_emulator')) return;
    insertOf(ctx.db).run(
        newId(),
        info.auth.teamId,
        ctx.clock.nowMs(),
        endpoint,
        info.method.toUpperCase(),
        info.status,
        info.userAgent,
        JSON.stringify(info.requestBody ?? null),
        JSON.stringify(info.responseBody ?? null),
      );
  } catch (err) {
    ctx.log('warn', `could not record request log: ${(err as Error)?.message ?? err}`);
  }
}
