/**
 * The final schema of the emulator's migrations written by the build
 * (scripts/bundle.mjs: dist/store-schema.json), which a new store of dist/
 * replays instead of running the migrations: it is the schema the
 * migrations of src/ make, and from src/ there is none (the migrations run).
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrate, migrationsKey, openDatabase, prebuiltSchemaFile, type DB } from '../../src/store/db.js';
import { modules } from '../../src/modules.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const migrations = modules.flatMap((m) => m.migrations ?? []);

describe('the migrated schema written at build time', () => {
  it('is the one of the migrations of src/, and a store of dist/ made from it equals one that ran them', async () => {
    const file = path.join(root, 'dist', 'store-schema.json');
    const compiled = (await import(pathToFileURL(path.join(root, 'dist', 'src', 'store', 'db.js')).href)) as typeof import('../../src/store/db.js');
    expect(compiled.prebuiltSchemaFile()).toBe(file);
    const image = JSON.parse(fs.readFileSync(file, 'utf8')) as { key: string };
    expect(image.key).toBe(migrationsKey(migrations));
    const ran = openDatabase();
    migrate(ran, migrations);
    const replayed = compiled.openMigratedMemoryStore(migrations) as unknown as DB;
    const schema = (db: DB) => db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name`).all();
    expect(schema(replayed)).toEqual(schema(ran));
    expect((schema(replayed) as unknown[]).length).toBeGreaterThan(50);
    const versions = (db: DB) => db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(versions(replayed)).toEqual(versions(ran));
    const userVersion = (db: DB) => db.prepare('PRAGMA user_version').get();
    expect(userVersion(replayed)).toEqual(userVersion(ran));
    ran.close();
    replayed.close();
  });

  it('from src/ (tests, development) there is none, so edited migrations run at once', () => {
    expect(fs.existsSync(prebuiltSchemaFile())).toBe(false);
  });
});
