/**
 * Webhook endpoints (docs/reference/interface-spec.md#webhook; docs/reference/resources.md#webhook-endpoints; docs/reference/webhooks.md; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ rows 9-10):
 * | operationId | rule |
 * |---|---|
 * | webhooks/create | `{endpoint (http(s) URL with a host), events (≥1 known type, deduplicated)}` → 201 `{object: "webhook", id, signing_secret}`, status `enabled`; bad endpoint 422 `invalid_parameter`, unknown event type or empty `events` 422 `validation_error` |
 * | webhooks/list | items `{id, created_at, status, endpoint, events}`, no secret (docs/reference/interface-spec.md#webhook); all when `limit` is omitted |
 * | webhooks/get | `object: "webhook"` with `signing_secret` (`whsec_` + base64 of 24 bytes) |
 * | webhooks/update | `endpoint`, `events`, `status` → `{object, id}`; a new endpoint/secret is used by the next attempt of pending deliveries; `disabled` cancels them |
 * | webhooks/remove | `{object, id, deleted: true}`; pending deliveries are cancelled |
 * | webhooks/rotate-signing-secret | new secret → `{object, id, signing_secret}`; the old one co-signs for 24 h |
 * | webhooks/list-events | the webhook's deliveries `{id: msg_…, type, created_at, status}`, newest first, default 20 |
 * | webhooks/get-event | `{object: "webhook_event", id, type, created_at, status, next_attempt_at, payload}` |
 * | webhooks/replay-event | queues one extra attempt now → `{object: "webhook_event", id}` |
 * | webhooks/list-event-attempts | `{id: atmpt_…, http_status_code, response, sent_at}`, newest first, default 20 |
 * Another team's webhook or event is 404 `not_found`. Delivery itself:
 * `src/deliveries/`.
 */
import type { ResourceModule } from '../../module.js';
import { endpointOperations, webhookEventOperations } from './handlers.js';
import { insertWebhook, tables } from './store.js';
import type { OperationHandlers } from '../../http/document-types.js';

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  tables,
  operations: { ...endpointOperations, ...webhookEventOperations } satisfies OperationHandlers,
  seed(ctx, fixtures) {
    for (const w of fixtures.webhooks ?? []) {
      insertWebhook(ctx, { id: w.id, teamId: w.team_id, endpoint: w.endpoint, events: w.events, status: w.status, signingSecret: w.signing_secret, createdAt: w.created_at ? Date.parse(w.created_at) : undefined });
    }
  },
};
