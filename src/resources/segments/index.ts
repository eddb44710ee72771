/**
 * The segments resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { insertSegment, tables } from './store.js';

export const segmentsModule: ResourceModule = {
  name: 'segments',
  tables,
  operations,
  seed(ctx, fixtures) {
    for (const s of fixtures.segments ?? []) {
      insertSegment(ctx, { id: s.id, teamId: s.team_id, name: s.name, createdAt: s.created_at ? Date.parse(s.created_at) : undefined });
    }
  },
};
