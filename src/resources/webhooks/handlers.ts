/**
 * Handlers of the webhook endpoint operations (see the table in index.ts),
 * then the SDK's `webhooks.events` operations (below).
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { cancelPendingDeliveries, PREVIOUS_SECRET_GRACE_MS, webhookReplayJob } from '../../deliveries/jobs.js';
import { attemptsPage, findWebhookEvent, webhookEventsPage, type EventRow } from '../../deliveries/store.js';
import {
  checkEndpoint, deleteWebhook, getWebhookOr404, insertWebhook, newSigningSecret, pageWebhooks, rotateSecret, updateWebhook, WEBHOOK_LIST_COLUMNS, type WebhookListRow,
} from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { errors } from '../../http/errors.js';

/** POST /webhooks → 201 `{object, id, signing_secret}` (docs/reference/resources.md#webhook-endpoints; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 9). */
function create(ctx: Emulator, req: Req<'webhooks/create'>): Answer<'webhooks/create'> {
  checkEndpoint(req.body.endpoint);
  const row = insertWebhook(ctx, { teamId: req.auth.teamId, endpoint: req.body.endpoint, events: [...new Set(req.body.events)] });
  return { object: 'webhook', id: row.id, signing_secret: row.signing_secret };
}

/** GET /webhooks: items without `object` or secret (docs/reference/interface-spec.md#webhook); all when `limit` is omitted (docs/reference/interface-spec.md#pagination 3). */
function list(ctx: Emulator, req: Req<'webhooks/list'>): Answer<'webhooks/list'> {
  return pageWebhooks(ctx.db, req, {
    defaultLimit: null,
    columns: WEBHOOK_LIST_COLUMNS,
    map: (r: WebhookListRow) => ({ id: r.id, created_at: apiTime(r.created_at), status: r.status, endpoint: r.endpoint, events: JSON.parse(r.events) }),
  });
}

