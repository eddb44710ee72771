/**
 * API keys (interface-spec "API keys"; API-FACTS §5.5).
 * | operationId | rule |
 * |---|---|
 * | api-keys/create | name ≤ 50 (`""` accepted, REC:AK-create-allows-empty-name); permission `full_access` (default) or `sending_access`; `domain_id` only with `sending_access`, must be a domain of the team; 201 `{id, object: "api_key", token}` (SPEC over the recorded `"list"`, API-FACTS §8 #1) |
 * | api-keys/list | all keys when `limit` is omitted; items `{id, name, created_at, last_used_at}` |
 * | api-keys/update | `{name}` → `{object: "api_key", id}` |
 * | api-keys/remove | 200 `{object: "list", id, deleted: true}` as recorded (REC:AK-remove-removes); unknown → 404 `API key not found` |
 * Tokens (`re_…`) are stored as sha256 and shown only on creation.
 */
import type { ResourceModule } from '../../module.js';
import type { Emulator } from '../../context.js';
import { apiTime, newId, randomAlnum } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { hashToken } from '../../http/auth.js';
import { paginateTeam } from '../../http/pagination.js';
import type { Req } from '../../http/document-types.js';

/** A new secret token, shaped like the service's: `re_` + 8 + `_` + 24 alphanumerics. */
export function newToken(): string {
  return `re_${randomAlnum(8)}_${randomAlnum(24)}`;
}

/**
 * Inserts a key and returns its id. `token` is the plain secret (hashed here).
 * Synchronous; no validation (callers validate).
 */
export function insertApiKey(
  ctx: Emulator,
  key: { id?: string; teamId: string; name: string; token: string; permission?: 'full_access' | 'sending_access'; domainId?: string | null; createdAt?: number },
): string {
  const id = key.id ?? newId();
  ctx.db
    .prepare('INSERT INTO api_keys (id, team_id, name, token_hash, permission, domain_id, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)')
    .run(id, key.teamId, key.name, hashToken(key.token), key.permission ?? 'full_access', key.domainId ?? null, key.createdAt ?? ctx.clock.nowMs());
  return id;
}

function create(ctx: Emulator, req: Req<'api-keys/create'>) {
  const { name, permission = 'full_access', domain_id } = req.body;
  const teamId = req.auth!.teamId;
  let domainId: string | null = null;
  if (domain_id !== undefined && domain_id !== null) {
    if (permission !== 'sending_access') {
      throw errors.validation('The `domain_id` field can only be used with `sending_access` permission.', 422);
    }
    const domain = ctx.db.prepare('SELECT id FROM domains WHERE id = ? AND team_id = ?').get(domain_id, teamId);
    if (!domain) throw errors.notFound('Domain');
    domainId = domain_id;
  }
  const token = newToken();
  const id = insertApiKey(ctx, { teamId, name, token, permission, domainId });
  return { id, object: 'api_key', token };
}

function list(ctx: Emulator, req: Req<'api-keys/list'>) {
  return paginateTeam(ctx.db, req, {
    table: 'api_keys',
    defaultLimit: null,
    map: (r: any) => ({ id: r.id, name: r.name, created_at: apiTime(r.created_at), last_used_at: apiTime(r.last_used_at) }),
  });
}

function update(ctx: Emulator, req: Req<'api-keys/update'>) {
  const id = req.params.api_key_id;
  const row = ctx.db.prepare('SELECT id FROM api_keys WHERE id = ? AND team_id = ?').get(id, req.auth!.teamId);
  if (!row) throw errors.notFound('API key');
  if (req.body.name !== undefined) ctx.db.prepare('UPDATE api_keys SET name = ? WHERE id = ?').run(req.body.name, id);
  return { object: 'api_key', id };
}

function remove(ctx: Emulator, req: Req<'api-keys/remove'>) {
  const id = req.params.api_key_id;
  const info = ctx.db.prepare('DELETE FROM api_keys WHERE id = ? AND team_id = ?').run(id, req.auth!.teamId);
  if (info.changes === 0) throw errors.notFound('API key');
  return { object: 'list', id, deleted: true };
}

/**
 * `--api-key` on a store that already has state (a `--db` file): the
 * fixtures' default key (`"default": true`) gets that token, or is added
 * again if it was deleted (its team still existing). Returns false when the
 * fixtures name no default key or its team is gone.
 */
export function applyDefaultKeyToken(ctx: Emulator, fixtures: Record<string, any>, token: string): boolean {
  const k = (fixtures.api_keys ?? []).find((x: any) => x.default);
  if (!k) return false;
  const updated = ctx.db.prepare('UPDATE api_keys SET token_hash = ? WHERE id = ?').run(hashToken(token), k.id).changes;
  if (updated) return true;
  if (!ctx.db.prepare('SELECT 1 FROM teams WHERE id = ?').get(k.team_id)) return false;
  insertApiKey(ctx, { id: k.id, teamId: k.team_id, name: k.name, token, permission: k.permission });
  return true;
}

export const apiKeysModule: ResourceModule = {
  name: 'api_keys',
  migrations: [
    {
      version: 100,
      name: 'api_keys',
      sql: `CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT UNIQUE NOT NULL,
        permission TEXT NOT NULL,
        domain_id TEXT,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER
      );
      CREATE INDEX api_keys_team ON api_keys (team_id);`,
    },
  ],
  operations: {
    'api-keys/create': create,
    'api-keys/list': list,
    'api-keys/update': update,
    'api-keys/remove': remove,
  },
  seed(ctx, fixtures) {
    for (const k of fixtures.api_keys ?? []) {
      insertApiKey(ctx, {
        id: k.id,
        teamId: k.team_id,
        name: k.name,
        token: k.default && ctx.config.apiKey ? ctx.config.apiKey : k.token,
        permission: k.permission,
        domainId: k.domain_id ?? null,
        createdAt: k.created_at ? Date.parse(k.created_at) : undefined,
      });
    }
  },
};
