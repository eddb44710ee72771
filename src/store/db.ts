/**
 * The SQLite store: one better-sqlite3 connection per emulator, schema built
 * by numbered migrations that each resource module owns.
 *
 * Storage conventions every table follows (docs/reference/design.md#storage-conventions):
 * - `seq INTEGER PRIMARY KEY`: insertion order; lists are `ORDER BY seq DESC`
 *   (newest first, docs/reference/formats.md#lists) and cursors compare `seq`.
 * - `id TEXT UNIQUE NOT NULL`: the public identifier (lower-case UUID v4).
 * - `team_id TEXT NOT NULL`: every resource row belongs to a team.
 * - times are INTEGER milliseconds of emulated time; `src/http/format.ts`
 *   renders them as `YYYY-MM-DD HH:MM:SS.ffffff+00`.
 */
import Database from 'better-sqlite3';
import { runTransaction } from './after-commit.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEGACY_NUMBERS, NUMBERING, SCHEMA_VERSION, schemaVersionOf } from './schema.js';

/** What `run()` reports: rows changed, and the rowid of the last INSERT (SQLite's `changes()` and `last_insert_rowid()`). */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/**
 * A prepared statement of the store. Parameters are positional (`?`) or one
 * object of named ones (`@name`); values are numbers, strings, bigints,
 * Buffers or null. `get()` gives the first row (`undefined` when none),
 * `all()` every row, as objects keyed by column name unless the statement
 * was reached through `raw()` (rows as arrays) or `pluck()` (the first
 * column's value). `raw()` and `pluck()` return views of the same
 * statement whose mode holds only for their own calls, so a statement
 * shared by SQL text is never left in a mode another caller does not
 * expect. `columns()` names the result columns, in order. Errors are the
 * driver's (`SqliteError`, with `code` such as `SQLITE_CONSTRAINT_UNIQUE` or
 * `SQLITE_FULL`). No `iterate()`: a cursor left open keeps the statement
 * busy for any other caller of the same SQL, and on Node >= 24.19 makes
 * more native wrappers (see `FINALIZE_FROM_JS`).
 */
export interface Statement<Row = unknown> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  /** The same statement, giving each row as an array of column values (for this view's calls only). */
  raw(): Statement<unknown[]>;
  /** The same statement, giving each row's first column value (for this view's calls only). */
  pluck(): Statement<unknown>;
  /** The result columns' names, in order (read once per statement). */
  columns(): readonly string[];
}

/**
 * The store: what the emulator needs of SQLite, over one better-sqlite3
 * connection that it wraps and never patches (`openDatabase`).
 * - `prepare(sql)`: the statement for `sql`, from a cache of the
 *   `STATEMENT_CACHE_SIZE` most recently used SQL texts (LRU). SQL is text
 *   the code writes, never user input; a list of values is passed as one
 *   JSON array through `json_each(?)`, so each query shape is one SQL text.
 * - `exec(sql)`: runs one or more statements, no parameters, no result
 *   (schema, PRAGMA settings).
 * - `transaction(fn)`: a function that runs `fn` in a transaction
 *   (`BEGIN` deferred, `COMMIT`; `ROLLBACK` and rethrow when `fn` throws);
 *   nested calls are savepoints. `fn` must be synchronous. Callbacks queued
 *   by `afterCommit` (src/store/after-commit.ts) run when the outermost one
 *   commits and are dropped with a level that rolls back.
 * - `inTransaction`: whether a transaction is open (after-commit reads it).
 * - `close()`: closes the connection (again: nothing); any later call throws.
 * - `name`: the file given to `openDatabase` (`:memory:` for none).
 */
export interface DB {
  readonly name: string;
  readonly inTransaction: boolean;
  prepare<Row = unknown>(sql: string): Statement<Row>;
  exec(sql: string): void;
  transaction<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R;
  close(): void;
}

/**
 * How many prepared statements a store keeps (least recently used let go
 * first). The emulator's code has a few hundred distinct SQL texts; the
 * lists of values go through `json_each(?)`, so the number of texts does
 * not grow with data. Past the bound a statement is prepared again when
 * next used (tens of µs).
 */
