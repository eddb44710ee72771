/**
 * Topics (interface-spec "Topic", "Topics", "Pagination" rule 2; API-FACTS §5.10):
 * | operationId | rule |
 * |---|---|
 * | topics/create | `{name ≤50, default_subscription opt_in\|opt_out (required), description ≤200, visibility public\|private (default private)}` → 201 `{object: "topic", id}` (REC) |
 * | topics/list | items `{id, name, description, default_subscription, visibility, created_at}`; `limit` defaults to 20 (SPEC) |
 * | topics/get | the item plus `object: "topic"`; unknown → 404 `Topic not found` |
 * | topics/update | `name`, `description`, `visibility`; `default_subscription` is immutable (422 `validation_error`) → `{object, id}` |
 * | topics/remove | `{object: "topic", id, deleted: true}` (REC); contacts' choices for it are dropped |
 */
import type { Emulator } from '../../context.js';
import type { OperationHandler } from '../../module.js';
import { errors } from '../../http/errors.js';
import { deleteTopic, getTopicOr404, insertTopic, pageTopics, toTopic, toTopicItem, updateTopic, type TopicRow, TOPIC_LIST_COLUMNS } from './store.js';
import type { Req } from '../../http/document-types.js';
import { removeTopicSubscriptions } from '../contacts/service.js';

function create(ctx: Emulator, req: Req<'topics/create'>) {
  const b = req.body;
  const row = insertTopic(ctx, { teamId: req.auth!.teamId, name: b.name, description: b.description ?? null, defaultSubscription: b.default_subscription, visibility: b.visibility });
  return { object: 'topic', id: row.id };
}

function list(ctx: Emulator, req: Req<'topics/list'>) {
  return pageTopics(ctx.db, req, {
    defaultLimit: 20,
    columns: TOPIC_LIST_COLUMNS,
    map: (r: TopicRow) => toTopicItem(r),
  });
}

function get(ctx: Emulator, req: Req<'topics/get'>) {
  return toTopic(getTopicOr404(ctx, req.auth!.teamId, req.params.id));
}

function update(ctx: Emulator, req: Req<'topics/update'>) {
  const row = getTopicOr404(ctx, req.auth!.teamId, req.params.id);
  const b = req.body;
  if (b.default_subscription !== undefined && b.default_subscription !== row.default_subscription) {
    throw errors.validation('The `default_subscription` field cannot be changed after the topic is created.', 422);
  }
  updateTopic(ctx, row.id, { name: b.name ?? row.name, description: b.description !== undefined ? b.description : row.description, visibility: b.visibility ?? row.visibility });
  return { object: 'topic', id: row.id };
}

function remove(ctx: Emulator, req: Req<'topics/remove'>) {
  const row = getTopicOr404(ctx, req.auth!.teamId, req.params.id);
  ctx.db.transaction(() => {
    removeTopicSubscriptions(ctx, row.id);
    deleteTopic(ctx, row.id);
  })();
  return { object: 'topic', id: row.id, deleted: true };
}

/** The topics operations, by operationId. */
export const operations: Record<string, OperationHandler> = {
  'topics/create': create,
  'topics/list': list,
  'topics/get': get,
  'topics/update': update,
  'topics/remove': remove,
};
