/**
 * The `api_keys` table (owned here: no other room names them): its declaration and every SQL
 * statement on it. Tokens (`re_…`) are stored as sha256 and shown only on
 * creation.
 */
import { createHash } from 'node:crypto';
import type { Auth, Emulator, FoundKey } from '../../context.js';
import { newId, randomAlnum } from '../../http/format.js';
import { teamPager } from '../../http/pagination.js';
import { isStoreFull } from '../../store/full.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** API keys: only the SHA-256 of a token is kept (`token_hash`); `domain_id` limits a `sending_access` key to one domain. */
export const apiKeysTable = defineTable(
  'api_keys',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    /** sha256 hex of the token (`hashToken`): the token itself is shown once, on creation. */
    token_hash: text().unique().notNull(),
    permission: text().notNull().as<Auth['permission']>(),
    /** The one domain a `sending_access` key may send from; null for any. */
    domain_id: text(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms, kept to `LAST_USED_RESOLUTION_MS`; null until the key is first used. */
    last_used_at: integer(),
  },
  {
    indexes: [
      { name: 'api_keys_team', on: 'team_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [apiKeysTable];

/** An `api_keys` row; times in emulated ms. */
export type ApiKeyRow = RowOf<typeof apiKeysTable>;

/** The INSERT of a new key: every column but `seq`. */
const INSERT_API_KEY = apiKeysTable.insert(apiKeysTable.columnsExcept('seq'));

/** What `findApiKey` reads of a key. */
const FOUND_KEY_NAMES = ['id', 'team_id', 'permission', 'domain_id', 'last_used_at'] as const;
const FOUND_KEY_COLUMNS = apiKeysTable.columnList(FOUND_KEY_NAMES);

/** `last_used_at` is kept to this resolution (ms), so busy keys do not write on every request. */
export const LAST_USED_RESOLUTION_MS = 1_000;

/** sha256 hex of a token (how tokens are stored). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

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
  const row: Omit<ApiKeyRow, 'seq'> = {
    id,
    team_id: key.teamId,
    name: key.name,
    token_hash: hashToken(key.token),
    permission: key.permission ?? 'full_access',
    domain_id: key.domainId ?? null,
    created_at: key.createdAt ?? ctx.clock.nowMs(),
    last_used_at: null,
  };
  ctx.db.prepare(INSERT_API_KEY.sql).run(...INSERT_API_KEY.params(row));
  return id;
}

/** True when the team has a key with this id. */
export function apiKeyExists(ctx: Emulator, teamId: string, id: string): boolean {
  return ctx.db.prepare('SELECT 1 FROM api_keys WHERE id = ? AND team_id = ?').get(id, teamId) !== undefined;
}

/** Renames a key. */
export function renameApiKey(ctx: Emulator, id: string, name: string): void {
  ctx.db.prepare('UPDATE api_keys SET name = ? WHERE id = ?').run(name, id);
}

/** Deletes the team's key; false when it had none with this id. */
export function deleteApiKey(ctx: Emulator, teamId: string, id: string): boolean {
  return ctx.db.prepare('DELETE FROM api_keys WHERE id = ? AND team_id = ?').run(id, teamId).changes > 0;
}

/** Gives the key `id` a new token; false when no key has this id. */
export function setApiKeyToken(ctx: Emulator, id: string, token: string): boolean {
  return ctx.db.prepare('UPDATE api_keys SET token_hash = ? WHERE id = ?').run(hashToken(token), id).changes > 0;
}

/**
 * The key of a token, or null when no key of any team has it (`full_access`
 * or `sending_access`: the caller checks the permission). Writes nothing;
 * `markKeyUsed` records the use once the caller accepts it. Used by the
 * request pipeline and the SMTP relay (whose password is an API key)
 * through `ctx.keys`.
 */
export function findApiKey(ctx: Emulator, token: string): FoundKey | null {
  const row = ctx.db
    .prepare(`SELECT ${FOUND_KEY_COLUMNS} FROM api_keys WHERE token_hash = ?`)
    .get(hashToken(token)) as Pick<ApiKeyRow, (typeof FOUND_KEY_NAMES)[number]> | undefined;
  if (!row) return null;
  return { teamId: row.team_id, apiKeyId: row.id, permission: row.permission, domainId: row.domain_id, lastUsedAt: row.last_used_at };
}

/** Sets the key's `last_used_at` to emulated now (at most once a `LAST_USED_RESOLUTION_MS`); returns the caller. */
export function markKeyUsed(ctx: Emulator, key: FoundKey): Auth {
  const now = ctx.clock.nowMs();
  // To the second: a key used many times a second is written once a second.
  if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_RESOLUTION_MS || now < key.lastUsedAt) {
    try {
      ctx.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, key.apiKeyId);
    } catch (err) {
      // Bookkeeping: on a full store (src/store/full.ts) the request goes on, so reads keep working.
      if (!isStoreFull(err)) throw err;
    }
  }
  return { teamId: key.teamId, apiKeyId: key.apiKeyId, permission: key.permission, domainId: key.domainId };
}

/** A page of the team's `api_keys` rows (`paginateTeam` options but the table). */
export const pageApiKeys = teamPager<ApiKeyRow>('api_keys');

/** The columns its list items read (`API_KEY_LIST_COLUMNS`, `ApiKeyListRow`). */
const API_KEY_LIST_NAMES = ['id', 'name', 'created_at', 'last_used_at'] as const;

/** The columns a list of keys reads (`pageApiKeys`' `columns`): never the token's hash. */
export const API_KEY_LIST_COLUMNS = apiKeysTable.columnList(API_KEY_LIST_NAMES);

/** A key as a list reads it (`API_KEY_LIST_COLUMNS`). */
export type ApiKeyListRow = Pick<ApiKeyRow, (typeof API_KEY_LIST_NAMES)[number]>;