export const STATEMENT_CACHE_SIZE = 512;

/** One schema step. `version` orders all migrations of all modules. */
export interface Migration {
  /** Its number in the order written: 1, 2, 3, … across all modules, the next one for a new migration (src/store/schema.ts). */
  version: number;
  /** Short label, stored in `schema_migrations`. */
  name: string;
  /** SQL run once, inside the migration transaction. */
  sql: string;
}

/**
 * Node >= 24.19 only (holding them on every Node kept every closed emulator in memory): there `node_object_wrap.h`, compiled into
 * better-sqlite3 12 (the last line that supports Node 20; 13 is Node-API and
 * needs Node 22), registers an environment cleanup hook for every wrapped
 * object and removes it in the destructor, which needs an entered JS context
 * (nodejs/node#63642, reported as nodejs/node#65446 and
 * WiseLibs/better-sqlite3#1515). A `Database` or `Statement` wrapper that
 * the garbage collector finalises during a collection V8 starts by itself
 * (an allocation inside native code, a scheduled task) aborts the process:
 * "Assertion failed: (env) != nullptr" in `RemoveEnvironmentCleanupHook`,
 * from `~Statement` / `~Database`. A collection started from JavaScript
 * (`gc()`) runs those destructors in that context, safely (reproduced on
 * 24.21: a loop of 100 connections aborts; 2,000 released only right
 * before a `gc()` do not). So on those versions a connection's wrappers
 * (the `Database` and its cached statements) are held while it is open
 * (`open`), and after `close()` until a `gc()` of ours has finalised them
 * (`retire`): memory stays flat over any number of emulators, and no
 * wrapper is ever left to a collection V8 starts by itself. That collection
 * changes no runtime flag of the host (`fullGc`: the host's own `gc()` when
 * it exposes one, else `v8.queryObjects`; the same abort loop of 3,000
 * connections, each batch of 64 collected by `v8.queryObjects`, ran through
 * on 24.21). On other versions nothing is held and the collector does as it
 * likes. Never `iterate()` or `backup()` here (more wrappers).
 */
const FINALIZE_FROM_JS = finalizeFromJs(process.versions.node);
/** Wrappers of closed connections and let-go statements, held until a `gc()` of ours has finalised them (Node >= 24.19). */
let closed: object[] = [];
/** The same, weakly: what is still alive after that `gc()` (something else holds it) is held again. */
let closedRefs: WeakRef<object>[] = [];
/** Connections closed since the last collection. */
let closedSinceGc = 0;
/** Statements let go by a cache (LRU) since the last collection. */
let evictedSinceGc = 0;
/** Closed connections let go together, before one full collection (a few ms of GC for 64 emulators). */
const CLOSED_BATCH = 64;
/** Statements let go by caches before one full collection: a flood of distinct SQL stays bounded in memory too. */
const EVICTED_BATCH = 1_024;
let collect: (() => void) | null = null;
/** Open stores (Node >= 24.19): their wrappers stay reachable while open, even when the caller drops a store without closing it. */
const open = new Set<DB>();

/** True on Node versions whose ObjectWrap destructor needs a JS context: 24.19 and later (`version`: `process.versions.node`). */
export function finalizeFromJs(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 19);
}

/**
 * A full garbage collection started from JavaScript, without touching the
 * host's runtime flags: `globalThis.gc` where the process exposes it
 * (`node --expose-gc`; the CLI's own process does, bin/emulator.js), else
 * `v8.queryObjects`, which collects all garbage (V8's
 * `CollectAllAvailableGarbage`, in the calling JS context, so the
 * destructors find their environment) before it counts the instances of a
 * class that has none. Node prints one `ExperimentalWarning` for
 * `v8.queryObjects()` per process the first time (docs/vitest.md#memory-and-node-2419-and-later).
 */
