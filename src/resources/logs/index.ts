/**
 * The logs resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { tables, recordRequest } from './store.js';

export const logsModule: ResourceModule = {
  name: 'logs',
  tables,
  operations,
  onResponse: recordRequest,
};
