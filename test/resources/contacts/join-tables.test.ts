/**
 * `contact_segments` and `contact_topics` belong to the contacts resource,
 * declared in its store.ts with the members index and the trigger that
 * fills `contact_seq`; a page of a segment in membership order is one range
 * scan.
 */
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, type DB } from '../../../src/store/db.js';
import { modules } from '../../../src/modules.js';
import { segmentContactsPage, tables as contactTables } from '../../../src/resources/contacts/store.js';
import type { Emulator } from '../../../src/context.js';

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
  it('a page of a segment in membership order (segmentContactsPage) is one range scan, not a scan and sort of the whole segment', () => {
    const db = openDatabase();
    migrate(db, schema());
    // The plan of the statement the store runs (read as it prepares it), not of a copy of its text.
    const prepared: string[] = [];
    const prepare = db.prepare;
    db.prepare = ((sql: string) => (prepared.push(sql), prepare.call(db, sql))) as typeof db.prepare;
    expect(segmentContactsPage({ db } as unknown as Emulator, 't', 's', { afterSeq: 0, untilSeq: 10, limit: 100 })).toEqual([]);
    db.prepare = prepare;
    expect(prepared).toHaveLength(1);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${prepared[0]}`).all('s', 0, 10, 't', 100) as { detail: string }[]).map((r) => r.detail);
    expect(plan.join('\n')).toContain('contact_segments_segment_seq (segment_id=? AND seq>? AND seq<?)');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
    // Each member's contact by its rowid (`contact_seq`), not by a scan.
    expect(plan.join('\n')).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
    db.close();
  });
});
