/**
 * Schema version 18 declares the foreign keys of the delete rules (migrations
 * 39-42). A store made before it may hold rows whose parent is gone (a
 * delete path of an older version that missed one): the migration drops
 * them, sets a sent draft's gone thread to null, keeps every other row, and
 * leaves no dangling reference. From then on the store refuses one.
 */
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/modules.js';
import { migrate, openDatabase, type DB } from '../../src/store/db.js';
import { migrationsAt } from '../../src/store/schema.js';

const all = modules.flatMap((m) => m.migrations ?? []);
const ids = (db: DB, table: string, column = 'id') => (db.prepare(`SELECT ${column} AS v FROM ${table} ORDER BY seq`).all() as { v: unknown }[]).map((r) => r.v);

/** A store of schema version 17 with, in each table that gets a foreign key, one row whose parent exists and one whose parent is gone. */
function storeWithOrphans(): DB {
  const db = openDatabase();
  const at17 = migrationsAt(17);
  migrate(db, all.filter((m) => at17.has(m.version)));
  db.exec(`
    INSERT INTO contacts (id, team_id, email, email_lower, created_at, updated_at) VALUES ('c1', 't', 'a@x.test', 'a@x.test', 0, 0);
    INSERT INTO segments (id, team_id, name, created_at) VALUES ('s1', 't', 'S', 0);
    INSERT INTO topics (id, team_id, name, default_subscription, visibility, created_at) VALUES ('p1', 't', 'P', 'opt_in', 'public', 0);
    INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES ('t', 'c1', 's1', 0), ('t', 'gone', 's1', 0), ('t', 'c1', 'gone', 0);
    INSERT INTO contact_topics (contact_id, topic_id, subscription, updated_at) VALUES ('c1', 'p1', 'opt_out', 0), ('gone', 'p1', 'opt_out', 0), ('c1', 'gone', 'opt_in', 0);
    INSERT INTO templates (id, team_id, name, current_version_id, created_at, updated_at) VALUES ('tp1', 't', 'T', 'v1', 0, 0);
    INSERT INTO template_versions (id, template_id, html, variables, created_at, updated_at) VALUES ('v1', 'tp1', '<p/>', '[]', 0, 0), ('v2', 'gone', '<p/>', '[]', 0, 0);
    INSERT INTO automations (id, team_id, name, status, steps, connections, created_at, updated_at) VALUES ('a1', 't', 'A', 'enabled', '[]', '[]', 0, 0);
    INSERT INTO automation_runs (id, team_id, automation_id, status, event_name, event_payload, graph, created_at) VALUES ('r1', 't', 'a1', 'completed', 'e', '{}', '{}', 0), ('r2', 't', 'gone', 'completed', 'e', '{}', '{}', 0);
    INSERT INTO automation_run_steps (run_id, key, type, status, created_at) VALUES ('r1', 'start', 'trigger', 'completed', 0), ('r2', 'start', 'trigger', 'completed', 0), ('gone', 'start', 'trigger', 'completed', 0);
    INSERT INTO inboxes (id, team_id, domain_id, email_address, name, created_at, updated_at) VALUES ('i1', 't', 'd', 'i@x.test', 'I', 0, 0);
    INSERT INTO inbox_agents (id, inbox_id, actions, updated_at) VALUES ('ag1', 'i1', '[]', 0), ('ag2', 'gone', '[]', 0);
    INSERT INTO inbox_labels (id, inbox_id, name, color, created_at) VALUES ('l1', 'i1', 'L', '#000000', 0), ('l2', 'gone', 'L', '#000000', 0);
    INSERT INTO inbox_threads (id, inbox_id, folder, created_at) VALUES ('th1', 'i1', 'inbox', 0), ('th2', 'gone', 'inbox', 0);
    INSERT INTO inbox_messages (id, inbox_id, thread_id, direction, read, received_at) VALUES ('m1', 'i1', 'th1', 'inbound', 0, 0), ('m2', 'i1', 'gone', 'inbound', 0, 0), ('m3', 'i1', 'th2', 'inbound', 0, 0);
    INSERT INTO inbox_drafts (id, inbox_id, type, cc, bcc, thread_id, email_id, attachments, created_at, updated_at) VALUES
      ('d1', 'i1', 'reply', '[]', '[]', 'th1', NULL, '[]', 0, 0), ('d2', 'i1', 'reply', '[]', '[]', 'gone', 'e1', '[]', 0, 0),
      ('d3', 'i1', 'reply', '[]', '[]', 'gone', NULL, '[]', 0, 0), ('d4', 'gone', 'new', '[]', '[]', NULL, NULL, '[]', 0, 0);
    INSERT INTO inbox_thread_labels (thread_id, label_id) VALUES ('th1', 'l1'), ('th1', 'l2'), ('gone', 'l1');
  `);
  return db;
}

