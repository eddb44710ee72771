/**
 * OAuth grants (reference operations `oauth/list-grants`, `oauth/revoke-grant`).
 * | operationId | rule |
 * |---|---|
 * | oauth/list-grants | every grant of the team, revoked ones included (their `revoked_at`/`revoked_reason` set), newest first; all when `limit` is omitted; items `{id, client_id, scopes, created_at, revoked_at, revoked_reason, client: {name, logo_uri}}` |
 * | oauth/revoke-grant | `{object: "oauth_grant", id, revoked_at (ISO 8601 Z), revoked_reason: "revoked_from_api"}`; 404 `OAuth grant not found` if it does not exist, is another team's or was already revoked (docs: api-reference/oauth/revoke-grant) |
 * | admin/create-oauth-grant | POST /_emulator/oauth-grants `{team_id, client_name?, client_id?, logo_uri?, scopes?}` → 201 the grant; unknown team → 404 `Team not found` |
 * The emulator has no OAuth authorisation flow: grants come from fixtures
 * (`oauth_grants`) and the admin operation.
 */
import type { Emulator } from '../../context.js';
import type { ResourceModule } from '../../module.js';
import { apiTime, isoTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { paginateTeam } from '../../http/pagination.js';
import { Reply } from '../../module.js';
import { teamExists } from '../../state/teams.js';
import type { Req } from '../../http/document-types.js';

/** The reason the service gives to a grant revoked through the API. */
export const REVOKED_FROM_API = 'revoked_from_api';
/** Scopes of a grant created without `scopes`. */
export const DEFAULT_SCOPES = ['emails:send'];

interface GrantRow {
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

/** A grant as listed. */
function toItem(r: GrantRow) {
  return {
    id: r.id,
    client_id: r.client_id,
    scopes: JSON.parse(r.scopes) as string[],
    created_at: apiTime(r.created_at),
    revoked_at: apiTime(r.revoked_at),
    revoked_reason: r.revoked_reason,
    client: { name: r.client_name, logo_uri: r.client_logo_uri },
  };
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

function list(ctx: Emulator, req: Req<'oauth/list-grants'>) {
  return paginateTeam(ctx.db, req, {
    table: 'oauth_grants',
    defaultLimit: null,
    map: toItem,
  });
}

function revoke(ctx: Emulator, req: Req<'oauth/revoke-grant'>) {
  const id = req.params.oauth_grant_id;
  const now = ctx.clock.nowMs();
  const info = ctx.db
    .prepare('UPDATE oauth_grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND team_id = ? AND revoked_at IS NULL')
    .run(now, REVOKED_FROM_API, id, req.auth!.teamId);
  if (info.changes === 0) throw errors.notFound('OAuth grant');
  return { object: 'oauth_grant', id, revoked_at: isoTime(now), revoked_reason: REVOKED_FROM_API };
}

function adminCreate(ctx: Emulator, req: Req<'admin/create-oauth-grant'>) {
  const b = req.body;
  if (!teamExists(ctx, b.team_id)) throw errors.notFound('Team');
  const row = insertGrant(ctx, { teamId: b.team_id, clientName: b.client_name, clientId: b.client_id, logoUri: b.logo_uri, scopes: b.scopes });
  return new Reply(201, toItem(row));
}

export const oauthModule: ResourceModule = {
  name: 'oauth',
  migrations: [
    {
      version: 1500,
      name: 'oauth_grants',
      sql: `CREATE TABLE oauth_grants (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        client_name TEXT NOT NULL,
        client_logo_uri TEXT,
        scopes TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER,
        revoked_reason TEXT
      );
      CREATE INDEX oauth_grants_team ON oauth_grants (team_id, seq);`,
    },
  ],
  operations: {
    'oauth/list-grants': list,
    'oauth/revoke-grant': revoke,
    'admin/create-oauth-grant': adminCreate,
  },
  seed(ctx, fixtures) {
    for (const g of fixtures.oauth_grants ?? []) {
      insertGrant(ctx, {
        id: g.id,
        teamId: g.team_id,
        clientId: g.client_id,
        clientName: g.client_name,
        logoUri: g.logo_uri ?? null,
        scopes: g.scopes,
        createdAt: g.created_at ? Date.parse(g.created_at) : undefined,
        revokedAt: g.revoked_at ? Date.parse(g.revoked_at) : null,
        revokedReason: g.revoked_reason ?? null,
      });
    }
  },
};
