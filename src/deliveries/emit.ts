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

/** The webhook subscriptions of one store: `team type` → ids of the enabled webhooks subscribed (`ctx.webhooks.subscribed`). */
type Subscriptions = Map<string, string[]>;

/** Each store's subscriptions (`subscriptionsOf`): created with the store's first event, dropped with the store. */
const subscriptionsByStore = new WeakMap<object, Subscriptions>();

/**
 * The subscriptions `emitEvent` has looked up in this emulator's store,
 * kept until a webhook may have changed: emptied by the webhooks room's
 * writes (`forgetSubscriptions`: an endpoint created, updated or deleted)
 * and on the bus's `reset` (a reset or snapshot import replaced every
 * webhook). A team and event type is looked up once between changes, not
 * once per event (a broadcast raises one per email step:
 * docs/benchmarks.md#figures-behind-the-code).
 */
function subscriptionsOf(ctx: Emulator): Subscriptions {
  let kept = subscriptionsByStore.get(ctx.db);
  if (!kept) {
    const made: Subscriptions = new Map();
    subscriptionsByStore.set(ctx.db, made);
    ctx.bus.on('reset', () => made.clear());
    kept = made;
  }
  return kept;
}

/**
 * Forgets the subscriptions kept for this store: the webhooks room calls it
 * with each write of the `webhooks` table that may change who gets an event
 * (a new, updated or deleted endpoint), in the same synchronous step, so the
 * next event reads the table again.
 */
export function forgetSubscriptions(ctx: Emulator): void {
  subscriptionsByStore.get(ctx.db)?.clear();
}

/** Ids of the enabled webhooks of `teamId` subscribed to `type` (what `emitEvent` records a delivery for), oldest first; none for a type no webhook can take. */
export function subscribers(ctx: Emulator, teamId: string, type: string): readonly string[] {
  const kept = subscriptionsOf(ctx);
  const key = `${teamId} ${type}`;
  let hooks = kept.get(key);
  if (!hooks) {
    hooks = ctx.webhooks.subscribed(ctx, teamId, type);
    kept.set(key, hooks);
  }
  return hooks;
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
  const hooks = subscribers(ctx, teamId, type);
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
