/**
 * src/store/db.ts: a `--db` file belongs to one emulator at a time (issue
 * 13): a second `startServer({ db })` on a file another holds fails at once
 * with `DatabaseInUseError`, and starts once the first has closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { DatabaseInUseError, finalizeFromJs, migrate, openDatabase, openMigratedMemoryStore } from '../../src/store/db.js';

describe('store file lock', () => {
  const dirs: string[] = [];
  const servers: EmulatorServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a second emulator on the same file fails at once; after the first closes it opens the same state', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-lock-'));
    dirs.push(dir);
    const db = path.join(dir, 'state.db');
    const first = await startServer({ db });
    servers.push(first);
    const res = await fetch(`${first.url}/contacts`, { method: 'POST', headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'lock@example.net' }) });
    expect(res.status).toBe(201);
    const t0 = Date.now();
    const err = await startServer({ db }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseInUseError);
    expect((err as Error).message).toBe(`--db ${db} is in use by another running emulator (or another program holding it); stop that one or pick another file`);
    expect(Date.now() - t0).toBeLessThan(2_000);
    await servers.pop()!.close();
    const second = await startServer({ db });
    servers.push(second);
    const list = await (await fetch(`${second.url}/contacts`, { headers: { authorization: `Bearer ${second.apiKey}` } })).json() as { data: { email: string }[] };
    expect(list.data.map((c) => c.email)).toContain('lock@example.net');
  });
});

describe('in-memory stores made from the migrated schema', () => {
  const migrations = [
    { version: 1, name: 'things', sql: 'CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER NOT NULL); CREATE INDEX things_n ON things (n);' },
    { version: 2, name: 'more', sql: 'CREATE TABLE more (id TEXT PRIMARY KEY REFERENCES things (id))' },
  ];

  it('a later store has the first one\'s schema and migrations, and rows of its own', () => {
    const first = openMigratedMemoryStore(migrations);
    first.prepare('INSERT INTO things (id, n) VALUES (?, ?)').run('a', 1);
    const second = openMigratedMemoryStore(migrations);
    const schema = (db: typeof first) => db.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY name`).all();
    expect(schema(second)).toEqual(schema(first));
    expect(second.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1 }, { version: 2 }]);
    // The schema replayed, not the first store's rows: its row is not in the second, nor the second's in it.
    expect(second.prepare('SELECT COUNT(*) AS n FROM things').get()).toEqual({ n: 0 });
    second.prepare('INSERT INTO things (id, n) VALUES (?, ?)').run('b', 2);
    expect(first.prepare('SELECT id FROM things').all()).toEqual([{ id: 'a' }]);
    // The connection settings of openDatabase hold on the copy too (foreign keys on).
    expect(() => second.prepare('INSERT INTO more (id) VALUES (?)').run('nope')).toThrow(/FOREIGN KEY/);
    // migrate() finds nothing to do on it.
    migrate(second, migrations);
    expect(second.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: 2 });
    first.close();
    second.close();
  });

  it('another set of migrations gets its own schema', () => {
    const a = openMigratedMemoryStore(migrations.slice(0, 1));
    const b = openMigratedMemoryStore(migrations);
    expect(a.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'more'`).get()).toBeUndefined();
    expect(b.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'more'`).get()).toEqual({ name: 'more' });
    a.close();
    b.close();
  });
});

describe('better-sqlite3 wrappers and the Node 24.19 ObjectWrap destructor (src/store/db.ts)', () => {
  it('holds wrappers for a gc() of its own only from Node 24.19 on', () => {
    expect(['20.19.0', '22.20.0', '24.18.1'].map(finalizeFromJs)).toEqual([false, false, false]);
    expect(['24.19.0', '24.21.0', '26.1.0'].map(finalizeFromJs)).toEqual([true, true, true]);
  });

  it('a closed connection answers as closed, and many of them in a row leave the process well', () => {
    const dbs = Array.from({ length: 200 }, () => {
      const db = openDatabase();
      db.exec('CREATE TABLE t (a)');
      for (let i = 0; i < 10; i++) db.prepare(`INSERT INTO t VALUES (${i})`).run();
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 10 });
      db.close();
      return db;
    });
    expect(dbs.every((db) => !db.open)).toBe(true);
    expect(() => dbs[0].prepare('SELECT 1').get()).toThrow(/not open/);
  });
});
