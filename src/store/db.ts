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
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { SCHEMA_VERSION, schemaVersionOf } from './schema.js';
import { runTransaction } from './after-commit.js';

export type DB = Database.Database;

/** One schema step. `version` orders all migrations of all modules. */
export interface Migration {
  /** Global order; each module takes its own range (core 1-99, see src/modules.ts). */
  version: number;
  /** Short label, stored in `schema_migrations`. */
  name: string;
  /** SQL run once, inside the migration transaction. */
  sql: string;
}

/**
 * Node >= 24.19 only (issue 30): there `node_object_wrap.h`, compiled into
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
 * wrapper is ever left to a collection V8 starts by itself. On other
 * versions nothing is held and the collector does as it likes. Never
 * `iterate()` or `backup()` here (more wrappers).
 */
const FINALIZE_FROM_JS = finalizeFromJs(process.versions.node);
/** Wrappers of open connections (Node >= 24.19), by connection. */
const open = new Map<DB, Map<string, Database.Statement>>();
/** Wrappers of closed connections, held until a `gc()` of ours has finalised them (Node >= 24.19). */
let closed: object[] = [];
/** The same, weakly: what is still alive after that `gc()` (something else holds it) is held again. */
let closedRefs: WeakRef<object>[] = [];
/** Connections closed since the last collection. */
let closedSinceGc = 0;
/** Closed connections let go together, before one full collection (a few ms of GC for 64 emulators). */
const CLOSED_BATCH = 64;
let collect: (() => void) | null = null;

/** True on Node versions whose ObjectWrap destructor needs a JS context: 24.19 and later (`version`: `process.versions.node`). */
export function finalizeFromJs(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 19);
}

/** A full garbage collection started from JavaScript: `globalThis.gc` under `--expose-gc`, or the same function from a fresh context. */
function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/**
 * After `db.close()` (Node >= 24.19): its wrappers are held in `closed`.
 * Every `CLOSED_BATCH` closes they are let go and a full `gc()` runs at
 * once, so the destructors of those nobody else holds run here, in JS;
 * those still alive after it (a test keeping an old emulator, a caller
 * keeping a statement) are held again, never left for a collection V8
 * starts by itself. (A WeakRef keeps its target alive to the end of the
 * job that made it, so this close's own wrappers wait for the next batch.)
 */
function retire(db: DB): void {
  const statements = open.get(db);
  if (!statements) return;
  open.delete(db);
  for (const o of [db, ...statements.values()]) {
    closed.push(o);
    closedRefs.push(new WeakRef(o));
  }
  if (++closedSinceGc < CLOSED_BATCH) return;
  closedSinceGc = 0;
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
 * at once. `db.transaction(fn)` returns a plain function (no `.immediate`
 * and friends) that runs `fn` in a transaction, nested ones as savepoints;
 * callbacks queued by `afterCommit` (src/store/after-commit.ts) run when the
 * outermost one commits and are dropped with a level that rolls back.
 * `db.prepare(sql)` returns one cached statement per SQL text, so
 * callers must not change a statement's mode (`pluck`, `raw`, `expand`) and
 * must not `iterate()` a statement they may re-enter. Throws
 * `DatabaseInUseError` at once when another connection holds the file,
 * `DatabaseStartError` for a file that is not a database or cannot be
 * opened for writing (nothing written to it), or the driver's error.
 */
export function openDatabase(file = ':memory:'): DB {
  // timeout 0: a file held elsewhere fails at once instead of after the 5 s busy wait.
  let db: DB;
  try {
    db = new Database(file, { timeout: 0 });
  } catch (err) {
    throw openError(file, err);
  }
  const statements = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  }) as DB['prepare'];
  if (FINALIZE_FROM_JS) {
    open.set(db, statements);
    const close = db.close.bind(db);
    db.close = () => {
      close();
      retire(db);
      return db;
    };
  }
  // One transaction wrapper per connection: better-sqlite3's `transaction(fn)` builds five wrappers and their
  // properties on every call, which code calling `db.transaction(() => …)()` per request paid each time (~3 % of
  // POST /emails). Same semantics: BEGIN (deferred) or a savepoint when nested, rollback on throw; and what
  // `afterCommit` queued runs once the outermost level commits, or is dropped with a level that rolls back
  // (src/store/after-commit.ts: the bus tells only committed state).
  const inTransaction = db.transaction((run: () => unknown) => run());
  db.transaction = ((fn: (...args: unknown[]) => unknown) => (...args: unknown[]) =>
    runTransaction(db, () => inTransaction(() => fn(...args)))) as unknown as DB['transaction'];
  // exec, not pragma(): pragma() makes an uncached statement (see FINALIZE_FROM_JS).
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
 * Applies, in `version` order, every migration not yet recorded in
 * `schema_migrations`, each in its own transaction, then records the
 * store's schema version (src/store/schema.ts) in `PRAGMA user_version`
 * when the applied set is one of the project's.
 * Throws if two migrations share a version (a programming error), and
 * `DatabaseStartError` (`EMULATOR_DB_TOO_NEW`, before writing anything)
 * when the store was written by a newer version: a `user_version` above
 * `SCHEMA_VERSION`, or an applied migration that `migrations` lacks.
 */
