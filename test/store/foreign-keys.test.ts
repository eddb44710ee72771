/**
 * The foreign keys of the delete rules (docs/reference/design.md#storage-conventions),
 * declared with each table (`.references()`, src/store/table.ts): a row that
 * belongs to another names it, so deleting the parent deletes it (or sets a
 * sent draft's thread to null), and a row naming a parent that does not
 * exist is refused. The memberships' `contact_seq` trigger fills the
 * contact's `seq`.
 */
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/modules.js';
import { migrate, openDatabase, type DB } from '../../src/store/db.js';

const schema = { tables: modules.flatMap((m) => m.tables ?? []), migrations: modules.flatMap((m) => m.migrations ?? []) };
const ids = (db: DB, table: string, column = 'id') => (db.prepare(`SELECT ${column} AS v FROM ${table} ORDER BY seq`).all() as { v: unknown }[]).map((r) => r.v);

/** A new store with, in each table that has a foreign key, a row of a parent that stays and one of a parent about to be deleted. */
function storeWithChildren(): DB {
  const db = openDatabase();
  migrate(db, schema);
  db.exec(`
    INSERT INTO contacts (id, team_id, email, email_lower, created_at, updated_at) VALUES ('c1', 't', 'a@x.test', 'a@x.test', 0, 0), ('c2', 't', 'b@x.test', 'b@x.test', 0, 0);
    INSERT INTO segments (id, team_id, name, created_at) VALUES ('s1', 't', 'S', 0), ('s2', 't', 'S2', 0);
    INSERT INTO topics (id, team_id, name, default_subscription, visibility, created_at) VALUES ('p1', 't', 'P', 'opt_in', 'public', 0), ('p2', 't', 'P2', 'opt_in', 'public', 0);
    INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES ('t', 'c1', 's1', 0), ('t', 'c2', 's1', 0), ('t', 'c1', 's2', 0);
    INSERT INTO contact_topics (contact_id, topic_id, subscription, updated_at) VALUES ('c1', 'p1', 'opt_out', 0), ('c2', 'p1', 'opt_out', 0), ('c1', 'p2', 'opt_in', 0);
    INSERT INTO templates (id, team_id, name, current_version_id, created_at, updated_at) VALUES ('tp1', 't', 'T', 'v1', 0, 0), ('tp2', 't', 'T2', 'v2', 0, 0);
    INSERT INTO template_versions (id, template_id, html, variables, created_at, updated_at) VALUES ('v1', 'tp1', '<p/>', '[]', 0, 0), ('v2', 'tp2', '<p/>', '[]', 0, 0);
    INSERT INTO automations (id, team_id, name, status, steps, connections, created_at, updated_at) VALUES ('a1', 't', 'A', 'enabled', '[]', '[]', 0, 0), ('a2', 't', 'A2', 'enabled', '[]', '[]', 0, 0);
    INSERT INTO automation_runs (id, team_id, automation_id, status, event_name, event_payload, graph, created_at) VALUES ('r1', 't', 'a1', 'completed', 'e', '{}', '{}', 0), ('r2', 't', 'a2', 'completed', 'e', '{}', '{}', 0);
    INSERT INTO automation_run_steps (run_id, key, type, status, created_at) VALUES ('r1', 'start', 'trigger', 'completed', 0), ('r2', 'start', 'trigger', 'completed', 0);
    INSERT INTO inboxes (id, team_id, domain_id, email_address, name, created_at, updated_at) VALUES ('i1', 't', 'd', 'i@x.test', 'I', 0, 0), ('i2', 't', 'd', 'j@x.test', 'J', 0, 0);
    INSERT INTO inbox_agents (id, inbox_id, actions, updated_at) VALUES ('ag1', 'i1', '[]', 0), ('ag2', 'i2', '[]', 0);
    INSERT INTO inbox_labels (id, inbox_id, name, color, created_at) VALUES ('l1', 'i1', 'L', '#000000', 0), ('l2', 'i1', 'L2', '#000000', 0), ('l3', 'i2', 'L', '#000000', 0);
    INSERT INTO inbox_threads (id, inbox_id, folder, created_at) VALUES ('th1', 'i1', 'inbox', 0), ('th2', 'i1', 'trash', 0), ('th3', 'i2', 'inbox', 0);
    INSERT INTO inbox_messages (id, inbox_id, thread_id, direction, read, received_at) VALUES ('m1', 'i1', 'th1', 'inbound', 0, 0), ('m2', 'i1', 'th2', 'inbound', 0, 0), ('m3', 'i2', 'th3', 'inbound', 0, 0);
    INSERT INTO inbox_drafts (id, inbox_id, type, cc, bcc, thread_id, email_id, attachments, created_at, updated_at) VALUES
      ('d1', 'i1', 'reply', '[]', '[]', 'th1', NULL, '[]', 0, 0), ('d2', 'i1', 'reply', '[]', '[]', 'th2', 'e1', '[]', 0, 0),
      ('d3', 'i1', 'reply', '[]', '[]', 'th2', NULL, '[]', 0, 0), ('d4', 'i2', 'new', '[]', '[]', NULL, NULL, '[]', 0, 0);
    INSERT INTO inbox_thread_labels (thread_id, label_id) VALUES ('th1', 'l1'), ('th1', 'l2'), ('th2', 'l1');
  `);
  return db;
}

