/**
 * Reading recorded webhook deliveries, for `/_emulator/webhook-deliveries`,
 * the inbox page and `emu.webhookDeliveries()`.
 */
import type { Emulator } from '../context.js';
import { isoTime } from '../http/format.js';
import type { DeliveryAttempt, DeliveryFilter, DeliveryStatus, WebhookDelivery } from '../public-types.js';
import { attemptsOf, deliveriesWhere, deliveryRow, type DeliveryRow, type WebhookAttemptRow } from './store.js';

// The shapes are public (`emu.webhookDeliveries()`): declared in src/public-types.ts.
export type { DeliveryAttempt, DeliveryFilter, DeliveryStatus, WebhookDelivery };

/** The keys of `DeliveryFilter`, in the order failure messages list them (src/testing/matchers.ts). */
export const DELIVERY_FILTER_KEYS = ['event_type', 'status', 'webhook_id', 'team_id'] as const;

/** A delivery row and its attempts (oldest first) in the public shape (times ISO 8601; JSON columns parsed). */
function toDelivery(r: DeliveryRow, attempts: readonly WebhookAttemptRow[]): WebhookDelivery {
  const last = attempts[attempts.length - 1];
  return {
    id: r.id,
    team_id: r.team_id,
    webhook_id: r.webhook_id,
    event_type: r.event_type,
    payload: JSON.parse(r.payload),
    body: r.payload,
    headers: last ? JSON.parse(last.headers) : null,
    status: r.status,
    created_at: isoTime(r.created_at)!,
    next_attempt_at: isoTime(r.next_attempt_at),
    attempts: attempts.map((a) => ({
      id: a.id,
      at: isoTime(a.attempted_at)!,
      wall_time: isoTime(a.wall_time)!,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      endpoint: a.endpoint ?? null,
      response: a.response ?? null,
      headers: JSON.parse(a.headers),
      replay: Boolean(a.replay),
    })),
  };
}

/** Deliveries matching the filter, oldest first, with their attempts (two queries, whatever the count). Unknown filter keys are ignored. */
export function listDeliveries(ctx: Emulator, filter: DeliveryFilter = {}): WebhookDelivery[] {
  const where: string[] = [];
  const params: string[] = [];
  for (const key of DELIVERY_FILTER_KEYS) {
    if (filter[key] !== undefined) {
      where.push(`${key} = ?`);
      params.push(String(filter[key]));
    }
  }
  const { rows, attempts: all } = deliveriesWhere(ctx, where, params);
  const attempts = new Map<string, WebhookAttemptRow[]>();
  for (const a of all) {
    const list = attempts.get(a.delivery_id);
    if (list) list.push(a);
    else attempts.set(a.delivery_id, [a]);
  }
  return rows.map((r) => toDelivery(r, attempts.get(r.id) ?? []));
}

/** One delivery by id (`msg_…`), or undefined. */
export function getDelivery(ctx: Emulator, id: string): WebhookDelivery | undefined {
  const r = deliveryRow(ctx, id);
  if (!r) return undefined;
  return toDelivery(r, attemptsOf(ctx, id));
}
