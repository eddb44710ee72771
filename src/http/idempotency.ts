/**
 * `Idempotency-Key` (docs/reference/transport.md; docs/reference/errors.md#error-names-and-statuses; D:dashboard/emails/idempotency-keys),
 * one pipeline step for every operation that declares the header parameter
 * in spec/paths/*.yaml (`honourIdempotencyKey`, src/http/pipeline.ts): POST
 * /emails and /emails/batch, the inboxes' reply, forward, draft create and
 * draft send (docs/reference/inboxes.md#transport). A key is scoped to its team, the operationId
 * and the path parameters (`idempotencyScope`):
 * - header absent → the request runs normally;
 * - empty or over 256 characters → 400 `invalid_idempotency_key`;
 * - same team + scope + key + same body within 24 h of emulated time →
 *   the first (successful) response again (status and body), the handler
 *   not called, nothing done a second time;
 * - calls with one key never overlap: the lookup, the handler and the
 *   record of its answer run in one synchronous turn (the handler of an
 *   operation with the header cannot return a promise: `OperationHandlers`,
 *   src/http/document-types.ts), so a second call finds the first's answer
 *   (the service's 409 `concurrent_idempotent_requests`, for a call still
 *   in progress, cannot arise here);
 * - same key, different body within 24 h → 409 `invalid_idempotent_request`;
 * - after 24 h the key is free again. Failed requests are not remembered.
 * Bodies (as validated: undeclared keys pruned) are compared by a hash of
 * their canonical JSON (key order ignored). The key is checked after the
 * request is validated and before the handler runs, so a replay answers even
 * where the handler's own checks would now refuse (a draft since sent).
 */
import { createHash } from 'node:crypto';
import type { Emulator } from '../context.js';
import { ApiError } from './errors.js';
import { Reply, type OpRequest } from '../module.js';
import { defineTable, integer, seq, text, type RowOf } from '../store/table.js';

/** How long a key is remembered: 24 h of emulated time. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** The table, owned here (listed with the other tables of no resource by the teams module, src/state/teams.ts): the replies of requests sent with an `Idempotency-Key`, by team, operation scope and key. */
export const idempotencyKeysTable = defineTable(
  'idempotency_keys',
  {
    seq: seq(),
    team_id: text().notNull(),
    /** `operationId` and the path parameters (`idempotencyScope`). */
    scope: text().notNull(),
    key: text().notNull(),
    /** sha256 hex of the body's canonical JSON. */
    body_hash: text().notNull(),
    /** The HTTP status answered. */
    status: integer().notNull(),
    /** The body answered, JSON text. */
    response: text().notNull(),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'idempotency_keys_key', on: 'team_id, scope, key', unique: true },
    ],
  },
);

/** An `idempotency_keys` row: a recorded answer. */
export type IdempotencyKeyRow = RowOf<typeof idempotencyKeysTable>;

/** What a lookup reads of a recorded answer. */
const LOOKUP_COLUMNS = idempotencyKeysTable.columnList(['seq', 'body_hash', 'status', 'response', 'created_at']);

/** The INSERT of a recorded answer: every column but `seq`. */
const INSERT_KEY = idempotencyKeysTable.insert(idempotencyKeysTable.columnsExcept('seq'));

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object).sort().filter((k) => (v as any)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The request's key, or null without one. Throws 400 `invalid_idempotency_key`. */
export function idempotencyKeyOf(req: Pick<OpRequest, 'headers'>): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length < 1 || key.length > 256) {
    throw new ApiError(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
  }
  return key;
}

/** What the idempotency step found for a call with a key and no recorded answer: the key to record its answer under. */
export interface IdempotencyClaim {
  teamId: string;
  /** `operationId` and the path parameters (`idempotencyScope`). */
  scope: string;
  key: string;
  /** sha256 of the body's canonical JSON. */
  hash: string;
  /** An expired row of the same key, replaced when the answer is recorded. */
  staleSeq: number | null;
}

/**
 * The scope of a key: the operationId, then each path parameter's value in
 * the document's order (`inboxes/drafts/send:inbox@x.dev:2f0…`), so a key
 * is one operation on one resource. An operation without path parameters is
 * its operationId alone (`emails/send`).
 */
export function idempotencyScope(operationId: string, pathParams: readonly string[]): string {
  return pathParams.length ? `${operationId}:${pathParams.join(':')}` : operationId;
}

/**
 * Looks the call's key up (`teamId`, `scope`, `key`, the validated `body`),
 * per the rules above: returns `{ replay }` (the recorded status and body)
 * for the same body within 24 h, otherwise `{ claim }` to run the call under.
 * Throws 409 `invalid_idempotent_request` for another body
 * (docs/reference/errors.md#error-names-and-statuses).
 */
export function lookUpIdempotencyKey(ctx: Emulator, teamId: string, scope: string, key: string, body: unknown): { replay: Reply } | { claim: IdempotencyClaim } {
  const hash = createHash('sha256').update(canonical(body)).digest('hex');
  const row = ctx.db.prepare(`SELECT ${LOOKUP_COLUMNS} FROM idempotency_keys WHERE team_id = ? AND scope = ? AND key = ?`).get(teamId, scope, key) as
    | Pick<IdempotencyKeyRow, 'seq' | 'body_hash' | 'status' | 'response' | 'created_at'>
    | undefined;
  if (row && row.created_at + IDEMPOTENCY_TTL_MS > ctx.clock.nowMs()) {
    if (row.body_hash !== hash) {
      throw new ApiError(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload. Change your idempotency key or payload.');
    }
    return { replay: new Reply(row.status, JSON.parse(row.response)) };
  }
  return { claim: { teamId, scope, key, hash, staleSeq: row?.seq ?? null } };
}

/**
 * Runs a call under its claimed key: `run` (the operation's handler) and the
 * record of its answer in one transaction, always, so a crash leaves both or
 * neither, and a retry with the key after a crash at any point runs the call
 * once; what `run` returns (the success body, sent with `status`, or a
 * `Reply`: its status and body are recorded, not its headers). `run` is
 * synchronous (the types refuse an async handler for an operation with the
 * header: `OperationHandlers`); one that returns a promise anyway throws
 * (rolled back, nothing recorded). A call that throws records nothing.
 * Returns what `run` returned.
 */
export function runUnderKey(ctx: Emulator, claim: IdempotencyClaim, status: number, run: () => unknown): unknown {
  return ctx.db.transaction(() => {
    const result = run();
    if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
      // A programming error the types refuse: the answer could not be recorded in this transaction.
      throw new Error(`the handler of ${claim.scope.split(':')[0]} returned a promise: an operation with an Idempotency-Key must have a synchronous handler`);
    }
    if (claim.staleSeq !== null) ctx.db.prepare('DELETE FROM idempotency_keys WHERE seq = ?').run(claim.staleSeq);
    const [recorded, body] = result instanceof Reply ? [result.status, result.body] : [status, result];
    const row: Omit<IdempotencyKeyRow, 'seq'> = {
      team_id: claim.teamId,
      scope: claim.scope,
      key: claim.key,
      body_hash: claim.hash,
      status: recorded,
      response: JSON.stringify(body),
      created_at: ctx.clock.nowMs(),
    };
    ctx.db.prepare(INSERT_KEY.sql).run(...INSERT_KEY.params(row));
    return result;
  })();
}
