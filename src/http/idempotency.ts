/**
 * `Idempotency-Key` for POST /emails and /emails/batch (API-FACTS §1, §2.1;
 * also the inboxes' reply, forward, draft create and draft send, INBOXES-FACTS §1;
 * D:dashboard/emails/idempotency-keys):
 * - header absent → the request runs normally;
 * - empty or over 256 characters → 400 `invalid_idempotency_key`;
 * - same team + operation + key + same body within 24 h of emulated time →
 *   the first (successful) response again, nothing done a second time;
 * - same key, different body within 24 h → 409 `invalid_idempotent_request`;
 * - after 24 h the key is free again. Failed requests are not remembered.
 * Bodies are compared by a hash of their canonical JSON (key order ignored).
 * The table lives in the emails module's migrations (`idempotencyMigration`).
 */
import { createHash } from 'node:crypto';
import type { Emulator } from '../context.js';
import { ApiError } from './errors.js';
import { Reply, type OpRequest } from '../module.js';

/** How long a key is remembered: 24 h of emulated time. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/**
 * The table, owned here: listed with the other tables of no
 * resource by the teams module (src/state/teams.ts); version 401 from when
 * the emails module listed it.
 */
export const idempotencyMigration = {
  version: 401,
  name: 'idempotency_keys',
  sql: `CREATE TABLE idempotency_keys (
    seq INTEGER PRIMARY KEY,
    team_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX idempotency_keys_key ON idempotency_keys (team_id, scope, key);`,
};

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

/** A replay of what `run` answered: its `Reply` (status and body), or its body with the operation's `status`. */
export type Replayed<T, S extends number> = T extends Reply<infer RS, infer B> ? Reply<RS, B> : Reply<S, T>;

/**
 * Runs `run` (synchronous) under the request's idempotency key, per the
 * rules above. `run` returns the success body, sent with `status`, or a
 * `Reply` when the status depends on the outcome (e.g. 200 for an existing
 * draft, 201 for a new one): its status and body are recorded (not its
 * headers) and a replay answers them. `scope` names the operation (e.g.
 * `emails/send`). Returns what `run` returned, or on a replay a `Reply` with
 * the recorded status and body. Throws what `run` throws, plus the two
 * errors above.
 */
export function withIdempotency<T, S extends number>(ctx: Emulator, req: OpRequest, scope: string, status: S, run: () => T): T | Replayed<T, S> {
  const key = idempotencyKeyOf(req);
  if (key === null) return run();
  const teamId = req.auth!.teamId;
  const hash = createHash('sha256').update(canonical(req.body)).digest('hex');
  const now = ctx.clock.nowMs();
  const row = ctx.db.prepare('SELECT * FROM idempotency_keys WHERE team_id = ? AND scope = ? AND key = ?').get(teamId, scope, key) as
    | { seq: number; body_hash: string; status: number; response: string; created_at: number }
    | undefined;
  if (row && row.created_at + IDEMPOTENCY_TTL_MS > now) {
    if (row.body_hash !== hash) {
      throw new ApiError(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload. Change your idempotency key or payload.');
    }
    // The recorded status and body are what `run` answered for this scope (written below), read back from their JSON.
    return new Reply(row.status, JSON.parse(row.response)) as Replayed<T, S>;
  }
  return ctx.db.transaction(() => {
    if (row) ctx.db.prepare('DELETE FROM idempotency_keys WHERE seq = ?').run(row.seq);
    const result = run();
    const [recorded, body] = result instanceof Reply ? [result.status, result.body] : [status, result];
    ctx.db
      .prepare('INSERT INTO idempotency_keys (team_id, scope, key, body_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(teamId, scope, key, hash, recorded, JSON.stringify(body), now);
    return result;
  })();
}
