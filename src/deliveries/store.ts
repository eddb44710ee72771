/**
 * The deliveries' tables (owned here: no other room names them): `webhook_deliveries` (one
 * row per event per subscribed webhook; `id` = the `svix-id`, `msg_…`) and
 * `webhook_attempts` (one row per HTTP attempt): their declarations, and the
 * reads the webhooks resource's `webhooks.events` operations and the admin
 * API make of them. Recording is in `emit.ts`, attempts in `jobs.ts`.
 */
import type { Emulator } from '../context.js';
import { paginate, type ListEnvelope, type PageQuery } from '../http/pagination.js';
import type { DeliveryStatus } from '../public-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../store/table.js';

/** Webhook deliveries: one per event and subscribed endpoint; `payload` the exact body sent; attempts are counted from `webhook_attempts`. */
export const webhookDeliveriesTable = defineTable(
  'webhook_deliveries',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    webhook_id: text().notNull(),
    event_type: text().notNull(),
    /** The exact body sent (JSON text). */
    payload: text().notNull(),
    status: text().notNull().as<DeliveryStatus>(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms of the next scheduled attempt; null when none is due. */
    next_attempt_at: integer(),
  },
  {
    indexes: [
      { name: 'webhook_deliveries_team', on: 'team_id' },
      { name: 'webhook_deliveries_webhook', on: 'webhook_id' },
    ],
    // 0.x kept a count of attempts here too, which nothing read.
    droppedAtBaseline: ['attempt_count'],
  },
);