function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  // Loaded here, on the Node versions that collect: node:v8 (and what it loads) costs every start a few ms.
  const v8 = process.getBuiltinModule('node:v8');
  /** A class with no instance: what is counted does not matter, the collection before the count does. */
  class NoInstance {}
  return () => {
    v8.queryObjects(NoInstance, { format: 'count' });
  };
}

/**
 * Native wrappers let go (Node >= 24.19): a closed connection's `Database`
 * and its cached statements (`connections` 1), or statements a cache let
 * go (`connections` 0). They are held in `closed`. Every `CLOSED_BATCH`
 * closes (or `EVICTED_BATCH` statements let go) they are let go and a full
 * `gc()` runs at once, so the destructors of those nobody else holds run
 * here, in JS; those still alive after it (a test keeping an old emulator,
 * a caller keeping a statement) are held again, never left for a
 * collection V8 starts by itself. (A WeakRef keeps its target alive to the
 * end of the job that made it, so this call's own wrappers wait for the
 * next batch.)
 */
function retire(wrappers: Iterable<object>, connections: number): void {
  let n = 0;
  for (const o of wrappers) {
    closed.push(o);
    closedRefs.push(new WeakRef(o));
    n++;
  }
  closedSinceGc += connections;
  if (!connections) evictedSinceGc += n;
  if (closedSinceGc < CLOSED_BATCH && evictedSinceGc < EVICTED_BATCH) return;
  closedSinceGc = 0;
  evictedSinceGc = 0;
  collect ??= fullGc();
  const refs = closedRefs;
  closed.length = 0; // nothing allocated between letting go and collecting
  collect();
  closed = [];
  closedRefs = [];
  for (const ref of refs) {
    const alive = ref.deref();
    if (alive) {
      closed.push(alive);
      closedRefs.push(ref);
    }
  }
}

