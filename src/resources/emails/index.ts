/**
 * The emails resource. (Being built: see CONTRIBUTING.md for what a module holds.)
 */
import type { ResourceModule } from '../../http/types.js';

export const emailsModule: ResourceModule = {
  name: 'emails',
};