/** GET /webhooks/{id}: with `signing_secret` (docs/reference/interface-spec.md#webhook). */
function get(ctx: Emulator, req: Req<'webhooks/get'>): Answer<'webhooks/get'> {
  const r = getWebhookOr404(ctx, req.auth.teamId, req.params.webhook_id);
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

/**
 * PATCH /webhooks/{id} `{endpoint?, events?, status?}` → `{object, id}`.
 * Disabling cancels the pending deliveries at once (docs/reference/webhooks.md#delivery-and-retries: no more
 * attempts); a new endpoint is used by the next attempt of pending ones.
 */
function update(ctx: Emulator, req: Req<'webhooks/update'>): Answer<'webhooks/update'> {
  const r = getWebhookOr404(ctx, req.auth.teamId, req.params.webhook_id);
  const b = req.body;
  if (b.endpoint !== undefined) checkEndpoint(b.endpoint);
  const status = b.status ?? r.status;
  ctx.db.transaction(() => {
    updateWebhook(ctx, r.id, { endpoint: b.endpoint ?? r.endpoint, events: b.events ? JSON.stringify([...new Set(b.events)]) : r.events, status });
    if (status !== 'enabled') cancelPendingDeliveries(ctx, r.id);
  })();
  return { object: 'webhook', id: r.id };
}

/** DELETE /webhooks/{id} → `{object, id, deleted: true}`; pending deliveries are cancelled (docs/reference/webhooks.md#delivery-and-retries). */
function remove(ctx: Emulator, req: Req<'webhooks/remove'>): Answer<'webhooks/remove'> {
  const r = getWebhookOr404(ctx, req.auth.teamId, req.params.webhook_id);
  ctx.db.transaction(() => {
    cancelPendingDeliveries(ctx, r.id);
    deleteWebhook(ctx, r.id);
  })();
  return { object: 'webhook', id: r.id, deleted: true };
}

/**
 * POST /webhooks/{id}/signing-secret/rotate → `{object, id, signing_secret}`
 * (SDK `webhooks.rotateSigningSecret`). The previous secret keeps signing
 * (a second `v1,` signature) for 24 h of emulated time
 * (D:api-reference/webhooks/rotate-signing-secret); pending retries use both.
 */
function rotate(ctx: Emulator, req: Req<'webhooks/rotate-signing-secret'>): Answer<'webhooks/rotate-signing-secret'> {
  const r = getWebhookOr404(ctx, req.auth.teamId, req.params.webhook_id);
  const secret = newSigningSecret();
  rotateSecret(ctx, r.id, secret, r.signing_secret, ctx.clock.nowMs() + PREVIOUS_SECRET_GRACE_MS);
  return { object: 'webhook', id: r.id, signing_secret: secret };
}

export const endpointOperations = {
  'webhooks/create': create,
  'webhooks/list': list,
  'webhooks/get': get,
  'webhooks/update': update,
  'webhooks/remove': remove,
  'webhooks/rotate-signing-secret': rotate,
} satisfies OperationHandlers;

/*
 * The SDK's `webhooks.events` operations, backed by the deliveries table
 * (`src/deliveries/`): one "webhook event" = one delivery of one event to this
 * webhook, id `msg_…` = its `svix-id` (D:api-reference/webhooks/list-events,
 * get-event, replay-event, list-event-attempts; SDK 6.38 types).
 *
 * Status mapping (delivery → SDK `WebhookEventLogStatus`):
 * | delivery | event |
 * |---|---|
 * | pending, no attempt yet | `pending` |
 * | pending, after a failed attempt (scheduled or replay) | `attempting` |
 * | succeeded | `success` |
 * | failed, cancelled | `failed` |
 * | recorded (`--webhooks record`) | `success` (the emulator's stand-in for "sent") |
 */
/** The SDK status of a delivery (table above). */
function eventStatus(d: Pick<EventRow, 'status' | 'attempted'>): 'success' | 'pending' | 'failed' | 'attempting' {
  switch (d.status) {
    case 'succeeded':
    case 'recorded':
      return 'success';
    case 'pending':
      return d.attempted ? 'attempting' : 'pending';
    default:
      return 'failed';
  }
}

function getEventOr404(ctx: Emulator, teamId: string, webhookId: string, eventId: string): EventRow {
  getWebhookOr404(ctx, teamId, webhookId);
  const row = findWebhookEvent(ctx, teamId, webhookId, eventId);
  if (!row) throw errors.notFound('Webhook event');
  return row;
}

/** GET /webhooks/{id}/events: newest first, `limit` default 20, `after` cursor. */
function listEvents(ctx: Emulator, req: Req<'webhooks/list-events'>): Answer<'webhooks/list-events'> {
  const hook = getWebhookOr404(ctx, req.auth.teamId, req.params.webhook_id);
  return webhookEventsPage(ctx, hook, req.query, (d) => ({ id: d.id, type: d.event_type, created_at: apiTime(d.created_at), status: eventStatus(d) }));
}

/** GET /webhooks/{id}/events/{event_id} → `object: "webhook_event"` with the exact payload sent. */
function getEvent(ctx: Emulator, req: Req<'webhooks/get-event'>): Answer<'webhooks/get-event'> {
  const d = getEventOr404(ctx, req.auth.teamId, req.params.webhook_id, req.params.event_id);
  return {
    object: 'webhook_event',
    id: d.id,
    type: d.event_type,
    created_at: apiTime(d.created_at),
    status: eventStatus(d),
    next_attempt_at: apiTime(d.next_attempt_at),
    payload: JSON.parse(d.payload),
  };
}

/**
 * POST /webhooks/{id}/events/{event_id}/replay → `{object: "webhook_event", id}`:
 * queues one extra attempt now (the `webhook.replay` job; in the manual clock
 * it runs at the next advance). Same `svix-id`, fresh signature.
 */
function replayEvent(ctx: Emulator, req: Req<'webhooks/replay-event'>): Answer<'webhooks/replay-event'> {
  const d = getEventOr404(ctx, req.auth.teamId, req.params.webhook_id, req.params.event_id);
  webhookReplayJob.schedule(ctx, { delivery_id: d.id }, { teamId: d.team_id });
  return { object: 'webhook_event', id: d.id };
}

/**
 * GET /webhooks/{id}/events/{event_id}/attempts: newest first, `limit`
 * default 20, `after` cursor. Items `{id, http_status_code, response,
 * sent_at}`; `http_status_code` is 0 when no response came (timeout, refused
 * connection, record mode) and `response` then holds the reason.
 */
function listAttempts(ctx: Emulator, req: Req<'webhooks/list-event-attempts'>): Answer<'webhooks/list-event-attempts'> {
  const d = getEventOr404(ctx, req.auth.teamId, req.params.webhook_id, req.params.event_id);
  return attemptsPage(ctx, d.id, req.query, (a) => ({
    id: a.id,
    http_status_code: a.status_code ?? 0,
    response: a.response ?? a.error ?? '',
    sent_at: apiTime(a.attempted_at),
  }));
}

export const webhookEventOperations = {
  'webhooks/list-events': listEvents,
  'webhooks/get-event': getEvent,
  'webhooks/replay-event': replayEvent,
  'webhooks/list-event-attempts': listAttempts,
} satisfies OperationHandlers;
