/**
 * `contact_segments` and `contact_topics` moved to their owner, the contacts
 * resource: a new store creates them in contacts' migrations 10 and 12 (the
 * place of the order written where they were first created); a store made
 * before the move (they came from the segments migration 9 and the topics
 * migration 11, then numbered 600 and 700) keeps its tables, and 10/12 leave
 * them as they are. Either way the schema is the same.
 */
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, type DB, type Migration } from '../../../src/store/db.js';
import { modules } from '../../../src/modules.js';

/** The segments and topics steps as they were before the move (copied from git history, for this test only). */
const before: Migration[] = [
  {
    version: 9,
    name: 'segments',
    sql: `CREATE TABLE segments (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, team_id TEXT NOT NULL, name TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX segments_team ON segments (team_id, seq);
    CREATE TABLE contact_segments (seq INTEGER PRIMARY KEY, team_id TEXT NOT NULL, contact_id TEXT NOT NULL, segment_id TEXT NOT NULL, created_at INTEGER NOT NULL, UNIQUE (contact_id, segment_id));
    CREATE INDEX contact_segments_segment ON contact_segments (segment_id, contact_id);`,
  },
  {
    version: 11,
    name: 'topics',
    sql: `CREATE TABLE topics (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, team_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT, default_subscription TEXT NOT NULL, visibility TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX topics_team ON topics (team_id, seq);
    CREATE TABLE contact_topics (contact_id TEXT NOT NULL, topic_id TEXT NOT NULL, subscription TEXT NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (contact_id, topic_id));
    CREATE INDEX contact_topics_topic ON contact_topics (topic_id);`,
  },
];

const all = (): Migration[] => modules.flatMap((m) => m.migrations ?? []);

/** Columns, indexes and triggers of the two join tables. */
function shape(db: DB) {
  const cols = (t: string) => (db.prepare(`PRAGMA table_info(${t})`).all() as { name: string; type: string; notnull: number; pk: number }[]).map((c) => `${c.name} ${c.type} ${c.notnull} ${c.pk}`);
  const objects = db
    .prepare(`SELECT type, name FROM sqlite_master WHERE tbl_name IN ('contact_segments', 'contact_topics') AND type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .all();
  return { contact_segments: cols('contact_segments'), contact_topics: cols('contact_topics'), objects };
}

describe('contacts owns contact_segments and contact_topics', () => {
  it('a new store gets them from contacts, with the members index and trigger', () => {
    const db = openDatabase();
    migrate(db, all());
    const s = shape(db);
    expect(s.contact_segments).toContain('contact_seq INTEGER 0 0');
    expect(s.objects).toEqual([
      { type: 'trigger', name: 'contact_segments_contact_seq' },
      { type: 'index', name: 'contact_segments_members' },
      { type: 'index', name: 'contact_segments_segment_seq' },
      { type: 'index', name: 'contact_topics_topic' },
    ]);
    db.close();
  });

  it('a store made before the move migrates to the same schema and keeps its rows', () => {
    const fresh = openDatabase();
    migrate(fresh, all());

    const old = openDatabase();
    // A store of schema version 2 made before the move: segments and topics as they were, no 10 or 12.
    migrate(old, [...all().filter((m) => m.version <= 13 && ![9, 10, 11, 12].includes(m.version)), ...before]);
    old.prepare("INSERT INTO contacts (id, team_id, email, email_lower, created_at, updated_at) VALUES ('c', 't', 'c@example.com', 'c@example.com', 1, 1)").run();
    old.prepare("INSERT INTO segments (id, team_id, name, created_at) VALUES ('s', 't', 'S', 1)").run();
    old.prepare("INSERT INTO topics (id, team_id, name, default_subscription, visibility, created_at) VALUES ('p', 't', 'P', 'opt_in', 'public', 1)").run();
    old.prepare("INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES ('t', 'c', 's', 1)").run();
    old.prepare("INSERT INTO contact_topics (contact_id, topic_id, subscription, updated_at) VALUES ('c', 'p', 'opt_in', 1)").run();
    migrate(old, all());

    expect(shape(old)).toEqual(shape(fresh));
    expect(old.prepare('SELECT contact_id, segment_id FROM contact_segments').all()).toEqual([{ contact_id: 'c', segment_id: 's' }]);
    expect(old.prepare('SELECT subscription FROM contact_topics').all()).toEqual([{ subscription: 'opt_in' }]);
    const versions = (old.prepare('SELECT version FROM schema_migrations WHERE version IN (10, 12, 28) ORDER BY version').all() as { version: number }[]).map((r) => r.version);
    expect(versions).toEqual([10, 12, 28]);
    old.close();
    fresh.close();
  });
});

describe('migration 32: memberships by (segment_id, seq)', () => {
  it('a page of a segment in membership order is one range scan, not a scan and sort of the whole segment', () => {
    const db = openDatabase();
    migrate(db, all());
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT c.*, cs.seq AS membership_seq FROM contact_segments cs JOIN contacts c ON c.id = cs.contact_id
      WHERE cs.segment_id = ? AND cs.seq > ? AND cs.seq <= ? AND c.team_id = ? ORDER BY cs.seq LIMIT ?`).all('s', 0, 10, 't', 100) as { detail: string }[]).map((r) => r.detail);
    expect(plan.join('\n')).toContain('contact_segments_segment_seq (segment_id=? AND seq>? AND seq<?)');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
    db.close();
  });
});
