/**
 * src/store/table.ts: a table declared once gives its CREATE statements, its
 * row type, and the positional INSERT and array readers compiled from it.
 */
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/store/db.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../src/store/table.js';

const parents = defineTable('parents', { seq: seq(), id: id(), name: text().notNull() });
const things = defineTable(
  'things',
  {
    seq: seq(),
    id: id(),
    parent_id: text().notNull().references('parents', { onDelete: 'CASCADE' }),
    kind: text().notNull().as<'a' | 'b'>(),
    note: text(),
    count: integer().notNull().default(0),
    label: text().notNull().default("it's"),
  },
  { unique: [['parent_id', 'kind']], indexes: [{ name: 'things_note', on: 'lower(note)', where: 'note IS NOT NULL' }] },
);

describe('defineTable', () => {
  it('writes the CREATE TABLE with its columns in order, constraints, defaults quoted, then its indexes', () => {
    expect(things.createSql).toBe(`CREATE TABLE things (
  seq INTEGER PRIMARY KEY,
  id TEXT UNIQUE NOT NULL,
  parent_id TEXT NOT NULL REFERENCES parents (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  note TEXT,
  count INTEGER NOT NULL DEFAULT 0,
  label TEXT NOT NULL DEFAULT 'it''s',
  UNIQUE (parent_id, kind)
);
CREATE INDEX things_note ON things (lower(note)) WHERE note IS NOT NULL;`);
  });

  it('a store made of it enforces what it declares: defaults, NOT NULL, the foreign key and its cascade', () => {
    const db = openDatabase();
    migrate(db, { tables: [parents, things], migrations: [] });
    db.prepare(`INSERT INTO parents (id, name) VALUES ('p1', 'P')`).run();
    db.prepare(`INSERT INTO things (id, parent_id, kind) VALUES ('t1', 'p1', 'a')`).run();
    expect(db.prepare('SELECT count, label, note FROM things').get()).toEqual({ count: 0, label: "it's", note: null });
    expect(() => db.prepare(`INSERT INTO things (id, parent_id, kind) VALUES ('t2', 'nope', 'a')`).run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare(`INSERT INTO things (id, parent_id) VALUES ('t3', 'p1')`).run()).toThrow(/NOT NULL/);
    db.prepare(`DELETE FROM parents`).run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM things').get()).toEqual({ n: 0 });
    db.close();
  });

  it('insert(): the positional statement of the columns given, and the row\'s values in that order', () => {
    const insert = things.insert(things.columnsExcept('seq'));
    expect(insert.sql).toBe('INSERT INTO things (id, parent_id, kind, note, count, label) VALUES (?, ?, ?, ?, ?, ?)');
    expect(insert.params({ label: 'l', count: 2, note: null, kind: 'b', parent_id: 'p', id: 'x' })).toEqual(['x', 'p', 'b', null, 2, 'l']);
  });

  it('reader(): rows read as arrays become objects of the columns given', () => {
    const db = openDatabase();
    migrate(db, { tables: [parents, things], migrations: [] });
    db.prepare(`INSERT INTO parents (id, name) VALUES ('p1', 'P')`).run();
    db.prepare(`INSERT INTO things (id, parent_id, kind, note) VALUES ('t1', 'p1', 'b', 'n')`).run();
    const head = things.reader(['id', 'kind', 'note']);
    expect(head.columns).toBe('id, kind, note');
    const row = head.fromArray(db.prepare(`SELECT ${head.columns} FROM things`).raw().get()!);
    expect(row).toEqual({ id: 't1', kind: 'b', note: 'n' });
    db.close();
  });

  it('the row type follows the declaration: NOT NULL columns are never null, .as() narrows', () => {
    type Thing = RowOf<typeof things>;
    const row: Thing = { seq: 1, id: 'x', parent_id: 'p', kind: 'a', note: null, count: 0, label: '' };
    // @ts-expect-error a NOT NULL column is never null
    const bad: Thing = { ...row, count: null };
    // @ts-expect-error `kind` is 'a' | 'b'
    const worse: Thing = { ...row, kind: 'c' };
    expect([bad.count, worse.kind]).toEqual([null, 'c']);
  });

  it('refuses a name that is not a lower-case SQL name, and a constraint over a column it does not have', () => {
    expect(() => defineTable('Bad Name', { seq: seq() })).toThrow('is not a lower-case SQL name');
    expect(() => defineTable('t', { seq: seq(), 'a-b': text() })).toThrow('a-b is not a lower-case SQL name');
    expect(() => defineTable('t', { seq: seq() }, { unique: [['nope' as 'seq']] })).toThrow('table t: no column nope');
  });
});
