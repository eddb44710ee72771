/**
 * The receiving resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { migrations } from './store.js';

export const receivingModule: ResourceModule = {
  name: 'receiving',
  migrations,
  operations,
};
