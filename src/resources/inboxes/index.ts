/**
 * The inboxes resource: shared inboxes on receiving domains, their threads,
 * labels, drafts and agent settings (operations in `handlers.ts`, tables in
 * `store.ts`, mail in and out in `mail.ts`, what other rooms use in
 * `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { tables } from './store.js';
import { purgeThreadJob } from './jobs.js';
import { seedInbox, type FixtureInbox } from './mail.js';
import { domainIdByName } from '../domains/service.js';

export const inboxesModule: ResourceModule = {
  name: 'inboxes',
  tables,
  operations,
  jobs: [purgeThreadJob],
  seed(ctx, fixtures) {
    for (const f of (fixtures.inboxes ?? []) as FixtureInbox[]) {
      seedInbox(ctx, f, domainIdByName(ctx, f.team_id, f.email_address.split('@').pop()!));
    }
  },
};
