/**
 * Recording of API requests (docs/reference/resources.md#logs): one row a request, written by
 * the module's `onResponse` hook after the reply is sent.
 */
import type { Emulator } from '../../context.js';
import { JsonText, type ResponseInfo } from '../../module.js';
import type { DB } from '../../store/db.js';
import { newId } from '../../http/format.js';
import { teamPager } from '../../http/pagination.js';
import { isStoreFull } from '../../store/full.js';
import type { SchemaOf } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `logs` table: one row a recorded request; times in emulated ms, bodies as JSON text. */
export const logsTable = defineTable(
  'logs',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** The path as the service shows it (`endpointOf`). */
    endpoint: text().notNull(),
    /** Upper case. */
    method: text().notNull().as<SchemaOf<'LogMethod'>>(),
    response_status: integer().notNull(),
    user_agent: text(),
    /** JSON text, secrets redacted, or the truncation marker (`bodyText`). */
    request_body: text().notNull(),
    /** JSON text, secrets redacted, or the truncation marker (`bodyText`). */
    response_body: text().notNull(),
  },
  {
    indexes: [
      { name: 'logs_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [logsTable];

/** A stored log row; times in emulated ms, bodies as JSON text. */
export type LogRow = RowOf<typeof logsTable>;

/** The INSERT of a log row: every column but `seq`. */
const INSERT_LOG = logsTable.insert(logsTable.columnsExcept('seq'));

type Insert = { run(...params: unknown[]): unknown };
const inserts = new WeakMap<DB, Insert>();

/** The prepared INSERT of a store (prepared once per database). */
function insertOf(db: DB): Insert {
  let stmt = inserts.get(db);
  if (!stmt) {
    stmt = db.prepare(INSERT_LOG.sql);
    inserts.set(db, stmt);
  }
  return stmt;
}

/**
 * Bodies whose JSON is longer than this (characters) are stored as
 * `{"truncated": true, "length": N}`, so a load of large requests (attachments
 * up to 40 MB) cannot fill the store. docs/differences.md#emulator-specific-behaviours.
 */
export const LOG_BODY_LIMIT = 16 * 1024;
/** The newest logs kept per team; older ones are pruned every `LOG_PRUNE_EVERY` inserts. */
export const LOG_RETENTION = 5_000;
const LOG_PRUNE_EVERY = 500;

/**
 * Body fields that hold a secret, at any depth: an API key's `token` (shown
 * once by POST /api-keys; only its sha256 is kept), a webhook's
 * `signing_secret` / `previous_signing_secret`, and OAuth-style secrets.
 * Their string values are stored as `REDACTED` in the request log, so GET
 * /logs/{id}, snapshots and the SQLite file never hold them (secrets stay
 * secret; the service's logs do not show secrets either). docs/differences.md#emulator-specific-behaviours.
 */
const SECRET_FIELDS = new Set(['token', 'signing_secret', 'previous_signing_secret', 'client_secret', 'access_token', 'refresh_token', 'password', 'code_verifier']);

/** What a secret field's value is stored as. */
export const REDACTED = '[redacted]';

/**
 * A lower bound of the length (characters) of `value`'s JSON, counted only
 * until it passes `limit`: a large reply (a page of 100 emails, ~31 KB) is
 * recognised without serializing it, which would cost every list request
 * (docs/benchmarks.md#figures-behind-the-code).
 */
function jsonLengthPast(value: unknown, limit: number): number {
  let n = 0;
  const walk = (v: unknown): void => {
    if (n > limit) return;
    if (v === undefined || typeof v === 'function') return;
    if (typeof v === 'string') n += v.length + 2;
    else if (v === null || typeof v !== 'object') n += String(v).length;
    else if (Array.isArray(v)) { n += 2; for (const x of v) { walk(x); n += 1; if (n > limit) return; } }
    else if (Buffer.isBuffer(v)) n += v.length;
    else for (const k in v as Record<string, unknown>) { n += k.length + 4; walk((v as Record<string, unknown>)[k]); if (n > limit) return; }
  };
  walk(value);
  return n;
}

/**
 * JSON text of a body (secrets redacted, see `SECRET_FIELDS`), or the
 * marker `{"truncated": true, "length": N}` past `LOG_BODY_LIMIT`, where N is
 * the body's length in characters as far as it was counted (at least the limit).
 */
function bodyText(body: unknown): string {
  if (body instanceof JsonText) {
    if (body.text.length > LOG_BODY_LIMIT) return JSON.stringify({ truncated: true, length: body.text.length });
    body = body.value();
  }
  const past = jsonLengthPast(body ?? null, LOG_BODY_LIMIT);
  if (past > LOG_BODY_LIMIT) return JSON.stringify({ truncated: true, length: past });
  const text = JSON.stringify(body ?? null, (key, value) => (SECRET_FIELDS.has(key) && typeof value === 'string' ? REDACTED : value));
  return text.length > LOG_BODY_LIMIT ? JSON.stringify({ truncated: true, length: text.length }) : text;
}

/**
 * The endpoint as the service shows it: the request path without query
 * string, repeated leading slashes collapsed (the SDK may send `//emails`,
 * docs/reference/transport.md#base-url-and-keys).
 */
export function endpointOf(path: string): string {
  const p = path.split('?')[0].replace(/^\/+/, '/');
  return p === '' ? '/' : p;
}

/**
 * Records one answered request. Skipped: requests without an authenticated
 * team (auth failures, the admin API) and `/_emulator/*` paths. Never throws
 * (a failure is logged at `warn`): recording must not break a reply.
 * Cost: one prepared INSERT (and, every 500th, an indexed prune to the
 * newest `LOG_RETENTION` rows of the team).
 */
export function recordRequest(ctx: Emulator, info: ResponseInfo): void {
  try {
    if (!info.auth) return;
    const endpoint = endpointOf(info.path);
    if (endpoint.startsWith('/_emulator')) return;
    const row: Omit<LogRow, 'seq'> = {
      id: newId(),
      team_id: info.auth.teamId,
      created_at: ctx.clock.nowMs(),
      endpoint,
      // The operation's method as the document declares it (a HEAD request is its GET operation's).
      method: info.method.toUpperCase() as LogRow['method'],
      response_status: info.status,
      user_agent: info.userAgent,
      request_body: bodyText(info.requestBody),
      response_body: bodyText(info.responseBody),
    };
    const { lastInsertRowid } = insertOf(ctx.db).run(...INSERT_LOG.params(row)) as { lastInsertRowid: number | bigint };
    if (Number(lastInsertRowid) % LOG_PRUNE_EVERY === 0) {
      ctx.db
        .prepare(`DELETE FROM logs WHERE team_id = ? AND seq <= (SELECT seq FROM logs WHERE team_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`)
        .run(info.auth.teamId, info.auth.teamId, LOG_RETENTION);
    }
  } catch (err) {
    // A full store is logged once, by the answer's 507 (src/http/store-full.ts), or is no news to a read.
    if (!isStoreFull(err)) ctx.log('warn', `could not record request log: ${(err as Error)?.message ?? err}`);
  }
}

/** A page of the team's `logs` rows (`paginateTeam` options but the table). */
export const pageLogs = teamPager<LogRow>('logs');

/** The columns its list items read (`LOG_LIST_COLUMNS`, `LogListRow`). */
const LOG_LIST_NAMES = ['seq', 'id', 'created_at', 'endpoint', 'method', 'response_status', 'user_agent'] as const;

/** The columns a list of logs reads (`pageLogs`' `columns`): no bodies. */
export const LOG_LIST_COLUMNS = logsTable.columnList(LOG_LIST_NAMES);

/** A log as a list reads it (`LOG_LIST_COLUMNS`). */
export type LogListRow = Pick<LogRow, (typeof LOG_LIST_NAMES)[number]>;

/** The team's log `id`, or undefined. */
export function findLog(ctx: Emulator, teamId: string, id: string): LogRow | undefined {
  return ctx.db.prepare('SELECT * FROM logs WHERE id = ? AND team_id = ?').get(id, teamId) as LogRow | undefined;
}
