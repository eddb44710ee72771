/**
 * src/store/schema.ts: the schema versions. Migrations are numbered in the
 * order written (1..N, no gaps) and a store runs them in that order; the
 * newest version is exactly the migrations the modules declare (adding a
 * migration means adding a version); a store records its version in
 * `user_version`; a store recorded under the module-range numbers of
 * schema versions 1-17 has them translated once.
 */
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/modules.js';
import { migrate, openDatabase, type DB } from '../../src/store/db.js';
import { LEGACY_NUMBERS, migrationsAt, NUMBERING, SCHEMA_ADDED, SCHEMA_VERSION, schemaVersionOf } from '../../src/store/schema.js';

const all = modules.flatMap((m) => m.migrations ?? []);
const versionsOf = (db: DB) => (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);
/** Every schema object but SQLite's own, by type and name (the order of creation aside). */
const schemaOf = (db: DB) => db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all();

describe('schema versions', () => {
  it('the newest version is every migration the modules declare, numbered 1..N in the order of the versions', () => {
    const flat = SCHEMA_ADDED.flat();
    expect(flat).toEqual(Array.from({ length: flat.length }, (_, i) => i + 1));
    expect(all.map((m) => m.version).sort((a, b) => a - b)).toEqual(flat);
  });

  it('each version adds at least one migration, but 11 (a move of two tables between rooms: the same schema as 10)', () => {
    expect(SCHEMA_ADDED.map((a, i) => [i + 1, a.length > 0]).filter(([, some]) => !some)).toEqual([[11, false]]);
  });

  it('schemaVersionOf names the version of an exact set (migration 0 aside), null for any other', () => {
    for (let v = 1; v <= SCHEMA_VERSION; v++) expect(schemaVersionOf(migrationsAt(v))).toBe(v === 11 ? 10 : v);
    expect(schemaVersionOf([NUMBERING.version, ...migrationsAt(4)])).toBe(4);
    expect(schemaVersionOf([1, 2])).toBeNull();
    expect(schemaVersionOf([...migrationsAt(3), 99999])).toBeNull();
  });

  it('a fresh store runs the migrations in the order written: each one, run alone after the ones before it, succeeds', () => {
    const db = openDatabase();
    const sorted = [...all].sort((a, b) => a.version - b.version);
    for (let i = 0; i < sorted.length; i++) expect(() => migrate(db, sorted.slice(0, i + 1)), sorted[i].name).not.toThrow();
    expect(versionsOf(db)).toEqual([0, ...SCHEMA_ADDED.flat()]);
    db.close();
  });

  it('migrate stamps user_version: a new store, and an old one migrated forward', () => {
    const fresh = openDatabase();
    migrate(fresh, all);
    expect(fresh.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    const old = openDatabase();
    const at5 = migrationsAt(5);
    migrate(old, all.filter((m) => at5.has(m.version)));
    expect(old.prepare('PRAGMA user_version').get()).toEqual({ user_version: 5 });
    migrate(old, all);
    expect(old.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(schemaOf(old)).toEqual(schemaOf(fresh));
    fresh.close();
    old.close();
  });
});

describe('module-range numbers (schema versions 1-17)', () => {
  it('translate to every migration of schema version 17, in the order written, each once', () => {
    const news = [...LEGACY_NUMBERS.values()];
    expect(new Set(news).size).toBe(news.length);
    expect(news).toEqual([...migrationsAt(17)].sort((a, b) => a - b));
    expect(news).toEqual([...news].sort((a, b) => a - b));
  });

  /**
   * A store as schema version `version` left it: its migrations run in module-range order (as that version did)
   * and recorded under those numbers, without migration 0.
   */
  function legacyStore(version: number): DB {
    const db = openDatabase();
    const byNew = new Map(all.map((m) => [m.version, m]));
    const at = migrationsAt(version);
    // Under the old numbers, the move of schema version 11 was two migrations of its own: a store before it lacked them.
    const old = [...LEGACY_NUMBERS].filter(([o, n]) => at.has(n) && !(version < 11 && (o === 510 || o === 511))).sort(([a], [b]) => a - b);
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (\n    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)'); // as migrate wrote it
    // Segments' and topics' migrations then created the join tables too: the contacts migrations 10 and 12 do that now.
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 1)');
    for (const [o, n] of old) {
      db.exec(byNew.get(n)!.sql);
      if (version < 11 && (o === 600 || o === 700)) db.exec(byNew.get(n + 1)!.sql);
      record.run(o, byNew.get(n)!.name);
    }
    db.exec(`PRAGMA user_version = ${version}`);
    return db;
  }

  it.each([1, 2, 10, 11, 16, 17])('a store of schema version %i is translated once and migrates to the schema of a fresh store', (version) => {
    const fresh = openDatabase();
    migrate(fresh, all);
    const db = legacyStore(version);
    const recorded = versionsOf(db);
    migrate(db, all);
    expect(versionsOf(db)).toEqual([0, ...SCHEMA_ADDED.flat()]);
    expect(recorded.every((o) => LEGACY_NUMBERS.has(o))).toBe(true);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(schemaOf(db)).toEqual(schemaOf(fresh));
    expect(db.prepare('SELECT * FROM pragma_foreign_key_check').all()).toEqual([]);
    // Opened again: nothing to translate or run.
    const before = db.prepare('SELECT * FROM schema_migrations ORDER BY version').all();
    migrate(db, all);
    expect(db.prepare('SELECT * FROM schema_migrations ORDER BY version').all()).toEqual(before);
    db.close();
    fresh.close();
  });

  it('an old store recording a module-range number this version does not know was written by a newer one, and is left as it is', () => {
    const db = legacyStore(5);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (1699, ?, 1)').run('from_the_future');
    const before = versionsOf(db);
    expect(() => migrate(db, all)).toThrow(/newer resend-emulator \(migration 1699 \(from_the_future\)/);
    expect(versionsOf(db)).toEqual(before);
    db.close();
  });
});
