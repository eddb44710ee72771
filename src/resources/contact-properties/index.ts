/**
 * The contact-properties resource. (Being built: see CONTRIBUTING.md for what a module holds.)
 */
import type { ResourceModule } from '../../http/types.js';

export const contactPropertiesModule: ResourceModule = {
  name: 'contact-properties',
};