describe('foreign keys', () => {
  it('deleting a parent deletes the rows that belong to it, keeps the others, and leaves no dangling reference', () => {
    const db = storeWithChildren();
    db.exec(`DELETE FROM contacts WHERE id = 'c2'; DELETE FROM segments WHERE id = 's2'; DELETE FROM topics WHERE id = 'p2'; DELETE FROM templates WHERE id = 'tp2';
      DELETE FROM automations WHERE id = 'a2'; DELETE FROM inboxes WHERE id = 'i2'; DELETE FROM inbox_labels WHERE id = 'l2'; DELETE FROM inbox_threads WHERE id = 'th2';`);
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
    // A draft outlives its thread (thread_id null: a sent one stays, the purge deletes an unsent one itself); one of a gone inbox goes.
    expect(db.prepare('SELECT id, thread_id FROM inbox_drafts ORDER BY seq').all()).toEqual([{ id: 'd1', thread_id: 'th1' }, { id: 'd2', thread_id: null }, { id: 'd3', thread_id: null }]);
    expect(db.prepare('SELECT thread_id, label_id FROM inbox_thread_labels').all()).toEqual([{ thread_id: 'th1', label_id: 'l1' }]);
    db.close();
  });

  it('a membership follows its contact\'s id when it changes', () => {
    const db = storeWithChildren();
    db.exec(`UPDATE contacts SET id = 'c1b' WHERE id = 'c1'`);
    expect(db.prepare(`SELECT DISTINCT contact_id FROM contact_segments WHERE contact_id LIKE 'c1%'`).all()).toEqual([{ contact_id: 'c1b' }]);
    expect(db.prepare(`SELECT DISTINCT contact_id FROM contact_topics WHERE contact_id LIKE 'c1%'`).all()).toEqual([{ contact_id: 'c1b' }]);
    db.close();
  });

  it('the memberships\' contact_seq trigger fills the contact\'s seq on an insert that leaves it null', () => {
    const db = storeWithChildren();
    const c2 = db.prepare(`SELECT seq FROM contacts WHERE id = 'c2'`).get() as { seq: number };
    expect(db.prepare(`SELECT contact_seq FROM contact_segments WHERE contact_id = 'c2'`).get()).toEqual({ contact_seq: c2.seq });
    db.close();
  });

  it('a row naming a parent that does not exist is refused', () => {
    const db = openDatabase();
    migrate(db, schema);
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
