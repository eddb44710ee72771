/**
 * Raising webhook events (docs/reference/design.md#webhooks; docs/reference/webhooks.md).
 * `emitEvent` records one delivery per enabled webhook of the team that is
 * subscribed to the event type, with the payload `{type, created_at, data}`
 * (created_at: emulated time, ISO 8601 `Z`) serialised once, so the bytes
 * signed are the bytes sent. Each delivery gets a `webhook.deliver` job due
 * now; the request that raised the event never waits for delivery (in the
 * manual clock the first attempt is made at the next advance, in the real
 * clock at once, in the background).
 */
import type { SchemaOf } from '../http/document-types.js';
import type { Emulator } from '../context.js';
import { isoTime, randomAlnum } from '../http/format.js';
import { webhookDeliverJob } from './jobs.js';
import { insertDelivery } from './store.js';

/**
 * Webhook event types a webhook may subscribe to (docs/reference/webhooks.md#event-types): the OA list,
 * the SDK's suppression events, and the public types of the newest
 * event-types page (`contact.topics.updated`, `topic.*`), and the 14
 * `inbox.*` types of the SDK's `WebhookEvent` (docs/reference/inboxes.md#webhook-events). Generated
 * from `EventType` in spec/paths/webhooks.yaml, the one list.
 */
export type EventType = SchemaOf<'EventType'>;

/** A Standard Webhooks message id (the `webhook-id` header, the delivery's id): `msg_` + 27 alphanumerics (docs/reference/formats.md#ids-and-tokens). Not an email's Message-ID (receiving's `newMessageId`). */
export function newWebhookMessageId(): string {
  return `msg_${randomAlnum(27)}`;
}

/** The subscriptions `emitEvent` read during `withSubscriptionsKept`, by store, then `team type`. */
const memos = new WeakMap<object, Map<string, string[]>>();

/**
 * Runs `fn` (synchronous) with the webhook subscriptions `emitEvent` reads
 * kept for its duration: each team and event type is looked up once, not
 * once per event. For work that raises many events and changes no webhook
 * (a broadcast batch's lifecycle steps, where a lookup per step is a
 * measurable share of the broadcast: docs/benchmarks.md#figures-behind-the-code). Nested calls share the outer
 * one's.
 */
export function withSubscriptionsKept<T>(ctx: Emulator, fn: () => T): T {
  if (memos.has(ctx.db)) return fn();
  memos.set(ctx.db, new Map());
  try {
    return fn();
  } finally {
    memos.delete(ctx.db);
  }
}

/**
 * Records the event for every subscribed, enabled webhook of `teamId` and
 * schedules its delivery. Synchronous: call it inside the transaction that
 * made the change, so the event exists exactly when the change does.
 * `data` may be a function: it is called only when some webhook listens (an
 * email step builds its webhook data for nobody otherwise).
 * Returns the delivery ids.
 */
export function emitEvent(ctx: Emulator, teamId: string, type: EventType, data: Record<string, unknown> | (() => Record<string, unknown>)): string[] {
  const memo = memos.get(ctx.db);
  const key = `${teamId} ${type}`;
  let hooks = memo?.get(key);
  if (!hooks) {
    hooks = ctx.webhooks.subscribed(ctx, teamId, type);
    memo?.set(key, hooks);
  }
  if (hooks.length === 0) return [];
  const now = ctx.clock.nowMs();
  const payload = JSON.stringify({ type, created_at: isoTime(now), data: typeof data === 'function' ? data() : data });
  const ids: string[] = [];
  for (const webhookId of hooks) {
    const id = newWebhookMessageId();
    insertDelivery(ctx, { id, teamId, webhookId, type, payload, now });
    webhookDeliverJob.schedule(ctx, { delivery_id: id }, { dueAt: now, teamId });
    ids.push(id);
  }
  for (const id of ids) ctx.bus.emit('delivery', id);
  return ids;
}
