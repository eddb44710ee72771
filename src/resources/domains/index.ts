/**
 * The domains resource: handlers of domains and claims (`handlers.ts`), the
 * claims' rules (`claims.ts`), DNS records (`records.ts`), the tables,
 * shapes and events (`store.ts`), what other rooms use (`service.ts`), clock
 * jobs (`jobs.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { claimOperations, domainOperations, insertDomain } from './handlers.js';
import { tables } from './store.js';
import { claimExpireJob, claimVerifyJob, domainVerifyJob } from './jobs.js';
import type { OperationHandlers } from '../../http/document-types.js';

export const domainsModule: ResourceModule = {
  name: 'domains',
  tables,
  operations: { ...domainOperations, ...claimOperations } satisfies OperationHandlers,
  jobs: [domainVerifyJob, claimVerifyJob, claimExpireJob],
  seed(ctx, fixtures) {
    for (const d of fixtures.domains ?? []) {
      insertDomain(ctx, d.team_id, d, { id: d.id, status: d.status ?? 'verified', created_at: d.created_at ? Date.parse(d.created_at) : undefined });
    }
  },
};
