/**
 * The `oauth_grants` table (owned here: no other room names them): its declaration and the SQL on it.
 */
import type { Emulator } from '../../context.js';
import { newId } from '../../http/format.js';
import { teamPager } from '../../http/pagination.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `oauth_grants` table: the OAuth apps a team granted access to; times in emulated ms. */
export const oauthGrantsTable = defineTable(
  'oauth_grants',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    client_id: text().notNull(),
    client_name: text().notNull(),
    client_logo_uri: text(),
    /** JSON array of scope names. */
    scopes: text().notNull(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms; null while the grant stands. */
    revoked_at: integer(),
    /** `REVOKED_FROM_API` for a grant revoked through the API; null while the grant stands. */
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

/** An `oauth_grants` row. */
export type GrantRow = RowOf<typeof oauthGrantsTable>;

/** The INSERT of a new grant: every column but `seq`. */
const INSERT_GRANT = oauthGrantsTable.insert(oauthGrantsTable.columnsExcept('seq'));

/** Inserts a grant and returns its row. Synchronous; callers validate. */
export function insertGrant(
  ctx: Emulator,
  g: { id?: string; teamId: string; clientId?: string; clientName?: string; logoUri?: string | null; scopes?: string[]; createdAt?: number; revokedAt?: number | null; revokedReason?: string | null },
): GrantRow {
  const row: Omit<GrantRow, 'seq'> = {
    id: g.id ?? newId(),
    team_id: g.teamId,
    client_id: g.clientId ?? newId(),
    client_name: g.clientName ?? 'Example OAuth app',
    client_logo_uri: g.logoUri ?? null,
    scopes: JSON.stringify(g.scopes ?? DEFAULT_SCOPES),
    created_at: g.createdAt ?? ctx.clock.nowMs(),
    revoked_at: g.revokedAt ?? null,
    revoked_reason: g.revokedAt != null ? (g.revokedReason ?? REVOKED_FROM_API) : null,
  };
  const { lastInsertRowid } = ctx.db.prepare(INSERT_GRANT.sql).run(...INSERT_GRANT.params(row));
  return { seq: Number(lastInsertRowid), ...row };
}

/** Revokes the team's grant `id` at `now` (emulated ms); false when it has no such unrevoked grant. */
export function revokeGrant(ctx: Emulator, teamId: string, id: string, now: number): boolean {
  return ctx.db
    .prepare('UPDATE oauth_grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND team_id = ? AND revoked_at IS NULL')
    .run(now, REVOKED_FROM_API, id, teamId).changes > 0;
}

/** A page of the team's `oauth_grants` rows (`paginateTeam` options but the table). */
export const pageGrants = teamPager<GrantRow>('oauth_grants');

/** The columns its list items read (`GRANT_LIST_COLUMNS`, `GrantListRow`). */
const GRANT_LIST_NAMES = ['id', 'client_id', 'scopes', 'created_at', 'revoked_at', 'revoked_reason', 'client_name', 'client_logo_uri'] as const;

/** The columns a list of grants reads (`pageGrants`' `columns`). */
export const GRANT_LIST_COLUMNS = oauthGrantsTable.columnList(GRANT_LIST_NAMES);

/** A grant as a list reads it (`GRANT_LIST_COLUMNS`). */
export type GrantListRow = Pick<GrantRow, (typeof GRANT_LIST_NAMES)[number]>;
