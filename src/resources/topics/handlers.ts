/**
 * Topics (docs/reference/interface-spec.md#topic; docs/reference/interface-spec.md#pagination rule 2; docs/reference/resources.md#topics):
 * | operationId | rule |
 * |---|---|
 * | topics/create | `{name ≤50, default_subscription opt_in\|opt_out (required), description ≤200, visibility public\|private (default private)}` → 201 `{object: "topic", id}` (REC) |
 * | topics/list | items `{id, name, description?, default_subscription, visibility, created_at}` (`description` left out when unset: SDK `description?: string`); `limit` defaults to 20 (docs/reference/interface-spec.md#pagination) |
 * | topics/get | the item plus `object: "topic"`; unknown → 404 `Topic not found` |
 * | topics/update | `name`, `description`, `visibility`; `default_subscription` is immutable (422 `validation_error`) → `{object, id}` |
 * | topics/remove | `{object: "topic", id, deleted: true}` (REC); contacts' choices for it are dropped |
 * Each change raises its webhook event in its transaction: `topic.created`,
 * `topic.updated`, `topic.deleted`, data `TopicEventData` (SDK 6.38;
 * D:webhooks/topics/*).
 */
import type { Emulator } from '../../context.js';
import { deleteTopic, getTopicOr404, insertTopic, pageTopics, toTopic, toTopicItem, topicEventData, updateTopic, type TopicRow, TOPIC_LIST_COLUMNS } from './store.js';
import { emitEvent } from '../../deliveries/emit.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { topicMessages } from './messages.js';

function create(ctx: Emulator, req: Req<'topics/create'>): Answer<'topics/create'> {
  const b = req.body;
  const teamId = req.auth.teamId;
  const row = ctx.db.transaction(() => {
    const created = insertTopic(ctx, { teamId, name: b.name, description: b.description ?? null, defaultSubscription: b.default_subscription, visibility: b.visibility });
    emitEvent(ctx, teamId, 'topic.created', topicEventData(created));
    return created;
  })();
  return { object: 'topic', id: row.id };
}

function list(ctx: Emulator, req: Req<'topics/list'>): Answer<'topics/list'> {
  return pageTopics(ctx.db, req, {
    defaultLimit: 20,
    columns: TOPIC_LIST_COLUMNS,
    map: (r: TopicRow) => toTopicItem(r),
  });
}

function get(ctx: Emulator, req: Req<'topics/get'>): Answer<'topics/get'> {
  return toTopic(getTopicOr404(ctx, req.auth.teamId, req.params.id));
}

function update(ctx: Emulator, req: Req<'topics/update'>): Answer<'topics/update'> {
  const row = getTopicOr404(ctx, req.auth.teamId, req.params.id);
  const b = req.body;
  if (b.default_subscription !== undefined && b.default_subscription !== row.default_subscription) {
    throw topicMessages.defaultSubscriptionFixed();
  }
  ctx.db.transaction(() => {
    const updated = updateTopic(ctx, row.id, { name: b.name ?? row.name, description: b.description !== undefined ? b.description : row.description, visibility: b.visibility ?? row.visibility });
    emitEvent(ctx, row.team_id, 'topic.updated', topicEventData(updated));
  })();
  return { object: 'topic', id: row.id };
}

function remove(ctx: Emulator, req: Req<'topics/remove'>): Answer<'topics/remove'> {
  const row = getTopicOr404(ctx, req.auth.teamId, req.params.id);
  ctx.db.transaction(() => {
    deleteTopic(ctx, row.id);
    emitEvent(ctx, row.team_id, 'topic.deleted', topicEventData(row, ctx.clock.nowMs()));
  })();
  return { object: 'topic', id: row.id, deleted: true };
}

/** The topics operations, by operationId. */
export const operations = {
  'topics/create': create,
  'topics/list': list,
  'topics/get': get,
  'topics/update': update,
  'topics/remove': remove,
} satisfies OperationHandlers;