describe('schema version 18: foreign keys', () => {
  it('migrating drops the rows whose parent is gone, keeps the others, and leaves no dangling reference', () => {
    const db = storeWithOrphans();
    migrate(db, all);
    expect(db.prepare('SELECT * FROM pragma_foreign_key_check').all()).toEqual([]);
    expect(db.prepare('SELECT contact_id, segment_id FROM contact_segments').all()).toEqual([{ contact_id: 'c1', segment_id: 's1' }]);
    expect(db.prepare('SELECT contact_id, topic_id FROM contact_topics').all()).toEqual([{ contact_id: 'c1', topic_id: 'p1' }]);
    expect(ids(db, 'template_versions')).toEqual(['v1']);
    expect(ids(db, 'automation_runs')).toEqual(['r1']);
    expect(ids(db, 'automation_run_steps', 'run_id')).toEqual(['r1']);
    expect(ids(db, 'inbox_agents')).toEqual(['ag1']);
    expect(ids(db, 'inbox_labels')).toEqual(['l1']);
    expect(ids(db, 'inbox_threads')).toEqual(['th1']);
    expect(ids(db, 'inbox_messages')).toEqual(['m1']);
    // A sent draft outlives its thread (thread_id null); an unsent one goes with it; one of a gone inbox goes.
    expect(db.prepare('SELECT id, thread_id FROM inbox_drafts ORDER BY seq').all()).toEqual([{ id: 'd1', thread_id: 'th1' }, { id: 'd2', thread_id: null }]);
    expect(db.prepare('SELECT thread_id, label_id FROM inbox_thread_labels').all()).toEqual([{ thread_id: 'th1', label_id: 'l1' }]);
    db.close();
  });

  it('the migrated tables keep their indexes and the memberships\' contact_seq trigger', () => {
    const db = storeWithOrphans();
    migrate(db, all);
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining([
      'contact_segments_contact_seq', 'contact_segments_members', 'contact_segments_segment_seq', 'contact_topics_topic', 'template_versions_template',
      'automation_runs_automation', 'automation_runs_status', 'automation_run_steps_wait', 'inbox_threads_inbox', 'inbox_threads_activity',
      'inbox_labels_inbox', 'inbox_messages_thread', 'inbox_messages_message_id', 'inbox_drafts_inbox', 'inbox_drafts_activity', 'inbox_drafts_thread',
      'inbox_thread_labels_label', 'emails_sent_usage_delete', 'received_emails_usage_insert', 'received_emails_usage_delete',
    ]));
    // Schema version 19 (migration 43) counts a send in `insertEmail` instead of this trigger.
    expect(names).not.toContain('emails_sent_usage_insert');
    db.prepare(`INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES ('t', 'c1', 's1', 1) ON CONFLICT DO NOTHING`).run();
    db.prepare(`INSERT INTO contacts (id, team_id, email, email_lower, created_at, updated_at) VALUES ('c2', 't', 'b@x.test', 'b@x.test', 0, 0)`).run();
    db.prepare(`INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES ('t', 'c2', 's1', 1)`).run();
    const c2 = db.prepare(`SELECT seq FROM contacts WHERE id = 'c2'`).get() as { seq: number };
    expect(db.prepare(`SELECT contact_seq FROM contact_segments WHERE contact_id = 'c2'`).get()).toEqual({ contact_seq: c2.seq });
    db.close();
  });

  it('a row naming a parent that does not exist is refused', () => {
    const db = openDatabase();
    migrate(db, all);
    const refused = [
      `INSERT INTO contact_topics (contact_id, topic_id, subscription, updated_at) VALUES ('nobody', 'none', 'opt_in', 0)`,
      `INSERT INTO template_versions (id, template_id, html, variables, created_at, updated_at) VALUES ('v', 'none', '<p/>', '[]', 0, 0)`,
      `INSERT INTO automation_run_steps (run_id, key, type, status, created_at) VALUES ('none', 'k', 'trigger', 'completed', 0)`,
      `INSERT INTO inbox_threads (id, inbox_id, folder, created_at) VALUES ('th', 'none', 'inbox', 0)`,
    ];
    for (const sql of refused) expect(() => db.prepare(sql).run(), sql).toThrow(/FOREIGN KEY constraint failed/);
    db.close();
  });
});
