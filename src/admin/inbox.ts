/**
 * The inbox page at /_emulator/ and its live updates (server-sent events), team listing.
 * (Being built: see CONTRIBUTING.md.)
 */
import type { ResourceModule } from '../http/types.js';

export const inboxModule: ResourceModule = {
  name: 'admin-inbox',
};
