/**
 * src/store/db.ts: a `--db` file belongs to one emulator at a time (issue
 * 13): a second `startServer({ db })` on a file another holds fails at once
 * with `DatabaseInUseError`, and starts once the first has closed. The
 * store interface (`DB`) wraps the driver without patching it: a statement
 * cache bounded as an LRU, modes per call, transactions, lists through
 * `json_each(?)`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type EmulatorServer } from '../../src/index.js';
import Database from 'better-sqlite3';
import { cachedStatementCount, DatabaseInUseError, finalizeFromJs, openDatabase, STATEMENT_CACHE_SIZE, type DB } from '../../src/store/db.js';

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

describe('the store interface over the driver', () => {
  const stores: DB[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
  });
  const store = () => {
    const db = openDatabase();
    stores.push(db);
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)');
    return db;
  };

  it('is not the driver: better-sqlite3\'s own objects keep their methods', () => {
    const db = store();
    expect(db).not.toBeInstanceOf(Database);
    const driver = new Database(':memory:');
    try {
      expect(Object.hasOwn(driver, 'prepare')).toBe(false);
      expect(Object.hasOwn(driver, 'transaction')).toBe(false);
      expect(driver.prepare).toBe(Database.prototype.prepare);
    } finally {
      driver.close();
    }
  });

  it('in src/, only src/store/db.ts imports the driver', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const importers = (fs.readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => f.endsWith('.ts') && /from 'better-sqlite3'|import\('better-sqlite3'\)|require\('better-sqlite3'\)/.test(fs.readFileSync(path.join(src, f), 'utf8')))
      .map((f) => f.split(path.sep).join('/'));
    expect(importers).toEqual(['store/db.ts']);
  });

  it('a flood of distinct SQL texts never grows the statement cache past its bound, and evicted SQL prepares again', () => {
    const db = store();
    db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run('a', 1);
    for (let i = 0; i < STATEMENT_CACHE_SIZE * 3; i++) {
      expect(db.prepare(`SELECT n + ${i} AS v FROM t`).get()).toEqual({ v: 1 + i });
      expect(cachedStatementCount(db)).toBeLessThanOrEqual(STATEMENT_CACHE_SIZE);
    }
    expect(cachedStatementCount(db)).toBe(STATEMENT_CACHE_SIZE);
    expect(db.prepare('SELECT n + 0 AS v FROM t').get()).toEqual({ v: 1 });
    expect(cachedStatementCount(db)).toBe(STATEMENT_CACHE_SIZE);
  });

  it('the cache is least recently used: a statement in use stays cached (the same object) through a flood', () => {
    const db = store();
    const hot = db.prepare('SELECT COUNT(*) AS n FROM t');
    for (let i = 0; i < STATEMENT_CACHE_SIZE * 2; i++) {
      db.prepare(`SELECT ${i} AS v`).get();
      expect(db.prepare('SELECT COUNT(*) AS n FROM t')).toBe(hot);
    }
  });

  it('raw() and pluck() hold their mode for their own calls only, on a statement shared by SQL text', () => {
    const db = store();
    db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run('a', 1);
    db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run('b', 2);
    const sql = 'SELECT id, n FROM t ORDER BY id';
    expect(db.prepare(sql).raw().all()).toEqual([['a', 1], ['b', 2]]);
    expect(db.prepare(sql).pluck().get()).toBe('a');
    expect(db.prepare(sql).all()).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 2 }]);
    expect(db.prepare(sql).columns()).toEqual(['id', 'n']);
    expect(() => db.prepare('SELECT nope FROM t').pluck().get()).toThrow(/no such column/);
    expect(db.prepare('SELECT n FROM t WHERE id = ?').get('b')).toEqual({ n: 2 });
  });

  it('transaction(fn) commits, rolls back on a throw (nested: to its savepoint) and passes arguments and results', () => {
    const db = store();
    const insert = db.prepare('INSERT INTO t (id, n) VALUES (?, ?)');
    const add = db.transaction((id: string, n: number) => insert.run(id, n).changes);
    expect(add('a', 1)).toBe(1);
    expect(() => db.transaction(() => { insert.run('b', 2); throw new Error('boom'); })()).toThrow('boom');
    db.transaction(() => {
      insert.run('c', 3);
      expect(() => db.transaction(() => { insert.run('d', 4); insert.run('a', 9); })()).toThrow(/UNIQUE/);
    })();
    expect(db.prepare('SELECT id FROM t ORDER BY id').pluck().all()).toEqual(['a', 'c']);
  });

  it('a list of values goes through json_each(?) as one JSON array: one SQL text for every length', () => {
    const db = store();
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run(id, i);
    const sql = 'SELECT id FROM t WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id';
    const before = cachedStatementCount(db);
    expect(db.prepare(sql).pluck().all(JSON.stringify([]))).toEqual([]);
    expect(db.prepare(sql).pluck().all(JSON.stringify(['b']))).toEqual(['b']);
    expect(db.prepare(sql).pluck().all(JSON.stringify(['d', 'a', 'x']))).toEqual(['a', 'd']);
    expect(cachedStatementCount(db)).toBe(before + 1);
  });

  it('close() twice is harmless; the store is unusable after it', () => {
    const db = openDatabase();
    db.close();
    db.close();
    expect(() => db.exec('SELECT 1')).toThrow(/not open/);
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
    for (const db of dbs) expect(() => db.prepare('SELECT 1').get()).toThrow(/not open/);
  });
});
