/**
 * What other rooms may use of the api-keys resource (they import this file, never its store): the key store
 * the request pipeline and the SMTP relay authenticate with (`ctx.keys`,
 * wired in src/server.ts), new keys for the admin API, and `--api-key` on a
 * stored state.
 */
import type { Emulator, KeyStore } from '../../context.js';
import { findApiKey, insertApiKey, markKeyUsed, newToken, setApiKeyToken } from './store.js';
import { teamExists } from '../../state/teams.js';

export { insertApiKey, newToken };

/** The `api_keys` table as `ctx.keys` (src/context.ts `KeyStore`). */
export const apiKeyStore: KeyStore = { find: findApiKey, markUsed: markKeyUsed };

/**
 * `--api-key` on a store that already has state (a `--db` file): the
 * fixtures' default key (`"default": true`) gets that token, or is added
 * again if it was deleted (its team still existing). Returns false when the
 * fixtures name no default key or its team is gone.
 */
export function applyDefaultKeyToken(ctx: Emulator, fixtures: Record<string, any>, token: string): boolean {
  const k = (fixtures.api_keys ?? []).find((x: any) => x.default);
  if (!k) return false;
  if (setApiKeyToken(ctx, k.id, token)) return true;
  if (!teamExists(ctx, k.team_id)) return false;
  insertApiKey(ctx, { id: k.id, teamId: k.team_id, name: k.name, token, permission: k.permission });
  return true;
}
