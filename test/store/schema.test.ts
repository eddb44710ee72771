/**
 * src/store/schema.ts and `migrate` (src/store/db.ts): a new store is the
 * tables the modules declare; a store of any earlier version since the 1.0
 * baseline, brought forward by the migrations, equals it ("fresh equals
 * upgraded"); a 0.x store, a newer one, or one of no version is refused
 * before anything is written.
 *
 * Each schema version since the baseline has a fixture,
 * test/fixtures/schemas/v<N>.sql: the statements of a new store of that
 * version, in creation order. Adding a migration adds the fixture of the
 * version it makes (run this file with `WRITE_SCHEMA_FIXTURE=1` once the
 * declaration and the migration are written: it writes the missing fixture
 * of the current version from a new store); the fixtures of older versions
 * are never edited, so every later version keeps being checked against
 * each of them.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { modules } from '../../src/modules.js';
import { DatabaseStartError, migrate, openDatabase, schemaSql, type DB, type Schema } from '../../src/store/db.js';
import { BASELINE_VERSION, schemaVersion, type Migration } from '../../src/store/schema.js';
import { defineTable, id, integer, seq, text } from '../../src/store/table.js';
import { schemaDump, schemaShape } from './schema-shape.js';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures', 'schemas');
const schema: Schema = { tables: modules.flatMap((m) => m.tables ?? []), migrations: modules.flatMap((m) => m.migrations ?? []) };
const current = schemaVersion(schema.migrations);

/** A new in-memory store of `s`. */
function fresh(s: Schema): DB {
  const db = openDatabase();
  migrate(db, s);
  return db;
}

/** A store made of a fixture's statements, stamped with its version (as the version that wrote it left it). */
function storeOf(sql: string, version: number): DB {
  const db = openDatabase();
  db.exec(sql);
  db.exec(`PRAGMA user_version = ${version}`);
  return db;
}

const userVersion = (db: DB) => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