/** A view of a cached statement: rows as objects, arrays (`raw`) or first values (`pluck`), the mode set for each call and put back after. */
class StoreStatement<Row> implements Statement<Row> {
  #raw: StoreStatement<unknown[]> | undefined;
  #pluck: StoreStatement<unknown> | undefined;
  #columns: readonly string[] | undefined;
  constructor(
    /** The driver's statement. */
    readonly stmt: Database.Statement<unknown[], unknown>,
    private readonly mode: 'objects' | 'raw' | 'pluck',
    private readonly base?: StoreStatement<unknown>,
  ) {}
  run(...params: unknown[]): RunResult {
    return this.stmt.run(...params);
  }
  get(...params: unknown[]): Row | undefined {
    if (this.mode === 'objects') return this.stmt.get(...params) as Row | undefined;
    this.enter();
    try {
      return this.stmt.get(...params) as Row | undefined;
    } finally {
      this.leave();
    }
  }
  all(...params: unknown[]): Row[] {
    if (this.mode === 'objects') return this.stmt.all(...params) as Row[];
    this.enter();
    try {
      return this.stmt.all(...params) as Row[];
    } finally {
      this.leave();
    }
  }
  raw(): Statement<unknown[]> {
    const base = this.base ?? (this as StoreStatement<unknown>);
    return (base.#raw ??= new StoreStatement<unknown[]>(this.stmt, 'raw', base));
  }
  pluck(): Statement<unknown> {
    const base = this.base ?? (this as StoreStatement<unknown>);
    return (base.#pluck ??= new StoreStatement<unknown>(this.stmt, 'pluck', base));
  }
  columns(): readonly string[] {
    const base = this.base ?? (this as StoreStatement<unknown>);
    return (base.#columns ??= Object.freeze(this.stmt.columns().map((c) => c.name)));
  }
  private enter(): void {
    if (this.mode === 'raw') this.stmt.raw(true);
    else this.stmt.pluck(true);
  }
  private leave(): void {
    if (this.mode === 'raw') this.stmt.raw(false);
    else this.stmt.pluck(false);
  }
}

/** The store over one better-sqlite3 connection (see `DB`); the driver's objects are used as they are. */
class Store implements DB {
  /** Statements by SQL text, least recently used first (a Map keeps insertion order). */
  readonly #statements = new Map<string, StoreStatement<unknown>>();
  readonly #db: Database.Database;
  readonly #inTransaction: (run: () => unknown) => unknown;
  #closed = false;
  constructor(db: Database.Database) {
    this.#db = db;
    // One transaction function per connection: better-sqlite3's `transaction(fn)` builds five wrappers and their
    // properties on every call, which code calling `db.transaction(() => …)()` per request paid each time (~3 % of
    // POST /emails). Same semantics: BEGIN (deferred) or a savepoint when nested, rollback on throw.
    this.#inTransaction = db.transaction((run: () => unknown) => run());
  }
  get name(): string {
    return this.#db.name;
  }
  /** How many statements the cache holds now (at most `STATEMENT_CACHE_SIZE`). */
  get cachedStatements(): number {
    return this.#statements.size;
  }
  prepare<Row = unknown>(sql: string): Statement<Row> {
    const cache = this.#statements;
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql); // most recently used goes last
    } else {
      stmt = new StoreStatement<unknown>(this.#db.prepare(sql), 'objects');
      if (cache.size >= STATEMENT_CACHE_SIZE) {
        const [oldest, evicted] = cache.entries().next().value!;
        cache.delete(oldest);
        if (FINALIZE_FROM_JS) retire([nativeOf(evicted)], 0);
      }
    }
    cache.set(sql, stmt);
    return stmt as Statement<unknown> as Statement<Row>;
  }
  exec(sql: string): void {
    this.#db.exec(sql);
  }
  /** Whether a transaction is open on the connection (src/store/after-commit.ts reads it). */
  get inTransaction(): boolean {
    return this.#db.inTransaction;
  }
  transaction<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R {
    const inTransaction = this.#inTransaction;
    // What `afterCommit` queued runs once the outermost level commits, or is dropped with a level that rolls
    // back (src/store/after-commit.ts: the bus tells only committed state).
    return (...args: Args) => runTransaction(this, () => inTransaction(() => fn(...args)) as R);
  }
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
    open.delete(this);
    const statements = [...this.#statements.values()].map(nativeOf);
    this.#statements.clear();
    if (FINALIZE_FROM_JS) retire([this.#db, ...statements], 1);
  }
}

/** The driver's statement under a view. */
function nativeOf(stmt: StoreStatement<unknown>): object {
  return stmt.stmt;
}

/** How many statements `db`'s cache holds (tests: the cache stays within `STATEMENT_CACHE_SIZE`). */
export function cachedStatementCount(db: DB): number {
  return (db as Store).cachedStatements;
}

/** `openDatabase` on a file that another process (or connection) holds. `code`: `EMULATOR_DB_IN_USE`. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
  readonly code = 'EMULATOR_DB_IN_USE';
  constructor(readonly file: string) {
    super(`--db ${file} is in use by another running emulator (or another program holding it); stop that one or pick another file`);
  }
}

/**
 * A `--db` file the emulator cannot use, found at start-up before anything
 * is written to it. `message` is one line naming the file and what to do.
 * `code`:
 * - `EMULATOR_DB_NOT_A_DATABASE`: the file is not an SQLite database;
 * - `EMULATOR_DB_NO_ACCESS`: the file or its folder cannot be opened or
 *   written by this user (SQLite needs its folder writable for the WAL);
 * - `EMULATOR_DB_TOO_NEW`: a newer resend-emulator wrote it (a schema
 *   version, or migrations, this version does not know).
 */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
  constructor(readonly code: 'EMULATOR_DB_NOT_A_DATABASE' | 'EMULATOR_DB_NO_ACCESS' | 'EMULATOR_DB_TOO_NEW', readonly file: string, message: string) {
    super(message);
  }
}

/** The start-up error for a driver error opening `file`, or the error itself when it is none of the faults above. */
function openError(file: string, err: unknown): unknown {
  const code = (err as { code?: string }).code ?? '';
  const cause = `${code}: ${(err as Error).message}`;
  const dir = path.dirname(path.resolve(file));
  if (code === 'SQLITE_BUSY') return new DatabaseInUseError(file);
  if (code === 'SQLITE_NOTADB') {
    return new DatabaseStartError('EMULATOR_DB_NOT_A_DATABASE', file, `--db ${file} is not an SQLite database (${cause}); it was left as it is: give --db an emulator store, or a path that does not exist yet for a new one`);
  }
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_IOERR')) {
    return new DatabaseStartError('EMULATOR_DB_NO_ACCESS', file, `--db ${file} cannot be opened for writing (${cause}); the emulator needs to read and write the file and to create files in its folder ${dir} (the WAL beside it): grant that, or pick another path`);
  }
  return err;
}

/**
 * Opens the store. `file` is `:memory:` (default) or a path; a file is put in
 * WAL mode and locked for this connection alone (`locking_mode = EXCLUSIVE`
 * plus a write at open, held until close; the OS drops the lock when the
 * process dies, even by kill -9), so two emulators never write one file
 * at once. Returns the store interface `DB` (statements cached per SQL
 * text, LRU-bounded; transactions as plain functions); the driver's own
 * objects are never handed out nor patched. Throws
 * `DatabaseInUseError` at once when another connection holds the file,
 * `DatabaseStartError` for a file that is not a database or cannot be
 * opened for writing (nothing written to it), or the driver's error.
 */
export function openDatabase(file = ':memory:'): DB {
  // timeout 0: a file held elsewhere fails at once instead of after the 5 s busy wait.
  let driver: Database.Database;
  try {
    driver = new Database(file, { timeout: 0 });
  } catch (err) {
    throw openError(file, err);
  }
  const db = new Store(driver);
  if (FINALIZE_FROM_JS) open.add(db);
  // exec, not the driver's pragma(): that makes an uncached statement (see FINALIZE_FROM_JS).
  if (file !== ':memory:') {
    try {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('BEGIN EXCLUSIVE; COMMIT'); // takes the lock now, and keeps it
    } catch (err) {
      db.close();
      throw openError(file, err);
    }
  }
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA synchronous = NORMAL');
  return db;
}

/**
 * Applies, in `version` order (the order written, src/store/schema.ts),
 * every migration not yet recorded in `schema_migrations`, each in its own
 * transaction, then records the store's schema version (src/store/schema.ts)
 * in `PRAGMA user_version` when the applied set is one of the project's.
 * A store recorded under the module-range numbers of schema versions 1 to
 * 17 (no row of migration 0, `NUMBERING`) has them translated first
 * (`LEGACY_NUMBERS`), with the row of migration 0, in one transaction.
 * A new, empty store (a `--db` file just created) gets instead the set's
 * final schema when it is known (`openMigratedMemoryStore`: the build's, or
 * one made earlier in the process), in one transaction: the same tables,
 * rows and version.
 * Throws if two migrations share a version (a programming error), and
 * `DatabaseStartError` (`EMULATOR_DB_TOO_NEW`, before writing anything)
 * when the store was written by a newer version: a `user_version` above
 * `SCHEMA_VERSION`, or an applied migration that `migrations` (or, under
 * the old numbers, `LEGACY_NUMBERS`) lacks.
 */
export function migrate(db: DB, migrations: Migration[]): void {
  const stamped = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get() !== undefined;
  const recorded = hasTable ? (db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as MigrationRow[]) : [];
  const numbered = recorded.some((r) => r.version === NUMBERING.version);
  const legacy = hasTable && !numbered;
  const known = new Set(migrations.map((m) => m.version));
  const foreign = legacy ? recorded.filter((r) => !LEGACY_NUMBERS.has(r.version)) : recorded.filter((r) => r.version !== NUMBERING.version && !known.has(r.version));
  if (stamped > SCHEMA_VERSION || foreign.length) {
    const file = db.name;
    const theirs = stamped > SCHEMA_VERSION ? `schema version ${stamped}` : `migration${foreign.length === 1 ? '' : 's'} ${foreign.map((f) => `${f.version} (${f.name})`).join(', ')}`;
    throw new DatabaseStartError('EMULATOR_DB_TOO_NEW', file, `--db ${file} was written by a newer resend-emulator (${theirs}; this version knows schema version ${SCHEMA_VERSION}); it was left as it is: upgrade resend-emulator, or give --db another file`);
  }
  // A new, empty store gets the final schema of these migrations in one transaction, when it is known (made
  // earlier in this process, or by the build): running them replays their history of ALTERs and copies.
  if (!hasTable && stamped === 0 && db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() === undefined) {
    const schema = knownSchema(migrationsKey(migrations));
    if (schema) {
      replayMigrated(db, schema);
      return;
    }
  }
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].version === NUMBERING.version || (i > 0 && sorted[i].version === sorted[i - 1].version)) {
      throw new Error(`duplicate migration version ${sorted[i].version}: ${i > 0 ? sorted[i - 1].name : NUMBERING.name} and ${sorted[i].name}`);
    }
  }
  if (!numbered) {
    db.transaction(() => {
      // The text every store has had since the first schema version (the schema is compared as text).
      db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
      if (legacy) {
        // Old and new numbers overlap (module-range 3 is 27, 100 is 3): every row is rewritten at once.
        db.prepare('DELETE FROM schema_migrations').run();
        const insert = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
        for (const r of recorded) insert.run(LEGACY_NUMBERS.get(r.version)!, r.name, r.applied_at);
      }
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(NUMBERING.version, NUMBERING.name, Date.now());
    })();
  }
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of sorted) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
  }
  const version = schemaVersionOf((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  if (version !== null && version !== stamped) db.exec(`PRAGMA user_version = ${version}`);
}

/** A row of `schema_migrations`: a migration's number, its name, and when it ran (wall-clock ms). */
interface MigrationRow {
  version: number;
  name: string;
  applied_at: number;
}

/**
 * An empty store's schema after a set of migrations, to be replayed: the
 * schema's statements in creation order (`sqlite_master`, SQLite's own
 * objects left out: it makes them again), the rows the migrations wrote
 * (`schema_migrations`; `applied_at` becomes the time of the replay) and
 * `PRAGMA user_version`. `key` is `migrationsKey` of the set. Values are
 * numbers, strings or null (the build writes it as JSON).
 */
export interface MigratedSchema {
  key: string;
  sql: string;
  rows: { table: string; insert: string; values: unknown[][] }[];
  userVersion: number;
}

/** The migrated schema of each set of migrations run in this process, by `migrationsKey`. */
const migratedSchemas = new Map<string, MigratedSchema>();

/**
 * The identity of a set of migrations: a SHA-256 (hex) of each one's
 * version, name and SQL, in version order. A migration whose SQL changed
 * makes another set, so a schema made from the old one is never used for it.
 */
export function migrationsKey(migrations: Migration[]): string {
  const hash = createHash('sha256');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) hash.update(`${m.version}\0${m.name}\0${m.sql}\0`);
  return hash.digest('hex');
}