/** The attempts of a delivery: status, timing, the request headers and the response (`replay` 1 for an admin replay). */
export const webhookAttemptsTable = defineTable(
  'webhook_attempts',
  {
    seq: seq(),
    delivery_id: text().notNull(),
    /** Emulated ms. */
    attempted_at: integer().notNull(),
    /** Wall-clock ms the request started. */
    wall_time: integer().notNull(),
    /** HTTP status answered; null when none came (timeout, refused, record mode). */
    status_code: integer(),
    error: text(),
    duration_ms: integer().notNull(),
    /** The request's headers, JSON text. */
    headers: text().notNull(),
    /**
     * `atmpt_…`. Nullable in the schema because 0.x snapshots of versions 5
     * and 6 hold attempts without one; such an attempt gets an id as it is
     * imported (`giveImportedAttemptsIds`), so a stored attempt always has
     * one (the attempts list answers `id` as a string).
     */
    id: text().as<string>(),
    /** The endpoint's response body (first 4 096 characters), or null. */
    response: text(),
    /** The endpoint the attempt went to (the webhook's at that moment); null in attempts imported from old snapshots. */
    endpoint: text(),
    /** 1 for an admin replay, 0 for a scheduled attempt. */
    replay: integer().notNull().default(0),
  },
  {
    indexes: [
      { name: 'webhook_attempts_delivery', on: 'delivery_id' },
      { name: 'webhook_attempts_id', on: 'id', unique: true },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [webhookDeliveriesTable, webhookAttemptsTable];

/** A `webhook_deliveries` row; times in emulated ms, `payload` the exact body sent. */
export type DeliveryRow = RowOf<typeof webhookDeliveriesTable>;

/** A `webhook_attempts` row; `attempted_at` emulated ms, `wall_time` wall-clock ms. */
export type WebhookAttemptRow = RowOf<typeof webhookAttemptsTable>;

/** A delivery with `attempted` (1 when any attempt, scheduled or replay, was made). */
export type EventRow = DeliveryRow & { attempted: number };

/** The columns of an `EventRow`: `attempted` is derived, through the `webhook_attempts_delivery` index. */
const EVENT_COLUMNS = '*, EXISTS(SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id) AS attempted';

/** The team's delivery `id` to webhook `webhookId`, with `attempted`, or undefined. */
export function findWebhookEvent(ctx: Emulator, teamId: string, webhookId: string, id: string): EventRow | undefined {
  return ctx.db
    .prepare(`SELECT ${EVENT_COLUMNS} FROM webhook_deliveries WHERE id = ? AND webhook_id = ? AND team_id = ?`)
    .get(id, webhookId, teamId) as EventRow | undefined;
}

/** A page of a webhook's deliveries, newest first (`limit` default 20). */
export function webhookEventsPage<T>(ctx: Emulator, hook: { id: string; team_id: string }, query: PageQuery, map: (d: EventRow) => T): ListEnvelope<T> {
  return paginate(ctx.db, {
    table: 'webhook_deliveries',
    where: 'webhook_id = ? AND team_id = ?',
    params: [hook.id, hook.team_id],
    query,
    defaultLimit: 20,
    columns: EVENT_COLUMNS,
    map,
  });
}

/** An attempt as the attempts list reads it (times: emulated `attempted_at` ms). */
export type AttemptRow = Pick<WebhookAttemptRow, 'id' | 'attempted_at' | 'status_code' | 'error' | 'response'>;

/** A page of a delivery's attempts, newest first (`limit` default 20). */
export function attemptsPage<T>(ctx: Emulator, deliveryId: string, query: PageQuery, map: (a: AttemptRow) => T): ListEnvelope<T> {
  return paginate(ctx.db, { table: 'webhook_attempts', where: 'delivery_id = ?', params: [deliveryId], query, defaultLimit: 20, map });
}

/** The INSERT of a new delivery: every column but `seq`. */
const INSERT_DELIVERY = webhookDeliveriesTable.insert(webhookDeliveriesTable.columnsExcept('seq'));

/** Records a `pending` delivery of an event to a webhook, due now (`now` emulated ms). */
export function insertDelivery(ctx: Emulator, d: { id: string; teamId: string; webhookId: string; type: string; payload: string; now: number }): void {
  const row: Omit<DeliveryRow, 'seq'> = {
    id: d.id,
    team_id: d.teamId,
    webhook_id: d.webhookId,
    event_type: d.type,
    payload: d.payload,
    status: 'pending',
    created_at: d.now,
    next_attempt_at: d.now,
  };
  ctx.db.prepare(INSERT_DELIVERY.sql).run(...INSERT_DELIVERY.params(row));
}

/**
 * Deliveries whose columns equal the given values (`where`: `"<column> = ?"`
 * terms of known column names, ANDed; `params` their values), oldest first,
 * and all their attempts, oldest first: two queries whatever the count.
 */
export function deliveriesWhere(ctx: Emulator, where: string[], params: string[]): { rows: DeliveryRow[]; attempts: WebhookAttemptRow[] } {
  const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const rows = ctx.db.prepare(`SELECT * FROM webhook_deliveries ${cond} ORDER BY seq`).all(...params) as DeliveryRow[];
  const attempts = ctx.db
    .prepare(`SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries ${cond}) ORDER BY seq`)
    .all(...params) as WebhookAttemptRow[];
  return { rows, attempts };
}

/** A delivery's attempts, oldest first. */
export function attemptsOf(ctx: Emulator, deliveryId: string): WebhookAttemptRow[] {
  return ctx.db.prepare('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY seq').all(deliveryId) as WebhookAttemptRow[];
}

/** The delivery row `id` (`msg_…`), or undefined. */
export function deliveryRow(ctx: Emulator, id: string): DeliveryRow | undefined {
  return ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

/** Sets a delivery's status and next attempt time (emulated ms, or null). */
export function setDeliveryStatus(ctx: Emulator, id: string, status: DeliveryStatus, nextAttemptAt: number | null): void {
  ctx.db.prepare('UPDATE webhook_deliveries SET status = ?, next_attempt_at = ? WHERE id = ?').run(status, nextAttemptAt, id);
}

/** Marks a webhook's pending deliveries `cancelled`; returns their ids. */
export function cancelPendingOf(ctx: Emulator, webhookId: string): string[] {
  return (
    ctx.db
      .prepare(`UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL WHERE webhook_id = ? AND status = 'pending' RETURNING id`)
      .all(webhookId) as { id: string }[]
  ).map((r) => r.id);
}

/**
 * Deletes the deliveries of events about any of `emailIds` (their payload's
 * `data.email_id`: the `email.*` events) and their attempts; returns the
 * deleted delivery ids. Call in the caller's transaction.
 */
export function deleteDeliveriesOfEmails(ctx: Emulator, emailIds: readonly string[]): string[] {
  if (emailIds.length === 0) return [];
  const ids = (
    ctx.db
      .prepare(`DELETE FROM webhook_deliveries WHERE json_extract(payload, '$.data.email_id') IN (SELECT value FROM json_each(?)) RETURNING id`)
      .all(JSON.stringify(emailIds)) as { id: string }[]
  ).map((r) => r.id);
  if (ids.length) ctx.db.prepare('DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
  return ids;
}

/** The INSERT of a new attempt: every column but `seq`. */
const INSERT_ATTEMPT = webhookAttemptsTable.insert(webhookAttemptsTable.columnsExcept('seq'));

/** Records one attempt (`at` emulated ms, `wallTime` wall-clock ms, `headers` JSON text). */
export function insertAttempt(
  ctx: Emulator,
  a: { id: string; deliveryId: string; at: number; wallTime: number; statusCode: number | null; error: string | null; durationMs: number; headers: string; response: string | null; endpoint: string; replay: boolean },
): void {
  const row: Omit<WebhookAttemptRow, 'seq'> = {
    delivery_id: a.deliveryId,
    attempted_at: a.at,
    wall_time: a.wallTime,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
    headers: a.headers,
    id: a.id,
    response: a.response,
    endpoint: a.endpoint,
    replay: a.replay ? 1 : 0,
  };
  ctx.db.prepare(INSERT_ATTEMPT.sql).run(...INSERT_ATTEMPT.params(row));
}

/** Scheduled (non-replay) attempts made so far, through the `webhook_attempts_delivery` index. */
export function scheduledAttempts(ctx: Emulator, deliveryId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = ? AND replay = 0').get(deliveryId) as { n: number }).n;
}

/**
 * Gives each attempt without an id (one imported from a 0.x snapshot of
 * version 5 or 6, made before attempts had ids) a new one from `newId`, in
 * the import's transaction (the module's `imported` hook), so the attempts
 * list never answers `id: null`. Returns how many it gave.
 */
export function giveImportedAttemptsIds(ctx: Emulator, newId: () => string): number {
  const seqs = ctx.db.prepare('SELECT seq FROM webhook_attempts WHERE id IS NULL').pluck().all() as number[];
  const give = ctx.db.prepare('UPDATE webhook_attempts SET id = ? WHERE seq = ?');
  for (const seq of seqs) give.run(newId(), seq);
  return seqs.length;
}