describe('the declared schema', () => {
  it('the migrations after the baseline are numbered from it, each once', () => {
    expect(current).toBe(BASELINE_VERSION + schema.migrations.length);
    expect(() => schemaVersion([{ version: BASELINE_VERSION + 2, name: 'gap', sql: '' }])).toThrow(`migrations must be numbered ${BASELINE_VERSION + 1}`);
    const twice = { version: BASELINE_VERSION + 1, name: 'twice', sql: '' };
    expect(() => schemaVersion([twice, twice])).toThrow('each once');
  });

  it('a new store has every declared table with its columns in the declared order, and the current version', () => {
    const db = fresh(schema);
    for (const t of schema.tables) {
      const columns = (db.prepare(`PRAGMA table_info("${t.name}")`).all() as { name: string }[]).map((c) => c.name);
      expect(columns, t.name).toEqual(t.columnNames);
    }
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(schema.tables.map((t) => t.name).sort());
    expect(userVersion(db)).toBe(current);
    db.close();
  });

  it('each table is declared once', () => {
    const names = schema.tables.map((t) => t.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('no trigger keeps a count: the one trigger left fills a membership\'s contact_seq', () => {
    const db = fresh(schema);
    expect(db.prepare(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'`).all()).toEqual([{ name: 'contact_segments_contact_seq', tbl_name: 'contact_segments' }]);
    db.close();
  });

  it('a new store is made in one transaction: a declaration that fails leaves the store empty', () => {
    const broken: Schema = { tables: [...schema.tables.slice(0, 3), defineTable('broken', { seq: seq() }, { indexes: [{ name: 'broken_missing', on: 'missing' }] })], migrations: [] };
    const db = openDatabase();
    expect(() => migrate(db, broken)).toThrow(/no such column: missing/);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sqlite_master`).get()).toEqual({ n: 0 });
    expect(userVersion(db)).toBe(0);
    db.close();
  });
});

describe('fresh equals upgraded', () => {
  const versions = Array.from({ length: current - BASELINE_VERSION + 1 }, (_, i) => BASELINE_VERSION + i);

  it('every version since the baseline has its schema fixture', () => {
    const file = path.join(FIXTURES, `v${current}.sql`);
    if (!fs.existsSync(file) && process.env.WRITE_SCHEMA_FIXTURE === '1') {
      const db = fresh(schema);
      fs.writeFileSync(file, schemaDump(db));
      db.close();
    }
    const missing = versions.filter((v) => !fs.existsSync(path.join(FIXTURES, `v${v}.sql`)));
    expect(missing, 'run this file with WRITE_SCHEMA_FIXTURE=1 once the new version is declared and migrated').toEqual([]);
    expect(fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.sql')).sort()).toEqual(versions.map((v) => `v${v}.sql`).sort());
  });

  it.each(versions)('a store of schema version %i migrated to the current version equals a new one', (version) => {
    const sql = fs.readFileSync(path.join(FIXTURES, `v${version}.sql`), 'utf8');
    const upgraded = storeOf(sql, version);
    migrate(upgraded, schema);
    const made = fresh(schema);
    expect(userVersion(upgraded)).toBe(current);
    expect(schemaShape(upgraded)).toEqual(schemaShape(made));
    upgraded.close();
    made.close();
  });
});

/**
 * The mechanism on a schema of its own (the emulator has no migration after
 * the baseline yet): a later version declares a new column with a default,
 * an index and a table; its migration brings a store of the version before
 * to the same schema, keeping the rows; a migration that forgets a part is
 * caught by the comparison.
 */
describe('a migration after the baseline (a schema of its own)', () => {
  const notesV1 = defineTable('notes', { seq: seq(), id: id(), body: text().notNull() });
  const notesV2 = defineTable('notes', { seq: seq(), id: id(), body: text().notNull(), pinned: integer().notNull().default(0) }, { indexes: [{ name: 'notes_pinned', on: 'pinned, seq' }] });
  const tags = defineTable('note_tags', { note_id: text().notNull().references('notes', { onDelete: 'CASCADE' }), tag: text().notNull() }, { primaryKey: ['note_id', 'tag'], withoutRowid: true });
  const step: Migration = {
    version: BASELINE_VERSION + 1,
    name: 'notes_pinned',
    sql: `ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX notes_pinned ON notes (pinned, seq);
      ${tags.createSql}`,
  };
  const v1: Schema = { tables: [notesV1], migrations: [] };
  const v2: Schema = { tables: [notesV2, tags], migrations: [step] };

  it('upgraded from the baseline equals new, keeps the rows and fills the default', () => {
    const db = fresh(v1);
    db.prepare(`INSERT INTO notes (id, body) VALUES ('n1', 'hello')`).run();
    migrate(db, v2);
    const made = fresh(v2);
    expect(schemaShape(db)).toEqual(schemaShape(made));
    expect(userVersion(db)).toBe(BASELINE_VERSION + 1);
    expect(db.prepare('SELECT id, body, pinned FROM notes').all()).toEqual([{ id: 'n1', body: 'hello', pinned: 0 }]);
    // Migrated again: nothing left to run.
    migrate(db, v2);
    expect(userVersion(db)).toBe(BASELINE_VERSION + 1);
    db.close();
    made.close();
  });

  it('catches a migration that forgets the index, or a declaration changed without a migration (self-test)', () => {
    const forgot = fresh(v1);
    migrate(forgot, { ...v2, migrations: [{ ...step, sql: step.sql.replace('CREATE INDEX notes_pinned ON notes (pinned, seq);', '') }] });
    const made = fresh(v2);
    expect(schemaShape(forgot)).not.toEqual(schemaShape(made));
    const undeclared = fresh(v1);
    migrate(undeclared, { tables: [notesV2], migrations: [] });
    expect(schemaShape(undeclared)).not.toEqual(schemaShape(fresh({ tables: [notesV2], migrations: [] })));
    forgot.close();
    made.close();
    undeclared.close();
  });

  it('a failing migration rolls back whole: the store stays at the version before, its rows intact', () => {
    const db = fresh(v1);
    db.prepare(`INSERT INTO notes (id, body) VALUES ('n1', 'hello')`).run();
    const failing: Migration = { ...step, sql: `ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0; CREATE INDEX broken ON notes (nope);` };
    expect(() => migrate(db, { tables: [notesV2], migrations: [failing] })).toThrow(/no such column: nope/);
    expect(userVersion(db)).toBe(BASELINE_VERSION);
    expect(db.prepare('SELECT * FROM notes').all()).toEqual([{ seq: 1, id: 'n1', body: 'hello' }]);
    db.close();
  });
});

describe('stores migrate refuses, before writing anything', () => {
  const refusal = (db: DB): DatabaseStartError => {
    try {
      migrate(db, schema);
    } catch (err) {
      return err as DatabaseStartError;
    }
    throw new Error('not refused');
  };

  it('a newer version', () => {
    const db = storeOf(schemaSql(schema), current + 1);
    const err = refusal(db);
    expect(err.code).toBe('EMULATOR_DB_TOO_NEW');
    expect(err.message).toContain(`schema version ${current + 1}; this version knows schema version ${current}`);
    db.close();
  });

  it('a 0.x store (schema versions 1 to 19), naming its version and what to do', () => {
    const db = storeOf('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)', 14);
    const err = refusal(db);
    expect(err.code).toBe('EMULATOR_DB_TOO_OLD');
    expect(err.message).toBe(`--db :memory: was written by resend-emulator 0.x (schema version 14); this version (schema version ${current}) starts only on stores of 1.0 or later, and it was left as it is: give --db a new file (or delete this one), or export a snapshot with the version that wrote it and import it here`);
    expect(db.prepare('SELECT name FROM sqlite_master').all()).toEqual([{ name: 'schema_migrations' }]);
    db.close();
  });

  it('a database holding tables but no schema version', () => {
    const db = storeOf('CREATE TABLE mine (a TEXT)', 0);
    const err = refusal(db);
    expect(err.code).toBe('EMULATOR_DB_TOO_OLD');
    expect(err.message).toContain('holds tables but no resend-emulator schema version');
    db.close();
  });
});