/** What `replayMigrated` needs to make `db`'s schema and rows again (`key`: `migrationsKey` of what made it). */
function migratedSchemaOf(db: DB, key: string): MigratedSchema {
  const objects = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
    .all() as { type: string; name: string; sql: string }[];
  const rows: MigratedSchema['rows'] = [];
  for (const { name } of objects.filter((o) => o.type === 'table')) {
    const values = db.prepare(`SELECT * FROM "${name}"`).raw().all();
    if (!values.length) continue;
    const width = values[0].length;
    rows.push({ table: name, insert: `INSERT INTO "${name}" VALUES (${Array(width).fill('?').join(', ')})`, values });
  }
  return { key, sql: objects.map((o) => `${o.sql};`).join('\n'), rows, userVersion: (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version };
}

/** Makes `schema` in the empty store `db`: its statements and rows in one transaction, then its `user_version`. */
function replayMigrated(db: DB, schema: MigratedSchema): void {
  db.transaction(() => {
    db.exec(schema.sql);
    for (const { insert, values } of schema.rows) {
      const stmt = db.prepare(insert);
      for (const v of values) stmt.run(...v);
    }
    db.prepare('UPDATE schema_migrations SET applied_at = ?').run(Date.now());
  })();
  db.exec(`PRAGMA user_version = ${schema.userVersion}`);
}

/**
 * The migrated schema of the emulator's migrations as `npm run build`
 * wrote it (scripts/bundle.mjs): `dist/store-schema.json`, beside the
 * bundles (`dist/core.cjs`, `dist/cli.mjs`) or two folders above the
 * compiled `dist/src/store/db.js`. From `src/` (tests) there is none, so
 * the migrations themselves run there.
 */
export function prebuiltSchemaFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist' ? path.join(here, 'store-schema.json') : path.resolve(here, '..', '..', 'store-schema.json');
}

