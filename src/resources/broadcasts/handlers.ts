/**
 * Operation handlers of the broadcasts resource (rules: the table in index.ts).
 */
import type { Emulator } from '../../context.js';
import { replyToList } from '../../http/format.js';
import { paginateTeam } from '../../http/pagination.js';
import {
  BROADCAST_LIST_COLUMNS, BROADCASTS, contentOf, deleteBroadcast, getOr404, insertBroadcast, toBroadcast, toListItem, updateBroadcast, type BroadcastChanges, type BroadcastRow,
} from './store.js';
import { cancelBroadcast, dropJobs, sendBroadcast } from './jobs.js';
import { broadcastMessages } from './messages.js';
import { clickedLinks, recipients, type RecipientType } from './stats.js';
import { getSegmentOr404 } from '../segments/service.js';
import { getTopicOr404 } from '../topics/service.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';


/** `segment_id`, else its deprecated name `audience_id` (docs/reference/interface-spec.md#versioning 1-2). */
function segmentOf(body: { segment_id?: string; audience_id?: string }): string | undefined {
  return body.segment_id ?? body.audience_id;
}

function create(ctx: Emulator, req: Req<'broadcasts/create'>): Answer<'broadcasts/create'> {
  const b = req.body;
  const teamId = req.auth.teamId;
  if (b.scheduled_at !== undefined && b.scheduled_at !== null && b.send !== true) {
    throw broadcastMessages.scheduledAtWithoutSend();
  }
  const segmentId = segmentOf(b)!;
  getSegmentOr404(ctx, teamId, segmentId);
  if (b.topic_id) getTopicOr404(ctx, teamId, b.topic_id);
  const id = ctx.db.transaction(() => {
    const row = insertBroadcast(ctx, { teamId, content: { ...b, segment_id: segmentId } });
    if (b.send === true) sendBroadcast(ctx, row, b.scheduled_at);
    return row.id;
  })();
  return { object: 'broadcast', id };
}

function list(ctx: Emulator, req: Req<'broadcasts/list'>): Answer<'broadcasts/list'> {
  return paginateTeam(ctx.db, req, {
    table: BROADCASTS,
    defaultLimit: null,
    columns: BROADCAST_LIST_COLUMNS,
    map: toListItem,
  });
}

function get(ctx: Emulator, req: Req<'broadcasts/get'>): Answer<'broadcasts/get'> {
  return toBroadcast(getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id));
}

function update(ctx: Emulator, req: Req<'broadcasts/update'>): Answer<'broadcasts/update'> {
  const teamId = req.auth.teamId;
  const row = getOr404(ctx.db, teamId, req.params.broadcast_id);
  const b = req.body;
  // `audience_id` is the older name of `segment_id` (docs/reference/resources.md#domains-and-claims); `segment_id` wins when both are given.
  const segmentId = b.segment_id !== undefined ? b.segment_id : b.audience_id;
  const changes: BroadcastChanges = {};
  // Only the document's fields, each named here: no body key reaches the SQL (pruneBody drops the others first).
  if (b.name !== undefined) changes.name = b.name ?? '';
  if (segmentId !== undefined) changes.segment_id = segmentId;
  if (b.from !== undefined) changes.from_address = b.from;
  if (b.subject !== undefined) changes.subject = b.subject;
  if (b.reply_to !== undefined) {
    const r = replyToList(b.reply_to as string | string[] | null);
    changes.reply_to = r ? JSON.stringify(r) : null;
  }
  if (b.preview_text !== undefined) changes.preview_text = b.preview_text ?? null;
  if (b.html !== undefined) changes.html = b.html ?? null;
  if (b.text !== undefined) changes.text = b.text ?? null;
  if (b.topic_id !== undefined) changes.topic_id = b.topic_id ?? null;
  const editable = row.status === 'draft' || row.status === 'scheduled';
  if (!editable && Object.keys(changes).some((f) => f !== 'name')) {
    throw broadcastMessages.notEditable(row.status);
  }
  if (typeof changes.segment_id === 'string') getSegmentOr404(ctx, teamId, changes.segment_id);
  if (typeof changes.topic_id === 'string') getTopicOr404(ctx, teamId, changes.topic_id);
  updateBroadcast(ctx, row.id, changes);
  return { object: 'broadcast', id: row.id };
}

function remove(ctx: Emulator, req: Req<'broadcasts/remove'>): Answer<'broadcasts/remove'> {
  const row = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  if (row.status !== 'draft' && row.status !== 'scheduled') {
    throw broadcastMessages.notDeletable(row.status);
  }
  ctx.db.transaction(() => {
    dropJobs(ctx, row.id);
    deleteBroadcast(ctx, row.id);
  })();
  return { object: 'broadcast', id: row.id, deleted: true };
}

function send(ctx: Emulator, req: Req<'broadcasts/send'>): Answer<'broadcasts/send'> {
  const row = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  ctx.db.transaction(() => sendBroadcast(ctx, row, req.body?.scheduled_at))();
  return { id: row.id };
}

function cancel(ctx: Emulator, req: Req<'broadcasts/cancel'>): Answer<'broadcasts/cancel'> {
  const row = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  ctx.db.transaction(() => cancelBroadcast(ctx, row))();
  return { object: 'broadcast', id: row.id };
}

function duplicate(ctx: Emulator, req: Req<'broadcasts/duplicate'>): Answer<'broadcasts/duplicate'> {
  const r: BroadcastRow = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  const copy = insertBroadcast(ctx, {
    teamId: r.team_id,
    content: contentOf(r),
  });
  return { object: 'broadcast', id: copy.id };
}

function listRecipients(ctx: Emulator, req: Req<'broadcasts/recipients'>): Answer<'broadcasts/recipients'> {
  const row = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  return recipients(ctx, row, req.query as { type: RecipientType; email?: string; bounce_type?: string });
}

function listClickedLinks(ctx: Emulator, req: Req<'broadcasts/list-clicked-links'>): Answer<'broadcasts/list-clicked-links'> {
  const row = getOr404(ctx.db, req.auth.teamId, req.params.broadcast_id);
  return clickedLinks(ctx, row, req.query);
}

export const operations = {
  'broadcasts/create': create,
  'broadcasts/list': list,
  'broadcasts/get': get,
  'broadcasts/update': update,
  'broadcasts/remove': remove,
  'broadcasts/send': send,
  'broadcasts/cancel': cancel,
  'broadcasts/duplicate': duplicate,
  'broadcasts/recipients': listRecipients,
  'broadcasts/list-clicked-links': listClickedLinks,
} satisfies OperationHandlers;
