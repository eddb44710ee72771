/**
 * The inboxes resource: shared inboxes on receiving domains, their threads,
 * labels, drafts and agent settings (operations in `handlers.ts`, tables in
 * `store.ts`, mail in and out in `mail.ts`, what other rooms use in
 * `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { migrations } from './store.js';
import { purgeThreadJob } from './jobs.js';

export const inboxesModule: ResourceModule = {
  name: 'inboxes',
  migrations,
  operations,
  jobs: [purgeThreadJob],
};
