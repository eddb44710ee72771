/**
 * Reading recorded webhook deliveries, for `/_emulator/webhook-deliveries`
 * and `emu.webhookDeliveries()`.
 */
import type { Emulator } from '../context.js';
import { isoTime } from '../http/format.js';

/** One attempt at a delivery. Times: ISO 8601 (emulated `at`, wall-clock `wall_time`). */
export interface DeliveryAttempt {
  at: string;
  wall_time: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A recorded delivery: the exact payload sent, its headers and attempts. */
export interface WebhookDelivery {
  id: string;
  team_id: string;
  webhook_id: string;
  event_type: string;
  /** Parsed payload `{type, created_at, data}`. */
  payload: { type: string; created_at: string; data: Record<string, any> };
  /** The raw body, as signed and sent. */
  body: string;
  /** Headers of the latest attempt (svix-id, svix-timestamp, svix-signature, ...), or null before the first. */
  headers: Record<string, string> | null;
  /** `pending` | `succeeded` | `failed` | `recorded` | `cancelled`. */
  status: string;
  created_at: string;
  next_attempt_at: string | null;
  attempts: DeliveryAttempt[];
}

/** Filters: all optional, combined with AND. */
export interface DeliveryFilter {
  team_id?: string;
  webhook_id?: string;
  event_type?: string;
  status?: string;
}

/** Deliveries matching the filter, oldest first. */
export function listDeliveries(ctx: Emulator, filter: DeliveryFilter = {}): WebhookDelivery[] {
  const where: string[] = [];
  const params: string[] = [];
  for (const key of ['team_id', 'webhook_id', 'event_type', 'status'] as const) {
    if (filter[key] !== undefined) {
      where.push(`${key} = ?`);
      params.push(filter[key]!);
    }
  }
  const rows = ctx.db
    .prepare(`SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq`)
    .all(...params) as any[];
  const attemptsOf = ctx.db.prepare('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY seq');
  return rows.map((r) => {
    const attempts = attemptsOf.all(r.id) as any[];
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
        at: isoTime(a.attempted_at)!,
        wall_time: isoTime(a.wall_time)!,
        status_code: a.status_code,
        error: a.error,
        duration_ms: a.duration_ms,
      })),
    };
  });
}
