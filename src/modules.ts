/**
 * The composition root: every module of the emulator, in seeding order (a
 * module's fixtures may refer to rows seeded before it), and the `Ports`
 * (src/context.ts) by which one room serves another without an import
 * circle, each given here by the service that implements it. `prepare`
 * (src/server.ts) builds every emulator's context from these two, and
 * nothing sets a port afterwards. A module declares its tables (`tables`)
 * and the migrations after the 1.0 baseline (`migrations`, numbered in the
 * order written across all modules, src/store/schema.ts).
 */
import type { Ports } from './context.js';
import type { ResourceModule } from './module.js';
import { apiKeyStore } from './resources/api-keys/service.js';
import { webhookDirectory } from './resources/webhooks/service.js';
import { inboxRouter } from './resources/inboxes/service.js';
import { teamsModule } from './state/teams.js';
import { apiKeysModule } from './resources/api-keys/index.js';
import { domainsModule } from './resources/domains/index.js';
import { webhooksModule } from './resources/webhooks/index.js';
import { deliveriesModule } from './deliveries/index.js';
import { contactPropertiesModule } from './resources/contact-properties/index.js';
import { topicsModule } from './resources/topics/index.js';
import { segmentsModule } from './resources/segments/index.js';
import { contactsModule } from './resources/contacts/index.js';
import { contactImportsModule } from './resources/contact-imports/index.js';
import { templatesModule } from './resources/templates/index.js';
import { suppressionsModule } from './resources/suppressions/index.js';
import { emailsModule } from './resources/emails/index.js';
import { receivingModule } from './resources/receiving/index.js';
import { broadcastsModule } from './resources/broadcasts/index.js';
import { eventsModule } from './resources/events/index.js';
import { automationsModule } from './resources/automations/index.js';
import { logsModule } from './resources/logs/index.js';
import { oauthModule } from './resources/oauth/index.js';
import { inboxesModule } from './resources/inboxes/index.js';
import { usageModule } from './resources/usage/index.js';
import { adminModule } from './admin/index.js';
import { adminEmailsModule } from './admin/emails.js';
import { adminChecksModule } from './admin/checks.js';
import { inboxModule } from './admin/inbox.js';
import { inboundModule } from './admin/inbound.js';
import { dashboardModule } from './admin/dashboard.js';
import { adminFaultsModule } from './admin/faults.js';
import { adminInboxesModule } from './admin/inboxes.js';

export const modules: ResourceModule[] = [
  teamsModule,
  apiKeysModule,
  domainsModule,
  webhooksModule,
  deliveriesModule,
  contactPropertiesModule,
  topicsModule,
  segmentsModule,
  contactsModule,
  contactImportsModule,
  templatesModule,
  suppressionsModule,
  emailsModule,
  receivingModule,
  broadcastsModule,
  eventsModule,
  automationsModule,
  logsModule,
  oauthModule,
  inboxesModule,
  usageModule,
  adminModule,
  adminEmailsModule,
  adminChecksModule,
  inboxModule,
  inboundModule,
  dashboardModule,
  adminFaultsModule,
  adminInboxesModule,
];

/** The ports between rooms, each implemented by the service of the room that owns its tables. */
export const ports: Ports = Object.freeze({
  keys: apiKeyStore,
  webhooks: webhookDirectory,
  inboxes: inboxRouter,
});
