/**
 * The domains resource: domains (`domains.ts`), claims (`claims.ts`), DNS
 * records (`records.ts`), shapes and events (`service.ts`), clock jobs
 * (`jobs.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { domainOperations, insertDomain } from './domains.js';
import { claimOperations } from './claims.js';
import { claimExpireJob, claimVerifyJob, domainVerifyJob } from './jobs.js';

export const domainsModule: ResourceModule = {
  name: 'domains',
  migrations: [
    {
      version: 200,
      name: 'domains',
      sql: `CREATE TABLE domains (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        region TEXT NOT NULL,
        capabilities TEXT NOT NULL,
        open_tracking INTEGER NOT NULL DEFAULT 0,
        click_tracking INTEGER NOT NULL DEFAULT 0,
        tracking_subdomain TEXT,
        custom_return_path TEXT NOT NULL DEFAULT 'send',
        tls TEXT NOT NULL DEFAULT 'opportunistic',
        dkim_value TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX domains_team ON domains (team_id);
      CREATE INDEX domains_name ON domains (name, status);
      CREATE TABLE domain_claims (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        domain_id TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        region TEXT NOT NULL,
        record_value TEXT NOT NULL,
        blocked_reason TEXT,
        failure_reason TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX domain_claims_domain ON domain_claims (domain_id);`,
    },
  ],
  operations: { ...domainOperations, ...claimOperations },
  jobs: [domainVerifyJob, claimVerifyJob, claimExpireJob],
  seed(ctx, fixtures) {
    for (const d of fixtures.domains ?? []) {
      insertDomain(ctx, d.team_id, d, { id: d.id, status: d.status ?? 'verified', created_at: d.created_at ? Date.parse(d.created_at) : undefined });
    }
  },
};
