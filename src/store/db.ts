/**
 * The SQLite store: one better-sqlite3 connection per emulator; its schema
 * is the tables each room declares (src/store/table.ts), made at once in a
 * new store, and the migrations after the 1.0 baseline in an older one
 * (src/store/schema.ts).
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
import path from 'node:path';
import { BASELINE_VERSION, schemaVersion, type Migration } from './schema.js';
import type { AnyTable } from './table.js';

export type { Migration } from './schema.js';

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
    // properties on every call, and code calls `db.transaction(() => …)()` per request, so each request would pay
    // for them (docs/benchmarks.md#figures-behind-the-code). Same semantics: BEGIN (deferred) or a savepoint when nested, rollback on throw.
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
 *   version this version does not know);
 * - `EMULATOR_DB_TOO_OLD`: resend-emulator 0.x wrote it (schema versions 1
 *   to 19, before the 1.0 baseline, src/store/schema.ts), or it holds
 *   tables without a schema version: 1.0 does not upgrade those
 *   (docs/cli.md `--db`).
 */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
  constructor(readonly code: 'EMULATOR_DB_NOT_A_DATABASE' | 'EMULATOR_DB_NO_ACCESS' | 'EMULATOR_DB_TOO_NEW' | 'EMULATOR_DB_TOO_OLD', readonly file: string, message: string) {
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

/** The emulator's schema: every module's declared tables (in module order) and the migrations after the baseline. */
export interface Schema {
  tables: readonly AnyTable[];
  migrations: readonly Migration[];
}

/** The SQL that makes `schema`'s tables in an empty store: each table's CREATE, indexes and triggers, in order. */
export function schemaSql(schema: Pick<Schema, 'tables'>): string {
  return schema.tables.map((t) => t.createSql).join('\n');
}

/**
 * Brings `db` to `schema` (src/store/schema.ts):
 * - an empty store gets the declared tables and its schema version
 *   (`PRAGMA user_version`) in one transaction;
 * - a store of an earlier version since the baseline gets each migration
 *   after its version, in order, each in one transaction with its version.
 * Throws `DatabaseStartError` before writing anything when the store is of
 * a newer version (`EMULATOR_DB_TOO_NEW`), of a 0.x version or holds
 * tables without a version (`EMULATOR_DB_TOO_OLD`); and what
 * `schemaVersion` throws for migrations that are not numbered in order.
 */
export function migrate(db: DB, schema: Schema): void {
  const current = schemaVersion(schema.migrations);
  const stamped = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const file = db.name;
  if (stamped === 0 && db.prepare(`SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1`).get() === undefined) {
    db.transaction(() => {
      db.exec(schemaSql(schema));
      db.exec(`PRAGMA user_version = ${current}`);
    })();
    return;
  }
  if (stamped > current) {
    throw new DatabaseStartError('EMULATOR_DB_TOO_NEW', file, `--db ${file} was written by a newer resend-emulator (schema version ${stamped}; this version knows schema version ${current}); it was left as it is: upgrade resend-emulator, or give --db another file`);
  }
  if (stamped < BASELINE_VERSION) {
    const zeroX = stamped > 0 || db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get() !== undefined;
    const what = zeroX ? stamped ? `was written by resend-emulator 0.x (schema version ${stamped})` : 'was written by an early resend-emulator 0.x (one that did not record its schema version)' : 'holds tables but no resend-emulator schema version';
    throw new DatabaseStartError('EMULATOR_DB_TOO_OLD', file, `--db ${file} ${what}; this version (schema version ${current}) starts only on stores of 1.0 or later, and it was left as it is: give --db a new file (or delete this one), or export a snapshot with the version that wrote it and import it here`);
  }
  for (const m of [...schema.migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= stamped) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    })();
  }
}

/**
 * Names of every user table (not sqlite internals, not the emulator's own
 * `emulator_*` bookkeeping such as the saved clock and the usage ledger),
 * in creation order. Used by reset and snapshot.
 */
export function userTables(db: DB): string[] {
  return (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND substr(name, 1, 9) <> 'emulator_' ORDER BY rowid`,
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}
