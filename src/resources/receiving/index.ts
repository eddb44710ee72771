/**
 * The receiving resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { recordImportedReceived, tables } from './store.js';

export const receivingModule: ResourceModule = {
  name: 'receiving',
  tables,
  operations,
  // A snapshot's received emails go in as rows: they are recorded in the usage ledger from them.
  imported: recordImportedReceived,
};
