/**
 * Admin API for sent emails: /_emulator/emails (inspection, long-poll, links, attachments download) and simulated opens/clicks.
 * (Being built: see CONTRIBUTING.md.)
 */
import type { ResourceModule } from '../http/types.js';

export const adminEmailsModule: ResourceModule = {
  name: 'admin-emails',
};