/** The build's schema (`prebuiltSchemaFile`), read once per process; null when there is none or it cannot be read. */
let prebuilt: MigratedSchema | null | undefined;

/** The schema of the set of migrations `key` names, made earlier in this process or by the build; null when neither has it. */
function knownSchema(key: string): MigratedSchema | null {
  const made = migratedSchemas.get(key);
  if (made) return made;
  if (prebuilt === undefined) {
    try {
      prebuilt = JSON.parse(fs.readFileSync(prebuiltSchemaFile(), 'utf8')) as MigratedSchema;
    } catch {
      prebuilt = null;
    }
  }
  // The build's file is of the sources it was built from: another set of migrations (edited sources, a test's own) runs its migrations.
  if (prebuilt?.key !== key) return null;
  migratedSchemas.set(key, prebuilt);
  return prebuilt;
}

/**
 * The final schema of `migrations`, run on a new in-memory store: what the
 * build writes as `prebuiltSchemaFile()` (scripts/bundle.mjs). Throws as
 * `migrate` does, or when a migration leaves a row value that JSON cannot
 * carry (a blob, a bigint).
 */
export function migratedSchema(migrations: Migration[]): MigratedSchema {
  const db = openDatabase(':memory:');
  try {
    migrate(db, migrations);
    const schema = migratedSchemaOf(db, migrationsKey(migrations));
    for (const { table, values } of schema.rows) {
      for (const row of values) {
        for (const v of row) if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw new Error(`migrated schema: a value of table ${table} is not a number, string or null`);
      }
    }
    return schema;
  } finally {
    db.close();
  }
}

