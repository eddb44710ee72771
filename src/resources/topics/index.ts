/**
 * The topics resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { insertTopic, tables } from './store.js';

export const topicsModule: ResourceModule = {
  name: 'topics',
  tables,
  operations,
  seed(ctx, fixtures) {
    for (const t of fixtures.topics ?? []) {
      insertTopic(ctx, { id: t.id, teamId: t.team_id, name: t.name, description: t.description ?? null, defaultSubscription: t.default_subscription, visibility: t.visibility, createdAt: t.created_at ? Date.parse(t.created_at) : undefined });
    }
  },
};
