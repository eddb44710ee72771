/**
 * The suppressions resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { migrations } from './store.js';

export const suppressionsModule: ResourceModule = {
  name: 'suppressions',
  migrations,
  operations,
  seed(ctx, fixtures) {
    const insert = ctx.db.prepare('INSERT INTO suppressions (id, team_id, email, email_key, origin, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const s of fixtures.suppressions ?? []) {
      insert.run(s.id, s.team_id, s.email, String(s.email).toLowerCase(), s.origin ?? 'manual', s.source_id ?? null, s.created_at ? Date.parse(s.created_at) : ctx.clock.nowMs());
    }
  },
};
