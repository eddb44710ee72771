/**
 * Webhook endpoints (interface-spec "Webhooks"; API-FACTS §5.15, §8 #9-10):
 * | operationId | rule |
 * |---|---|
 * | webhooks/create | `{endpoint (URL), events (≥1 known type)}` → 201 `{object: "webhook", id, signing_secret}`, status `enabled` |
 * | webhooks/list | items `{id, created_at, status, endpoint, events}`, no secret (SPEC); all when `limit` is omitted |
 * | webhooks/get | `object: "webhook"` with `signing_secret` (`whsec_` + base64 of 24 bytes) |
 * | webhooks/update | `endpoint`, `events`, `status` → `{object, id}`; takes effect on pending retries |
 * | webhooks/remove | `{object, id, deleted: true}`; pending deliveries get no further attempts |
 * Deliveries themselves: `src/webhooks/`.
 */
import { randomBytes } from 'node:crypto';
import type { Emulator } from '../../context.js';
import type { OpRequest, ResourceModule } from '../../http/types.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';

interface WebhookRow {
  seq: number;
  id: string;
  team_id: string;
  endpoint: string;
  events: string;
  status: string;
  signing_secret: string;
  created_at: number;
}

/** A new signing secret: `whsec_` + base64 of 24 random bytes (API-FACTS §4, §6). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function getOr404(ctx: Emulator, teamId: string, id: string): WebhookRow {
  const row = ctx.db.prepare('SELECT * FROM webhooks WHERE id = ? AND team_id = ?').get(id, teamId) as WebhookRow | undefined;
  if (!row) throw errors.notFound('Webhook');
  return row;
}

/** Inserts a webhook endpoint; returns its row. */
export function insertWebhook(ctx: Emulator, w: { id?: string; teamId: string; endpoint: string; events: string[]; status?: string; signingSecret?: string; createdAt?: number }): WebhookRow {
  const id = w.id ?? newId();
  ctx.db
    .prepare('INSERT INTO webhooks (id, team_id, endpoint, events, status, signing_secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, w.teamId, w.endpoint, JSON.stringify(w.events), w.status ?? 'enabled', w.signingSecret ?? newSigningSecret(), w.createdAt ?? ctx.clock.nowMs());
  return ctx.db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow;
}

function create(ctx: Emulator, req: OpRequest<{ endpoint: string; events: string[] }>) {
  const row = insertWebhook(ctx, { teamId: req.auth!.teamId, endpoint: req.body.endpoint, events: [...new Set(req.body.events)] });
  return { object: 'webhook', id: row.id, signing_secret: row.signing_secret };
}

function list(ctx: Emulator, req: OpRequest) {
  return paginate(ctx.db, {
    table: 'webhooks',
    where: 'team_id = ?',
    params: [req.auth!.teamId],
    query: req.query,
    defaultLimit: null,
    map: (r: WebhookRow) => ({ id: r.id, created_at: apiTime(r.created_at), status: r.status, endpoint: r.endpoint, events: JSON.parse(r.events) }),
  });
}

function get(ctx: Emulator, req: OpRequest) {
  const r = getOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  return {
    object: 'webhook',
    id: r.id,
    created_at: apiTime(r.created_at),
    status: r.status,
    endpoint: r.endpoint,
    events: JSON.parse(r.events),
    signing_secret: r.signing_secret,
  };
}

function update(ctx: Emulator, req: OpRequest<{ endpoint?: string; events?: string[]; status?: string }>) {
  const r = getOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  const b = req.body;
  ctx.db
    .prepare('UPDATE webhooks SET endpoint = ?, events = ?, status = ? WHERE id = ?')
    .run(b.endpoint ?? r.endpoint, b.events ? JSON.stringify([...new Set(b.events)]) : r.events, b.status ?? r.status, r.id);
  return { object: 'webhook', id: r.id };
}

function remove(ctx: Emulator, req: OpRequest) {
  const r = getOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  ctx.db.prepare('DELETE FROM webhooks WHERE id = ?').run(r.id);
  return { object: 'webhook', id: r.id, deleted: true };
}

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  migrations: [
    {
      version: 300,
      name: 'webhooks',
      sql: `CREATE TABLE webhooks (
        seq INTEGER PRIMARY KEY,
        id TEXT UNIQUE NOT NULL,
        team_id TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        events TEXT NOT NULL,
        status TEXT NOT NULL,
        signing_secret TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX webhooks_team ON webhooks (team_id);`,
    },
  ],
  operations: {
    'webhooks/create': create,
    'webhooks/list': list,
    'webhooks/get': get,
    'webhooks/update': update,
    'webhooks/remove': remove,
  },
  seed(ctx, fixtures) {
    for (const w of fixtures.webhooks ?? []) {
      insertWebhook(ctx, { id: w.id, teamId: w.team_id, endpoint: w.endpoint, events: w.events, status: w.status, signingSecret: w.signing_secret, createdAt: w.created_at ? Date.parse(w.created_at) : undefined });
    }
  },
};