/**
 * A new in-memory store with `migrations` applied: what `openDatabase()`
 * then `migrate(db, migrations)` give. The schema a set of migrations
 * leaves is made once, then replayed in one transaction (the final CREATE
 * statements, not the history of ALTERs and copies): the build's
 * (`prebuiltSchemaFile`) for the emulator's own migrations, so even the
 * first start of a process runs none; else the first call's, which runs
 * them. Running them was most of a later `startServer()` (~5 ms of its ~10,
 * by a CPU profile of 400 starts), and 30-100 ms of the first one (a
 * migration that drops ten columns rewrites the schema ten times). A copy
 * of a serialized image would be faster still (~0.1 ms), but SQLite's
 * deserialize caps such a store at 1 GiB, where a plain `:memory:` store
 * has no cap. Throws as `migrate` does (the store is closed then).
 */
export function openMigratedMemoryStore(migrations: Migration[]): DB {
  const key = migrationsKey(migrations);
  const db = openDatabase(':memory:');
  try {
    const schema = knownSchema(key);
    if (schema) {
      replayMigrated(db, schema);
    } else {
      migrate(db, migrations);
      migratedSchemas.set(key, migratedSchemaOf(db, key));
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Names of every user table (not sqlite internals, not `schema_migrations`,
 * not the emulator's own `emulator_*` bookkeeping such as the saved clock),
 * in creation order. Used by reset and snapshot.
 */
export function userTables(db: DB): string[] {
  return (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' AND substr(name, 1, 9) <> 'emulator_' ORDER BY rowid`,
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}
