/**
 * The oauth resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { insertGrant, tables } from './store.js';

export const oauthModule: ResourceModule = {
  name: 'oauth',
  tables,
  operations,
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
