/**
 * The usage resource: GET /usage and the quotas of `--plan` (src/state/plans.ts).
 * It has no table: it counts through the other rooms' `service.ts`
 * (`service.ts` here), so its migration range is empty.
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';

export const usageModule: ResourceModule = {
  name: 'usage',
  migrations: [],
  operations,
};
