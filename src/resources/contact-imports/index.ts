/**
 * The contact-imports resource: the module (operations in `handlers.ts`, tables in
 * `store.ts`, what other rooms use in `service.ts`).
 */
import type { ResourceModule } from '../../module.js';
import { operations } from './handlers.js';
import { tables, pendingUploads } from './store.js';
import { importRunJob, importStartJob } from './jobs.js';

export const contactImportsModule: ResourceModule = {
  name: 'contact-imports',
  tables,
  operations,
  jobs: [importStartJob, importRunJob],
  // The CSVs of imports not yet run (a finished import has no file_path).
  uploads: pendingUploads,
};
