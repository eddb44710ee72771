/**
 * Snapshots: the whole state as JSON `{version: 1, schema_version, clock_ms,
 * tables: {name: rows[]}}` (`exportSnapshot`), and back (`importSnapshot`,
 * checked first, then one transaction). The admin API's `/_emulator/snapshot`.
 *
 * `schema_version` is the store's schema version when the snapshot was
 * written (src/store/schema.ts). An older snapshot is brought forward
 * through the same migrations as a `--db` file (`upgradeTables`: its rows
 * are loaded into a scratch in-memory store at its version, which is then
 * migrated to this one); a snapshot without `schema_version` (written
 * before snapshots carried it) is recognised from its tables and columns
 * (`inferSchemaVersion`). A newer one is refused, naming both versions.
 */
import type { Emulator } from '../context.js';
import { ApiError } from '../http/errors.js';
import { migrate, openDatabase, userTables, type DB, type Migration } from '../store/db.js';
import { migrationsAt, SCHEMA_VERSION } from '../store/schema.js';
import { MAX_CLOCK_MS } from '../clock/clock.js';
import { dropOrphanedUploads, referencedUploads } from './uploads.js';

/** The whole state as JSON, with the schema version it was written at. */
export function exportSnapshot(ctx: Emulator): { version: 1; schema_version: number; clock_ms: number; tables: Record<string, Record<string, unknown>[]> } {
  return { version: 1, schema_version: SCHEMA_VERSION, clock_ms: ctx.clock.nowMs(), tables: tablesOf(ctx.db) };
}

/** Every user table's rows, in insertion order. */
function tablesOf(db: DB): Record<string, Record<string, unknown>[]> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const t of userTables(db)) tables[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all() as Record<string, unknown>[];
  return tables;
}

/**
 * The migrations of a store at schema version `version`: the first ones of
 * the order written (src/store/schema.ts; a table that moved between rooms
 * kept its migration's number, so a version's migrations build its tables
 * whichever room declares them now).
 */
function migrationsFor(migrations: Migration[], version: number): Migration[] {
  const at = migrationsAt(version);
  return migrations.filter((m) => at.has(m.version));
}

/** An in-memory store migrated with `migrations` (a scratch store for an older snapshot). */
function scratchStore(migrations: Migration[]): DB {
  const db = openDatabase();
  migrate(db, migrations);
  return db;
}

/** The columns of each user table of a store migrated with `migrations`, cached by their versions. */
const schemaCache = new Map<string, Map<string, Set<string>>>();
function schemaOf(migrations: Migration[]): Map<string, Set<string>> {
  const key = migrations.map((m) => m.version).join(',');
  let schema = schemaCache.get(key);
  if (!schema) {
    let db: DB | null = null;
    try {
      db = scratchStore(migrations);
      schema = columnsOf(db);
    } catch {
      schema = new Map(); // a set of migrations that does not build fits no snapshot
    } finally {
      db?.close();
    }
    schemaCache.set(key, schema);
  }
  return schema;
}

/** Each user table of `db` and its column names. */
function columnsOf(db: DB): Map<string, Set<string>> {
  return new Map(userTables(db).map((t) => [t, new Set((db.prepare(`PRAGMA table_info("${t}")`).all() as ColumnInfo[]).map((c) => c.name))]));
}

type Tables = Record<string, Record<string, unknown>[]>;

/** Whether every table and column `tables` names is in `schema`. */
function fits(schema: Map<string, Set<string>>, tables: Tables): boolean {
  return Object.entries(tables).every(([t, rows]) => {
    const cols = schema.get(t);
    return cols !== undefined && Array.isArray(rows) && rows.every((r) => typeof r !== 'object' || r === null || Object.keys(r).every((k) => cols.has(k)));
  });
}

/** Whether `tables` is an export of a store of `schema`: the same tables, and rows with every column. */
function isExportOf(schema: Map<string, Set<string>>, tables: Tables): boolean {
  const names = Object.keys(tables);
  if (names.length !== schema.size || !fits(schema, tables)) return false;
  return names.every((t) => tables[t].every((r) => Object.keys(r).length === schema.get(t)!.size));
}

/**
 * The schema version of a snapshot without `schema_version` (written
 * before snapshots carried it): the newest version it is a whole export of
 * (the same tables, rows with exactly that version's columns: an export
 * writes every table and column), this one first; else (a hand-written
 * snapshot naming some tables and columns) the newest whose tables and
 * columns hold all it names, this one first; else this one (its unknown
 * tables are refused later). Older versions' schemas are built once per
 * process in scratch in-memory stores.
 */
