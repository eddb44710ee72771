/**
 * Admin API for received emails: POST /_emulator/inbound.
 * (Being built: see CONTRIBUTING.md.)
 */
import type { ResourceModule } from '../http/types.js';

export const inboundModule: ResourceModule = {
  name: 'admin-inbound',
};
