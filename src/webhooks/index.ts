/**
 * Webhook deliveries: storage, the `webhook.deliver` job, listing for the
 * admin API. Endpoints themselves (`/webhooks`) live in
 * `src/resources/webhooks/`.
 */
import type { ResourceModule } from '../http/types.js';
import { deliver } from './delivery.js';

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
  ],
  jobs: {
    'webhook.deliver': (ctx, job) => deliver(ctx, job.payload.delivery_id),
  },
};