function inferSchemaVersion(ctx: Emulator, migrations: Migration[], tables: Tables): number {
  const current = columnsOf(ctx.db);
  if (isExportOf(current, tables)) return SCHEMA_VERSION;
  const older = (v: number) => schemaOf(migrationsFor(migrations, v));
  for (let v = SCHEMA_VERSION - 1; v >= 1; v--) if (isExportOf(older(v), tables)) return v;
  // Not a whole export (a hand-written snapshot names only some tables or columns).
  if (fits(current, tables)) return SCHEMA_VERSION;
  for (let v = SCHEMA_VERSION - 1; v >= 1; v--) if (fits(older(v), tables)) return v;
  return SCHEMA_VERSION;
}

/**
 * The schema version of `snapshot`: its `schema_version`, or for one
 * written before snapshots carried it, the version its tables and columns
 * say (`inferSchemaVersion`).
 */
export function snapshotSchemaVersion(ctx: Emulator, snapshot: { tables?: Tables; schema_version?: number }): number {
  return snapshot.schema_version ?? inferSchemaVersion(ctx, ctx.modules.flatMap((m) => m.migrations ?? []), snapshot.tables ?? {});
}

/**
 * A snapshot of schema version `version` (older than this one) brought to
 * this version: its rows go into a scratch store at that version (checked
 * as an import is: unknown tables or columns, rows that do not fit, broken
 * constraints are 422), which the remaining migrations then carry forward
 * as they would a `--db` file. Returns the migrated tables.
 */
function upgradeTables(migrations: Migration[], version: number, tables: Tables): Tables {
  const db = scratchStore(migrationsFor(migrations, version));
  try {
    const known = new Set(userTables(db));
    for (const t of Object.keys(tables)) {
      if (!known.has(t)) throw new ApiError(422, 'validation_error', `Unknown table \`${t}\` in a snapshot of schema version ${version}.`);
    }
    checkRows(db, tables);
    try {
      db.transaction(() => loadRows(db, known, tables))();
      migrate(db, migrations);
    } catch (err) {
      const code = (err as { code?: string })?.code ?? '';
      if (code.startsWith('SQLITE_CONSTRAINT')) throw new ApiError(422, 'validation_error', `Invalid snapshot: ${(err as Error).message}.`);
      if (code.startsWith('SQLITE_') && code !== 'SQLITE_FULL') {
        throw new ApiError(422, 'validation_error', `Invalid snapshot: its rows of schema version ${version} could not be migrated to schema version ${SCHEMA_VERSION}: ${(err as Error).message}.`);
      }
      throw err;
    }
    return tablesOf(db);
  } finally {
    db.close();
  }
}

/** Throws `ApiError` 422 for the first snapshot row that does not fit its table of `db` (`rowProblem`). */
function checkRows(db: DB, tables: Record<string, Record<string, unknown>[]>): void {
  for (const [t, rows] of Object.entries(tables)) {
    const cols = new Map((db.prepare(`PRAGMA table_info("${t}")`).all() as ColumnInfo[]).map((c) => [c.name, c]));
    for (const row of rows) {
      const problem = rowProblem(t, cols, row);
      if (problem) throw new ApiError(422, 'validation_error', `Invalid snapshot: ${problem}.`);
    }
  }
}

/**
 * Empties every table of `known` and inserts the snapshot's rows, inside
 * the caller's transaction (a scratch store's migration runs in its own).
 * A broken constraint throws the driver's `SQLITE_CONSTRAINT*` error.
 */
