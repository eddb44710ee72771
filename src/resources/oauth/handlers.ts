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
import { apiTime, isoTime } from '../../http/format.js';
import { insertGrant, revokeGrant, REVOKED_FROM_API, pageGrants, GRANT_LIST_COLUMNS, type GrantListRow } from './store.js';
import { errors } from '../../http/errors.js';
import { Reply } from '../../module.js';
import { teamExists } from '../../state/teams.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

/** A grant as listed. */
function toItem(r: GrantListRow) {
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

function list(ctx: Emulator, req: Req<'oauth/list-grants'>): Answer<'oauth/list-grants'> {
  return pageGrants(ctx.db, req, {
    defaultLimit: null,
    columns: GRANT_LIST_COLUMNS,
    map: toItem,
  });
}

function revoke(ctx: Emulator, req: Req<'oauth/revoke-grant'>): Answer<'oauth/revoke-grant'> {
  const id = req.params.oauth_grant_id;
  const now = ctx.clock.nowMs();
  if (!revokeGrant(ctx, req.auth.teamId, id, now)) throw errors.notFound('OAuth grant');
  return { object: 'oauth_grant', id, revoked_at: isoTime(now), revoked_reason: REVOKED_FROM_API };
}

function adminCreate(ctx: Emulator, req: Req<'admin/create-oauth-grant'>): Answer<'admin/create-oauth-grant'> {
  const b = req.body;
  if (!teamExists(ctx, b.team_id)) throw errors.notFound('Team');
  const row = insertGrant(ctx, { teamId: b.team_id, clientName: b.client_name, clientId: b.client_id, logoUri: b.logo_uri, scopes: b.scopes });
  return new Reply(201, toItem(row));
}

/** The oauth operations, by operationId. */
export const operations = {
  'oauth/list-grants': list,
  'oauth/revoke-grant': revoke,
  'admin/create-oauth-grant': adminCreate,
} satisfies OperationHandlers;
