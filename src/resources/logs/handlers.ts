/**
 * Request logs (docs/reference/resources.md#logs; reference operations `logs/*`).
 * | operationId | rule |
 * |---|---|
 * | logs/list | the team's logs, newest first; items `{id, created_at, endpoint, method, response_status, user_agent}`; 20 a page when `limit` is omitted (the spec is silent; logs grow with every call, so they are paged like emails) |
 * | logs/get | adds `object: "log"`, `request_body` (null without a body), `response_body`; unknown or another team's → 404 `Log not found` |
 * Recording (`onResponse`, src/resources/logs/store.ts): every authenticated
 * API request, errors included, at emulated time; not `/_emulator/*` nor
 * requests that failed authentication (no team to file them under).
 * `endpoint` is the path without the query string.
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { findLog, pageLogs, LOG_LIST_COLUMNS, type LogListRow } from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

/** Default page size of GET /logs. */
export const LOGS_DEFAULT_LIMIT = 20;

/** The list item shape: `{id, created_at, endpoint, method, response_status, user_agent}`. */
function toLogItem(r: LogListRow) {
  return {
    id: r.id,
    created_at: apiTime(r.created_at),
    endpoint: r.endpoint,
    method: r.method,
    response_status: r.response_status,
    user_agent: r.user_agent,
  };
}

function list(ctx: Emulator, req: Req<'logs/list'>): Answer<'logs/list'> {
  return pageLogs(ctx.db, req, {
    defaultLimit: LOGS_DEFAULT_LIMIT,
    columns: LOG_LIST_COLUMNS,
    map: toLogItem,
  });
}

function get(ctx: Emulator, req: Req<'logs/get'>): Answer<'logs/get'> {
  const r = findLog(ctx, req.auth.teamId, req.params.log_id);
  if (!r) throw errors.notFound('Log');
  return {
    object: 'log',
    ...toLogItem(r),
    request_body: JSON.parse(r.request_body),
    response_body: JSON.parse(r.response_body),
  };
}

/** The logs operations, by operationId. */
export const operations = {
  'logs/list': list,
  'logs/get': get,
} satisfies OperationHandlers;
