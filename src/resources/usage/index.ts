/**
 * The usage resource: GET /usage, the quotas of `--plan` (src/state/plans.ts)
 * and the usage ledger (service.ts), whose one table counts what the rooms
 * that send and receive record.
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { forget } from './service.js';
import { usageTable } from './store.js';

export const usageModule: ResourceModule = {
  name: 'usage',
  tables: [usageTable],
  operations,
  // Reset and a snapshot import empty every table: the counts of those rows go, and the rooms record what they store next.
  cleared: forget,
};
