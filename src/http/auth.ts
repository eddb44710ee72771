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
import type { Auth } from '../module.js';
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
  const key = findApiKey(ctx, m[1]);
  if (!key) throw errors.invalidApiKey();
  if (key.permission === 'sending_access' && !op.sending) throw errors.restrictedApiKey();
  return markKeyUsed(ctx, key);
}

/** A key found by `findApiKey`: the caller, and when the key was last used (emulated ms). */
export type FoundKey = Auth & { lastUsedAt: number | null };

/**
 * The key of a token, or null when no key of any team has it (`full_access`
 * or `sending_access`: the caller checks the permission). Writes nothing;
 * `markKeyUsed` records the use once the caller accepts it. Also used by the
 * SMTP relay (src/smtp/), whose password is an API key.
 */
export function findApiKey(ctx: Emulator, token: string): FoundKey | null {
  const row = ctx.db
    .prepare('SELECT id, team_id, permission, domain_id, last_used_at FROM api_keys WHERE token_hash = ?')
    .get(hashToken(token)) as { id: string; team_id: string; permission: Auth['permission']; domain_id: string | null; last_used_at: number | null } | undefined;
  if (!row) return null;
  return { teamId: row.team_id, apiKeyId: row.id, permission: row.permission, domainId: row.domain_id, lastUsedAt: row.last_used_at };
}

/** Sets the key's `last_used_at` to emulated now (at most once a `LAST_USED_RESOLUTION_MS`); returns the caller. */
export function markKeyUsed(ctx: Emulator, key: FoundKey): Auth {
  const now = ctx.clock.nowMs();
  // To the second: a key used many times a second is written once a second.
  if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_RESOLUTION_MS || now < key.lastUsedAt) {
    ctx.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, key.apiKeyId);
  }
  return { teamId: key.teamId, apiKeyId: key.apiKeyId, permission: key.permission, domainId: key.domainId };
}
