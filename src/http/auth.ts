/**
 * Authentication and permission (DESIGN.md "Behaviour: Auth"; API-FACTS §2.1;
 * interface-spec "Authentication"):
 * - no `Authorization` header → 401 `missing_api_key`;
 * - a header that is not `Bearer <known token>` → 403 `invalid_api_key`;
 * - a `sending_access` key on an operation without
 *   `x-emulator-permission: sending` → 401 `restricted_api_key`.
 * Tokens are looked up by sha256; `last_used_at` is set to emulated now
 * (at most once a second per key).
 */
import { createHash } from 'node:crypto';
import type { Emulator } from '../context.js';
import { errors } from './errors.js';
import type { Auth } from './types.js';
import type { Operation } from './spec.js';

/** `last_used_at` is kept to this resolution (ms), so busy keys do not write on every request. */
export const LAST_USED_RESOLUTION_MS = 1_000;

/** sha256 hex of a token (how tokens are stored). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Resolves the caller of a request. Throws the errors listed above. */
export function authenticate(ctx: Emulator, header: string | undefined, op: Operation): Auth {
  if (header === undefined || header.trim() === '') throw errors.missingApiKey();
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw errors.invalidApiKey();
  const row = ctx.db
    .prepare('SELECT id, team_id, permission, domain_id, last_used_at FROM api_keys WHERE token_hash = ?')
    .get(hashToken(m[1])) as { id: string; team_id: string; permission: Auth['permission']; domain_id: string | null; last_used_at: number | null } | undefined;
  if (!row) throw errors.invalidApiKey();
  if (row.permission === 'sending_access' && !op.sending) throw errors.restrictedApiKey();
  const now = ctx.clock.nowMs();
  // To the second: a key used many times a second is written once a second.
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS || now < row.last_used_at) {
    ctx.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, row.id);
  }
  return { teamId: row.team_id, apiKeyId: row.id, permission: row.permission, domainId: row.domain_id };
}
