/**
 * Handlers of the webhook endpoint operations (see the table in index.ts).
 */
import type { Emulator } from '../../context.js';
import type { OperationHandler } from '../../module.js';
import { apiTime } from '../../http/format.js';
import { paginateTeam } from '../../http/pagination.js';
import { cancelPendingDeliveries, PREVIOUS_SECRET_GRACE_MS } from '../../webhooks/jobs.js';
import { checkEndpoint, getWebhookOr404, insertWebhook, newSigningSecret, type WebhookRow } from './store.js';
import type { Req } from '../../http/document-types.js';

/** POST /webhooks → 201 `{object, id, signing_secret}` (API-FACTS §5.15, §8 #9). */
function create(ctx: Emulator, req: Req<'webhooks/create'>) {
  checkEndpoint(req.body.endpoint);
  const row = insertWebhook(ctx, { teamId: req.auth!.teamId, endpoint: req.body.endpoint, events: [...new Set(req.body.events)] });
  return { object: 'webhook', id: row.id, signing_secret: row.signing_secret };
}

/** GET /webhooks: items without `object` or secret (SPEC "Webhook"); all when `limit` is omitted (SPEC "Pagination" 3). */
function list(ctx: Emulator, req: Req<'webhooks/list'>) {
  return paginateTeam(ctx.db, req, {
    table: 'webhooks',
    defaultLimit: null,
    map: (r: WebhookRow) => ({ id: r.id, created_at: apiTime(r.created_at), status: r.status, endpoint: r.endpoint, events: JSON.parse(r.events) }),
  });
}

/** GET /webhooks/{id}: with `signing_secret` (SPEC "Webhook"). */
function get(ctx: Emulator, req: Req<'webhooks/get'>) {
  const r = getWebhookOr404(ctx, req.auth!.teamId, req.params.webhook_id);
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
 * Disabling cancels the pending deliveries at once (API-FACTS §6: no more
 * attempts); a new endpoint is used by the next attempt of pending ones.
 */
function update(ctx: Emulator, req: Req<'webhooks/update'>) {
  const r = getWebhookOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  const b = req.body;
  if (b.endpoint !== undefined) checkEndpoint(b.endpoint);
  const status = b.status ?? r.status;
  ctx.db.transaction(() => {
    ctx.db
      .prepare('UPDATE webhooks SET endpoint = ?, events = ?, status = ? WHERE id = ?')
      .run(b.endpoint ?? r.endpoint, b.events ? JSON.stringify([...new Set(b.events)]) : r.events, status, r.id);
    if (status !== 'enabled') cancelPendingDeliveries(ctx, r.id);
  })();
  return { object: 'webhook', id: r.id };
}

/** DELETE /webhooks/{id} → `{object, id, deleted: true}`; pending deliveries are cancelled (API-FACTS §6). */
function remove(ctx: Emulator, req: Req<'webhooks/remove'>) {
  const r = getWebhookOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  ctx.db.transaction(() => {
    cancelPendingDeliveries(ctx, r.id);
    ctx.db.prepare('DELETE FROM webhooks WHERE id = ?').run(r.id);
  })();
  return { object: 'webhook', id: r.id, deleted: true };
}

/**
 * POST /webhooks/{id}/signing-secret/rotate → `{object, id, signing_secret}`
 * (SDK `webhooks.rotateSigningSecret`). The previous secret keeps signing
 * (a second `v1,` signature) for 24 h of emulated time
 * (D:api-reference/webhooks/rotate-signing-secret); pending retries use both.
 */
function rotate(ctx: Emulator, req: Req<'webhooks/rotate-signing-secret'>) {
  const r = getWebhookOr404(ctx, req.auth!.teamId, req.params.webhook_id);
  const secret = newSigningSecret();
  ctx.db
    .prepare('UPDATE webhooks SET signing_secret = ?, previous_signing_secret = ?, previous_secret_expires_at = ? WHERE id = ?')
    .run(secret, r.signing_secret, ctx.clock.nowMs() + PREVIOUS_SECRET_GRACE_MS, r.id);
  return { object: 'webhook', id: r.id, signing_secret: secret };
}

export const endpointOperations: Record<string, OperationHandler> = {
  'webhooks/create': create,
  'webhooks/list': list,
  'webhooks/get': get,
  'webhooks/update': update,
  'webhooks/remove': remove,
  'webhooks/rotate-signing-secret': rotate,
};
