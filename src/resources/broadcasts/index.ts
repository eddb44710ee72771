/**
 * Broadcasts (docs/reference/interface-spec.md#broadcast; docs/reference/interface-spec.md#versioning 2;
 * docs/reference/resources.md#broadcasts; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 15; reference operations `broadcasts/*`).
 * | operationId | rule |
 * |---|---|
 * | broadcasts/create | `segment_id` required (`audience_id`, its deprecated name, accepted; missing both → 422 `missing_required_field` ``Missing `segment_id` field.``); `from`, `subject` required; `reply_to` string or array; `send` default false; `scheduled_at` only with `send: true` (else 422 `validation_error`); unknown segment → 404 `Audience not found`, unknown topic → 404 `Topic not found` → 201 `{object: "broadcast", id}` |
 * | broadcasts/list | newest first, all when `limit` is omitted; items exactly `{id, name, audience_id, segment_id, status, created_at, scheduled_at, sent_at}` (no `topic_id`, docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 15) |
 * | broadcasts/get | `object: "broadcast"` with every field of docs/reference/resources.md#broadcasts; unknown or another team's → 404 `Broadcast not found` |
 * | broadcasts/update | `draft`/`scheduled`: any field; otherwise only `name` (else 403 `validation_error`) → `{object, id}` |
 * | broadcasts/remove | only `draft`/`scheduled` (a scheduled send is dropped), else 403 `validation_error` → `{object, id, deleted: true}` |
 * | broadcasts/send | `draft`/`scheduled` only (else 403 `validation_error`); needs `html` or `text` (422); `scheduled_at` ISO 8601 or `in 1 hour` (unreadable → 422); future → `scheduled`, else `queued` → `{id}` |
 * | broadcasts/cancel | `scheduled` → `draft`; `queued` → `canceled` (final); other statuses 403 `validation_error` → `{object, id}` |
 * | broadcasts/duplicate | (emulator operationId; the SDK calls it) a new `draft` with the same content → 201 `{object, id}` |
 * | broadcasts/recipients | `type` required (422 `missing_required_parameter`); rows `{id (cursor), contact_id, email}` + `count`/`clicked_links`/`bounce_type` by type |
 * | broadcasts/list-clicked-links | rows `{id (cursor), url, clicks, unique_clicks}`, most clicked first |
 * | admin/unsubscribe, admin/unsubscribe-one-click | the contact's unsubscribe link: see unsubscribe.ts |
 * Jobs and statuses: src/resources/broadcasts/jobs.ts. Rendering of
 * placeholders per contact: render.ts. Every email goes through `sendEmail`
 * (source `broadcast`), so it has its own lifecycle and webhooks.
 */
import type { ResourceModule } from '../../module.js';
import { tables, insertBroadcast } from './store.js';
import { operations } from './handlers.js';
import { unsubscribe } from './unsubscribe.js';
import { broadcastDeliverJob, broadcastStartJob } from './jobs.js';
import type { OperationHandlers } from '../../http/document-types.js';

export const broadcastsModule: ResourceModule = {
  name: 'broadcasts',
  tables,
  // 0.x repeated each broadcast email's broadcast and contact in a table of its own (1.0: on the email row).
  droppedAtBaseline: ['broadcast_emails'],
  operations: { ...operations, 'admin/unsubscribe': unsubscribe, 'admin/unsubscribe-one-click': unsubscribe } satisfies OperationHandlers,
  jobs: [broadcastStartJob, broadcastDeliverJob],
  seed(ctx, fixtures) {
    for (const b of fixtures.broadcasts ?? []) {
      insertBroadcast(ctx, {
        id: b.id,
        teamId: b.team_id,
        content: { name: b.name, segment_id: b.segment_id, from: b.from, subject: b.subject, reply_to: b.reply_to, preview_text: b.preview_text, html: b.html, text: b.text, topic_id: b.topic_id },
        status: b.status ?? 'draft',
        createdAt: b.created_at ? Date.parse(b.created_at) : undefined,
        scheduledAt: b.scheduled_at ? Date.parse(b.scheduled_at) : null,
        sentAt: b.sent_at ? Date.parse(b.sent_at) : null,
      });
    }
  },
};
