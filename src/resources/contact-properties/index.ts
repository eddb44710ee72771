/**
 * The contact-properties resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { insertProperty, tables } from './store.js';

export const contactPropertiesModule: ResourceModule = {
  name: 'contact-properties',
  tables,
  operations,
  seed(ctx, fixtures) {
    for (const p of fixtures.contact_properties ?? []) {
      insertProperty(ctx, { id: p.id, teamId: p.team_id, key: p.key, type: p.type, fallbackValue: p.fallback_value ?? null, createdAt: p.created_at ? Date.parse(p.created_at) : undefined });
    }
  },
};
