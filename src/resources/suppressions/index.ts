/**
 * The suppressions resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { insertSuppressionRow, tables } from './store.js';

export const suppressionsModule: ResourceModule = {
  name: 'suppressions',
  tables,
  operations,
  seed(ctx, fixtures) {
    for (const s of fixtures.suppressions ?? []) {
      insertSuppressionRow(ctx, { id: s.id, teamId: s.team_id, email: s.email, origin: s.origin ?? 'manual', sourceId: s.source_id ?? null, createdAt: s.created_at ? Date.parse(s.created_at) : ctx.clock.nowMs() });
    }
  },
};
