/**
 * Topic rows, their shapes, and contacts' subscriptions to them
 * (interface-spec "Topic"; API-FACTS §5.10, §5.7 "/contacts/{c}/topics").
 * Table `contact_topics (contact_id, topic_id, subscription)` holds only
 * explicit choices; without one a contact follows the topic's
 * `default_subscription`.
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import type { Migration } from '../../store/db.js';

/** The topics tables' schema steps (range in src/resources/index.ts). */
export const migrations: Migration[] = [
  {
    version: 700,
    name: 'topics',
    sql: `CREATE TABLE topics (
      seq INTEGER PRIMARY KEY,
      id TEXT UNIQUE NOT NULL,
      team_id TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT,
      default_subscription TEXT NOT NULL,
      visibility TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX topics_team ON topics (team_id, seq);
    CREATE TABLE contact_topics (
      contact_id TEXT NOT NULL,
      topic_id TEXT NOT NULL,
      subscription TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (contact_id, topic_id)
    );
    CREATE INDEX contact_topics_topic ON contact_topics (topic_id);`,
  },
];

export type Subscription = 'opt_in' | 'opt_out';

/** A `topics` row. */
export interface TopicRow {
  seq: number;
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  default_subscription: Subscription;
  visibility: 'public' | 'private';
  created_at: number;
}

/** The list item shape `{id, name, description, default_subscription, visibility, created_at}`. */
export function toTopicItem(row: TopicRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    default_subscription: row.default_subscription,
    visibility: row.visibility,
    created_at: apiTime(row.created_at),
  };
}

/** The single shape: the item plus `object: "topic"` first. */
export function toTopic(row: TopicRow) {
  return { object: 'topic', ...toTopicItem(row) };
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

/** Inserts a topic (no validation). Returns the row. */
export function insertTopic(
  ctx: Emulator,
  t: { id?: string; teamId: string; name: string; description?: string | null; defaultSubscription: Subscription; visibility?: 'public' | 'private'; createdAt?: number },
): TopicRow {
  const id = t.id ?? newId();
  ctx.db
    .prepare('INSERT INTO topics (id, team_id, name, description, default_subscription, visibility, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, t.teamId, t.name, t.description ?? null, t.defaultSubscription, t.visibility ?? 'private', t.createdAt ?? ctx.clock.nowMs());
  return ctx.db.prepare('SELECT * FROM topics WHERE id = ?').get(id) as TopicRow;
}

/**
 * Sets a contact's explicit subscriptions (upsert per topic). Every topic
 * must be the team's: throws 404 `Topic not found` before writing anything.
 * Call inside the caller's transaction.
 */
export function setSubscriptions(ctx: Emulator, teamId: string, contactId: string, topics: { id: string; subscription: Subscription }[]): void {
  for (const t of topics) getTopicOr404(ctx, teamId, t.id);
  const upsert = ctx.db.prepare(
    `INSERT INTO contact_topics (contact_id, topic_id, subscription, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (contact_id, topic_id) DO UPDATE SET subscription = excluded.subscription, updated_at = excluded.updated_at`,
  );
  const now = ctx.clock.nowMs();
  for (const t of topics) upsert.run(contactId, t.id, t.subscription, now);
}

/** A contact's explicit subscription to a topic, or undefined. */
export function explicitSubscription(ctx: Emulator, contactId: string, topicId: string): Subscription | undefined {
  const row = ctx.db.prepare('SELECT subscription FROM contact_topics WHERE contact_id = ? AND topic_id = ?').get(contactId, topicId) as { subscription: Subscription } | undefined;
  return row?.subscription;
}

/** The team's topics, oldest first (for the admin dashboard). */
export function listTopics(ctx: Emulator, teamId: string): TopicRow[] {
  return ctx.db.prepare('SELECT * FROM topics WHERE team_id = ? ORDER BY seq').all(teamId) as TopicRow[];
}
