/**
 * Topic rows and their shapes (docs/reference/interface-spec.md#topic; docs/reference/resources.md#topics).
 * Contacts' explicit choices (`contact_topics`) are the contacts resource's;
 * without one a contact follows the topic's `default_subscription`.
 */
import type { Emulator } from '../../context.js';
import { apiTime, isoTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Topics; `updated_at` is null until the topic is first updated (reads as `created_at`; the topic.* webhook payloads, SDK `TopicEventData`). */
export const topicsTable = defineTable(
  'topics',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    description: text(),
    default_subscription: text().notNull().as<Subscription>(),
    visibility: text().notNull().as<'public' | 'private'>(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms of the last update; null until the first. */
    updated_at: integer(),
  },
  {
    indexes: [
      { name: 'topics_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [topicsTable];

export type Subscription = 'opt_in' | 'opt_out';

/** A `topics` row. */
export type TopicRow = RowOf<typeof topicsTable>;

/** The columns `toTopicItem` reads. */
const LIST_NAMES = ['id', 'name', 'description', 'default_subscription', 'visibility', 'created_at'] as const;

/** What a list item reads of a topic: its `TOPIC_LIST_COLUMNS`. */
export type TopicListRow = Pick<TopicRow, (typeof LIST_NAMES)[number]>;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const TOPIC_LIST_COLUMNS = topicsTable.columnList(LIST_NAMES);

/**
 * The list item shape `{id, name, description?, default_subscription,
 * visibility, created_at}`. A topic without a description leaves the key
 * out: the SDK types it `description?: string` (`Topic`, resend 6.38), the
 * document `type: string` (not required), and the SDK's mocks omit it.
 * (`contacts.topics.list` and the `topic.*` event data keep `null`: the SDK
 * types those `string | null`.)
 */
export function toTopicItem(row: TopicListRow): ListItem<'topics/list'> {
  return {
    id: row.id,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    default_subscription: row.default_subscription,
    visibility: row.visibility,
    created_at: apiTime(row.created_at),
  };
}

/** The single shape: the item plus `object: "topic"` first. */
export function toTopic(row: TopicRow): ResponseBody<'topics/get'> {
  return { object: 'topic', ...toTopicItem(row) };
}

/**
 * The `data` of the `topic.created` / `topic.updated` / `topic.deleted`
 * webhook events, the SDK's `TopicEventData` (resend 6.38): `{id, name,
 * description, default_subscription, deleted, created_at, updated_at}`
 * (ISO 8601 `Z`; `updated_at` is `created_at` until the first update, the
 * time of deletion for `topic.deleted`).
 */
export function topicEventData(row: TopicRow, deletedAt?: number) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    default_subscription: row.default_subscription,
    deleted: deletedAt !== undefined,
    created_at: isoTime(row.created_at)!,
    updated_at: isoTime(deletedAt ?? row.updated_at ?? row.created_at)!,
  };
}

/** The team's topic, or undefined. */
export function findTopic(ctx: Emulator, teamId: string, id: string): TopicRow | undefined {
  return ctx.db.prepare('SELECT * FROM topics WHERE id = ? AND team_id = ?').get(id, teamId) as TopicRow | undefined;
}

/** The team's topic, or 404 `Topic not found`. */
export function getTopicOr404(ctx: Emulator, teamId: string, id: string): TopicRow {
  const row = findTopic(ctx, teamId, id);
  if (!row) throw errors.notFound('Topic');
  return row;
}

/** The INSERT of a new topic: every column but `seq`, positional. */
const INSERT_TOPIC = topicsTable.insert(topicsTable.columnsExcept('seq'));

/** Inserts a topic (no validation). Returns the row. */
export function insertTopic(
  ctx: Emulator,
  t: { id?: string; teamId: string; name: string; description?: string | null; defaultSubscription: Subscription; visibility?: TopicRow['visibility']; createdAt?: number },
): TopicRow {
  const id = t.id ?? newId();
  const row: Omit<TopicRow, 'seq'> = {
    id,
    team_id: t.teamId,
    name: t.name,
    description: t.description ?? null,
    default_subscription: t.defaultSubscription,
    visibility: t.visibility ?? 'private',
    created_at: t.createdAt ?? ctx.clock.nowMs(),
    updated_at: null,
  };
  ctx.db.prepare(INSERT_TOPIC.sql).run(...INSERT_TOPIC.params(row));
  return ctx.db.prepare('SELECT * FROM topics WHERE id = ?').get(id) as TopicRow;
}

/** The team's topics, oldest first (for the admin dashboard). */
export function listTopics(ctx: Emulator, teamId: string): TopicRow[] {
  return ctx.db.prepare('SELECT * FROM topics WHERE team_id = ? ORDER BY seq').all(teamId) as TopicRow[];
}

/** A page of the team's `topics` rows (`paginateTeam` options but the table): GET /topics and a contact's topics. */
export const pageTopics = teamPager<TopicRow>('topics');

/** Sets a topic's `name`, `description` and `visibility`, and `updated_at` to now. Returns the row. */
export function updateTopic(ctx: Emulator, id: string, t: { name: string; description: string | null; visibility: string }): TopicRow {
  ctx.db.prepare('UPDATE topics SET name = ?, description = ?, visibility = ?, updated_at = ? WHERE id = ?').run(t.name, t.description, t.visibility, ctx.clock.nowMs(), id);
  return ctx.db.prepare('SELECT * FROM topics WHERE id = ?').get(id) as TopicRow;
}

/** Deletes a topic row; the contacts' choices of it go with it (foreign key of `contact_topics`, declared by contacts). */
export function deleteTopic(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM topics WHERE id = ?').run(id);
}
