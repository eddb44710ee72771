/**
 * `contact_segments` and `contact_topics` belong to the contacts resource,
 * declared in its store.ts with the members index and the trigger that
 * fills `contact_seq`; a page of a segment in membership order is one range
 * scan.
 */
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, type DB } from '../../../src/store/db.js';
import { modules } from '../../../src/modules.js';
import { tables as contactTables } from '../../../src/resources/contacts/store.js';

const schema = () => ({ tables: modules.flatMap((m) => m.tables ?? []), migrations: modules.flatMap((m) => m.migrations ?? []) });

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
    expect(contactTables.map((t) => t.name)).toEqual(['contacts', 'contact_segments', 'contact_topics']);
    const db = openDatabase();
    migrate(db, schema());
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
});

describe('memberships by (segment_id, seq)', () => {
  it('a page of a segment in membership order is one range scan, not a scan and sort of the whole segment', () => {
    const db = openDatabase();
    migrate(db, schema());
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT c.*, cs.seq AS membership_seq FROM contact_segments cs JOIN contacts c ON c.id = cs.contact_id
      WHERE cs.segment_id = ? AND cs.seq > ? AND cs.seq <= ? AND c.team_id = ? ORDER BY cs.seq LIMIT ?`).all('s', 0, 10, 't', 100) as { detail: string }[]).map((r) => r.detail);
    expect(plan.join('\n')).toContain('contact_segments_segment_seq (segment_id=? AND seq>? AND seq<?)');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
    db.close();
  });
});