function loadRows(db: DB, known: Iterable<string>, tables: Record<string, Record<string, unknown>[]>): void {
  for (const t of known) db.prepare(`DELETE FROM "${t}"`).run();
  for (const [t, rows] of Object.entries(tables)) {
    for (const row of rows) {
      const keys = Object.keys(row);
      db.prepare(`INSERT INTO "${t}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => row[k] as any));
    }
  }
}

/**
 * The first row of `db` whose foreign key names no row of its parent table
 * (`PRAGMA foreign_key_check`), described for a 422 (`a row of table
 * \`contact_segments\` (rowid 3) refers to a missing row of \`contacts\``),
 * or null when every reference resolves.
 */
function danglingReference(db: DB): string | null {
  const row = db.prepare('SELECT "table", rowid, parent FROM pragma_foreign_key_check LIMIT 1').get() as { table: string; rowid: number; parent: string } | undefined;
  return row ? `a row of table \`${row.table}\` (rowid ${row.rowid}) refers to a missing row of \`${row.parent}\`` : null;
}

/** A column as `PRAGMA table_info` describes it. */
interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

/**
 * Why a snapshot row does not fit its table (unknown column, missing NOT
 * NULL column, a value of the wrong type for an INTEGER or TEXT column), or
 * null when it fits.
 */
function rowProblem(table: string, cols: Map<string, ColumnInfo>, row: Record<string, unknown>): string | null {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return `a row of table \`${table}\` is not an object`;
  for (const key of Object.keys(row)) if (!cols.has(key)) return `unknown column \`${key}\` of table \`${table}\``;
  for (const c of cols.values()) {
    const v = row[c.name];
    if (v === undefined || v === null) {
      if (c.notnull && c.dflt_value === null && !c.pk) return `column \`${table}.${c.name}\` must not be null`;
      continue;
    }
    const type = c.type.toUpperCase();
    if (type === 'INTEGER' && !(typeof v === 'number' && Number.isSafeInteger(v))) return `column \`${table}.${c.name}\` must be an integer`;
    if (type === 'TEXT' && typeof v !== 'string') return `column \`${table}.${c.name}\` must be a string`;
  }
  return null;
}

/**
 * Replaces the whole state with a snapshot (an empty `tables` empties the
 * store), in one transaction. Throws `ApiError` 422 if the snapshot names an
 * unknown table or column, a row does not fit its table, a constraint fails
 * (e.g. a duplicate id), it holds a pending job of a type the scheduler does
 * not know (src/clock/job-types.ts), or `clock_ms` is out of range; nothing
 * changes then. Stored uploads that only the replaced rows referred to are
 * deleted afterwards.
 */
export function importSnapshot(ctx: Emulator, snapshot: { tables?: Record<string, Record<string, unknown>[]>; clock_ms?: number; schema_version?: number }): void {
  const known = new Set(userTables(ctx.db));
  let tables = snapshot.tables ?? {};
  const migrations = ctx.modules.flatMap((m) => m.migrations ?? []);
  const version = snapshotSchemaVersion(ctx, snapshot);
  if (version > SCHEMA_VERSION) {
    throw new ApiError(422, 'validation_error', `This snapshot was written at schema version ${version}, by a newer resend-emulator; this one knows schema version ${SCHEMA_VERSION}. Upgrade resend-emulator to import it.`);
  }
  if (version < SCHEMA_VERSION) tables = upgradeTables(migrations, version, tables);
  for (const t of Object.keys(tables)) {
    if (!known.has(t)) throw new ApiError(422, 'validation_error', `Unknown table \`${t}\` in snapshot.`);
  }
  if (snapshot.clock_ms !== undefined && !(Number.isSafeInteger(snapshot.clock_ms) && snapshot.clock_ms >= 0 && snapshot.clock_ms <= MAX_CLOCK_MS)) {
    throw new ApiError(422, 'validation_error', `The snapshot's \`clock_ms\` must be an integer from 0 to ${MAX_CLOCK_MS}.`);
  }
  checkRows(ctx.db, tables);
  const uploads = referencedUploads(ctx);
  try {
    ctx.db.transaction(() => {
      // A snapshot lists its tables in any order: the foreign keys are checked once every row is in (`danglingReference`).
      ctx.db.exec('PRAGMA defer_foreign_keys = ON');
      loadRows(ctx.db, known, tables);
      for (const m of ctx.modules) m.imported?.(ctx);
      const dangling = danglingReference(ctx.db);
      if (dangling) throw new ApiError(422, 'validation_error', `Invalid snapshot: ${dangling}.`);
      // A job running when the snapshot was taken runs again, as after a restart (its run here ended with the old state).
      ctx.scheduler.recover();
      // A pending job no handler runs would fail when due: refused now, like at start-up.
      const unknown = ctx.scheduler.unknownPendingTypes();
      if (unknown.length) {
        throw new ApiError(422, 'validation_error', `Invalid snapshot: pending jobs of unknown type ${unknown.map((u) => `\`${u.type}\``).join(', ')}.`);
      }
    })();
  } catch (err) {
    if ((err as { code?: string })?.code?.startsWith('SQLITE_CONSTRAINT')) {
      throw new ApiError(422, 'validation_error', `Invalid snapshot: ${(err as Error).message}.`);
    }
    throw err;
  }
  dropOrphanedUploads(ctx, uploads);
  if (typeof snapshot.clock_ms === 'number') ctx.clock.moveTo(snapshot.clock_ms);
  ctx.scheduler.saveClock();
  ctx.bus.emit('reset');
}