export function migrate(db: DB, migrations: Migration[]): void {
  const stamped = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get() !== undefined;
  const known = new Set(migrations.map((m) => m.version));
  const foreign = hasTable
    ? (db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[]).filter((r) => !known.has(r.version))
    : [];
  if (stamped > SCHEMA_VERSION || foreign.length) {
    const file = db.name;
    const theirs = stamped > SCHEMA_VERSION ? `schema version ${stamped}` : `migration${foreign.length === 1 ? '' : 's'} ${foreign.map((f) => `${f.version} (${f.name})`).join(', ')}`;
    throw new DatabaseStartError('EMULATOR_DB_TOO_NEW', file, `--db ${file} was written by a newer resend-emulator (${theirs}; this version knows schema version ${SCHEMA_VERSION}); it was left as it is: upgrade resend-emulator, or give --db another file`);
  }
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].version === sorted[i - 1].version) {
      throw new Error(`duplicate migration version ${sorted[i].version}: ${sorted[i - 1].name} and ${sorted[i].name}`);
    }
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

/**
 * An empty store's schema after a set of migrations, to be replayed: the
 * schema's statements in creation order (`sqlite_master`, SQLite's own
 * objects left out: it makes them again), the rows the migrations wrote
 * (`schema_migrations`) and `PRAGMA user_version`.
 */
interface MigratedSchema {
  sql: string;
  rows: { insert: string; values: unknown[][] }[];
  userVersion: number;
}

/** The migrated schema of each set of migrations run in this process, by that set. */
const migratedSchemas = new Map<string, MigratedSchema>();

/** What `replayMigrated` needs to make `db`'s schema and rows again. */
function migratedSchemaOf(db: DB): MigratedSchema {
  const objects = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
    .all() as { type: string; name: string; sql: string }[];
  const rows: MigratedSchema['rows'] = [];
  for (const { name } of objects.filter((o) => o.type === 'table')) {
    const values = db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
    if (!values.length) continue;
    const width = values[0].length;
    rows.push({ insert: `INSERT INTO "${name}" VALUES (${Array(width).fill('?').join(', ')})`, values });
  }
  return { sql: objects.map((o) => `${o.sql};`).join('\n'), rows, userVersion: (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version };
}

/**
 * A new in-memory store with `migrations` applied: what `openDatabase()`
 * then `migrate(db, migrations)` give. The first call for a set of
 * migrations runs them and keeps the resulting schema; later calls replay
 * it in one transaction (the final CREATE statements, not the history of
 * ALTERs and copies). Running the migrations was most of a later
 * `startServer()` (~5 ms of its ~10, by a CPU profile of 400 starts). A
 * copy of a serialized image would be faster still (~0.1 ms), but SQLite's
 * deserialize caps such a store at 1 GiB, where a plain `:memory:` store has
 * no cap. Throws as `migrate` does.
 */
export function openMigratedMemoryStore(migrations: Migration[]): DB {
  const key = migrations.map((m) => `${m.version} ${m.name}`).sort().join('\n');
  const db = openDatabase(':memory:');
  const schema = migratedSchemas.get(key);
  if (!schema) {
    migrate(db, migrations);
    migratedSchemas.set(key, migratedSchemaOf(db));
    return db;
  }
  db.transaction(() => {
    db.exec(schema.sql);
    for (const { insert, values } of schema.rows) {
      const stmt = db.prepare(insert);
      for (const v of values) stmt.run(...v);
    }
  })();
  db.exec(`PRAGMA user_version = ${schema.userVersion}`);
  return db;
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
