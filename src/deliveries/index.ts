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
import { webhookDeliverJob, webhookReplayJob } from './jobs.js';

export const deliveriesModule: ResourceModule = {
  name: 'webhook-deliveries',
  migrations: [
    {
      version: 350,
      name: 'webhook_deliveries',
      sql: `CREATE TABLE webhook_deliveries (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        next_attempt_at INTEGER
      );
      CREATE INDEX webhook_deliveries_team ON webhook_deliveries (team_id);
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);
      CREATE TABLE webhook_attempts (
        seq INTEGER PRIMARY KEY,
        delivery_id TEXT NOT NULL,
        attempted_at INTEGER NOT NULL,
        wall_time INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        duration_ms INTEGER NOT NULL,
        headers TEXT NOT NULL
      );
      CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);`,
    },
    {
      // `attempt_count` is no longer read or written (attempts are counted
      // from `webhook_attempts`); it stays because migrations are append-only.
      version: 351,
      name: 'webhook_attempt_details',
      sql: `ALTER TABLE webhook_deliveries ADD COLUMN attempt_count INTEGER NOT NULL DEFAULT 0;
      UPDATE webhook_deliveries SET attempt_count = (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id);
      ALTER TABLE webhook_attempts ADD COLUMN id TEXT;
      UPDATE webhook_attempts SET id = 'atmpt_' || lower(hex(randomblob(13))) WHERE id IS NULL;
      CREATE UNIQUE INDEX webhook_attempts_id ON webhook_attempts (id);
      ALTER TABLE webhook_attempts ADD COLUMN response TEXT;
      ALTER TABLE webhook_attempts ADD COLUMN endpoint TEXT;
      ALTER TABLE webhook_attempts ADD COLUMN replay INTEGER NOT NULL DEFAULT 0;`,
    },
  ],
  // Both detached with the real clock (a slow endpoint holds up no other job): see jobs.ts.
  jobs: [webhookDeliverJob, webhookReplayJob],
};
