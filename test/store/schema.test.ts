/**
 * src/store/schema.ts: the schema versions. The newest is exactly the
 * migrations the modules declare (adding a migration means adding a
 * version), and a store records its version in `user_version`.
 */
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/modules.js';
import { migrate, openDatabase } from '../../src/store/db.js';
import { migrationsAt, SCHEMA_ADDED, SCHEMA_VERSION, schemaVersionOf } from '../../src/store/schema.js';

const all = modules.flatMap((m) => m.migrations ?? []);

describe('schema versions', () => {
  it('the newest version is every migration the modules declare; each version adds at least one, none twice', () => {
    expect([...migrationsAt(SCHEMA_VERSION)].sort((a, b) => a - b)).toEqual(all.map((m) => m.version).sort((a, b) => a - b));
    const flat = SCHEMA_ADDED.flat();
    expect(new Set(flat).size).toBe(flat.length);
    expect(SCHEMA_ADDED.every((a) => a.length > 0)).toBe(true);
  });

  it('schemaVersionOf names the version of an exact set, null for any other', () => {
    for (let v = 1; v <= SCHEMA_VERSION; v++) expect(schemaVersionOf(migrationsAt(v))).toBe(v);
    expect(schemaVersionOf([1, 2])).toBeNull();
    expect(schemaVersionOf([...migrationsAt(3), 99999])).toBeNull();
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
    fresh.close();
    old.close();
  });
});
