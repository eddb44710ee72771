/**
 * Webhook deliveries: storage, jobs, listing for the admin API. Endpoints
 * themselves (`/webhooks`) live in `src/resources/webhooks/`.
 * | job | does |
 * |---|---|
 * | webhook.deliver `{delivery_id}` | one scheduled attempt; schedules the next on failure (`jobs.ts`) |
 * | webhook.replay `{delivery_id}` | one extra attempt (SDK `webhooks.events.replay`) |
 * Tables: `webhook_deliveries` (one row per event per subscribed webhook; `id`
 * = the `svix-id`, `msg_…`), `webhook_attempts` (one row per HTTP attempt).
 */
import type { ResourceModule } from '../module.js';
import { newAttemptId, webhookDeliverJob, webhookReplayJob } from './jobs.js';
import { giveImportedAttemptsIds, tables } from './store.js';

export const deliveriesModule: ResourceModule = {
  name: 'webhook-deliveries',
  tables,
  // Both detached with the real clock (a slow endpoint holds up no other job): see jobs.ts.
  jobs: [webhookDeliverJob, webhookReplayJob],
  // Attempts of 0.x snapshots made before attempts had ids get one as they are imported.
  imported: (ctx) => void giveImportedAttemptsIds(ctx, newAttemptId),
};
