/**
 * The api-keys resource (table and rules in `handlers.ts`, `store.ts`; what
 * other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { apiKeyOperations } from './handlers.js';
import { insertApiKey, tables } from './store.js';

export const apiKeysModule: ResourceModule = {
  name: 'api_keys',
  tables,
  operations: apiKeyOperations,
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
