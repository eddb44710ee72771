/**
 * Reading recorded webhook deliveries, for `/_emulator/webhook-deliveries`,
 * the inbox page and `emu.webhookDeliveries()`.
 */
import type { Emulator } from '../context.js';
import { isoTime } from '../http/format.js';
import type { SchemaOf } from '../http/document-types.js';
import { attemptsOf, deliveriesWhere, deliveryRow } from './store.js';

/** A delivery's status, as the document's `WebhookDelivery` names them (`pending`, `succeeded`, `failed`, `recorded`, `cancelled`). */
export type DeliveryStatus = SchemaOf<'WebhookDelivery'>['status'];

/** One attempt at a delivery. Times: ISO 8601 (emulated `at`, wall-clock `wall_time`). */
export interface DeliveryAttempt {
  /** `atmpt_…`. */
  id: string;
  /** Emulated time of the attempt. */
  at: string;
  /** Wall-clock time the request started (the signature's time). */
  wall_time: string;
  /** HTTP status answered, or null when none came (timeout, refused, record mode). */
  status_code: number | null;
  /** Why the attempt failed (non-2xx, timeout, network error), or null on success. */
  error: string | null;
  /** Wall-clock duration of the request, ms. */
  duration_ms: number;
  /** The endpoint the attempt went to (the webhook's endpoint at that moment). */
  endpoint: string | null;
  /** The endpoint's response body (first 4 096 characters), or null. */
  response: string | null;
  /** Headers sent (svix-id, svix-timestamp, svix-signature, content-type, user-agent). */
  headers: Record<string, string>;
  /** True for an attempt made by a replay rather than the retry schedule. */
  replay: boolean;
}

/** A recorded delivery: the exact payload sent, its headers and attempts. */
export interface WebhookDelivery {
  /** The `svix-id` (`msg_…`), the same on every attempt. */
  id: string;
  team_id: string;
  webhook_id: string;
  event_type: string;
  /** Parsed payload `{type, created_at, data}`. */
  payload: { type: string; created_at: string; data: Record<string, any> };
  /** The raw body, as signed and sent. */
  body: string;
  /** Headers of the latest attempt, or null before the first. */
  headers: Record<string, string> | null;
  /** `pending` | `succeeded` | `failed` | `recorded` | `cancelled`. */
  status: DeliveryStatus;
  created_at: string;
  /** When the next scheduled attempt is due (emulated), or null. */
  next_attempt_at: string | null;
  /** Attempts oldest first. */
  attempts: DeliveryAttempt[];
}

/** Filters: all optional, combined with AND. */
export interface DeliveryFilter {
  team_id?: string;
  webhook_id?: string;
  event_type?: string;
  status?: string;
}

/** The keys of `DeliveryFilter`, in the order failure messages list them (src/testing/matchers.ts). */
export const DELIVERY_FILTER_KEYS = ['event_type', 'status', 'webhook_id', 'team_id'] as const;

function toDelivery(r: any, attempts: any[]): WebhookDelivery {
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
  const attempts = new Map<string, any[]>();
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
