/**
 * The `oauth_grants` table (owned here: no other room names them): its declaration and the SQL on it.
 */
import type { Emulator } from '../../context.js';
import { newId } from '../../http/format.js';
import { teamPager } from '../../http/pagination.js';
import { defineTable, id, integer, seq, text } from '../../store/table.js';

/** The `oauth_grants` table. */
export const oauthGrantsTable = defineTable(
  'oauth_grants',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    client_id: text().notNull(),
    client_name: text().notNull(),
    client_logo_uri: text(),
    scopes: text().notNull(),
    created_at: integer().notNull(),
    revoked_at: integer(),
    revoked_reason: text(),
  },
  {
    indexes: [
      { name: 'oauth_grants_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [oauthGrantsTable];

/** The reason the service gives to a grant revoked through the API. */
export const REVOKED_FROM_API = 'revoked_from_api';
/** Scopes of a grant created without `scopes`. */
export const DEFAULT_SCOPES = ['emails:send'];

export interface GrantRow {
  seq: number;
  id: string;
  team_id: string;
  client_id: string;
  client_name: string;
  client_logo_uri: string | null;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
}

/** Inserts a grant and returns its row. Synchronous; callers validate. */
export function insertGrant(
  ctx: Emulator,
  g: { id?: string; teamId: string; clientId?: string; clientName?: string; logoUri?: string | null; scopes?: string[]; createdAt?: number; revokedAt?: number | null; revokedReason?: string | null },
): GrantRow {
  const id = g.id ?? newId();
  ctx.db
    .prepare(
      `INSERT INTO oauth_grants (id, team_id, client_id, client_name, client_logo_uri, scopes, created_at, revoked_at, revoked_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      g.teamId,
      g.clientId ?? newId(),
      g.clientName ?? 'Example OAuth app',
      g.logoUri ?? null,
      JSON.stringify(g.scopes ?? DEFAULT_SCOPES),
      g.createdAt ?? ctx.clock.nowMs(),
      g.revokedAt ?? null,
      g.revokedAt != null ? (g.revokedReason ?? REVOKED_FROM_API) : null,
    );
  return ctx.db.prepare('SELECT * FROM oauth_grants WHERE id = ?').get(id) as GrantRow;
}

/** Revokes the team's grant `id` at `now` (emulated ms); false when it has no such unrevoked grant. */
export function revokeGrant(ctx: Emulator, teamId: string, id: string, now: number): boolean {
  return ctx.db
    .prepare('UPDATE oauth_grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND team_id = ? AND revoked_at IS NULL')
    .run(now, REVOKED_FROM_API, id, teamId).changes > 0;
}

/** A page of the team's `oauth_grants` rows (`paginateTeam` options but the table). */
export const pageGrants = teamPager<GrantRow>('oauth_grants');
