/**
 * Snapshots: the whole state as JSON `{version: 1, schema_version, clock_ms,
 * tables: {name: rows[]}}` (`exportSnapshot`), and back (`importSnapshot`,
 * checked first, then one transaction). The admin API's `/_emulator/snapshot`.
 *
 * `schema_version` is the store's schema version when the snapshot was
 * written (src/store/schema.ts). A snapshot is rows by table and column, so
 * an older one is imported when its tables and columns map onto the
 * declared ones (`upgradeTables`): a column it lacks is filled with the
 * column's default (or refused when the column has none and may not be
 * null), a column or a table with rows that the schema lacks is refused
 * with 422 naming the snapshot's version. A snapshot of a version since the
 * 1.0 baseline first goes through the `upgradeSnapshot` of each migration
 * after it. 0.x snapshots (versions 1 to 19, or none written: before
 * snapshots carried it) map the same way; what 0.x had and 1.0 dropped
 * is ignored where it holds nothing (a table a module lists in
 * `droppedAtBaseline`, without rows) or nothing read it (a column a table
 * lists in `droppedAtBaseline`). A newer one is refused, naming both versions
 * (docs/admin-api.md#snapshots).
 */
import type { Emulator } from '../context.js';
import { ApiError } from '../http/errors.js';
import { userTables, type DB } from '../store/db.js';
import { BASELINE_VERSION, schemaVersion } from '../store/schema.js';
import { MAX_CLOCK_MS } from '../clock/clock.js';
import { dropOrphanedUploads, referencedUploads } from './uploads.js';

/** The schema version of the emulator's modules (their migrations after the baseline). */
function currentVersion(ctx: Emulator): number {
  return schemaVersion(ctx.modules.flatMap((m) => m.migrations ?? []));
}

/** The whole state as JSON, with the schema version it was written at. */
export function exportSnapshot(ctx: Emulator): { version: 1; schema_version: number; clock_ms: number; tables: Record<string, Record<string, unknown>[]> } {
  return { version: 1, schema_version: currentVersion(ctx), clock_ms: ctx.clock.nowMs(), tables: tablesOf(ctx.db) };
}

/** Every user table's rows, in insertion order. */
function tablesOf(db: DB): Record<string, Record<string, unknown>[]> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const t of userTables(db)) tables[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all() as Record<string, unknown>[];
  return tables;
}

type Tables = Record<string, Record<string, unknown>[]>;

/** How a snapshot of `version` is named in a 422 (`schema version 14 (resend-emulator 0.x)`). */
function versionName(version: number | undefined): string {
  if (version === undefined) return 'a snapshot without `schema_version` (resend-emulator 0.x)';
  return `a snapshot of schema version ${version}${version < BASELINE_VERSION ? ' (resend-emulator 0.x)' : ''}`;
}

/**
 * The rows of an older snapshot (`version` below this one's, or undefined
 * for one without `schema_version`) brought to this schema: through each
 * later migration's `upgradeSnapshot` (versions since the baseline), then
 * mapped by name (`mapOntoSchema`). Does not change `tables`. Throws
 * `ApiError` 422 naming the version for a table or column that does not map.
 */
function upgradeTables(ctx: Emulator, version: number | undefined, tables: Tables): Tables {
  const later = ctx.modules
    .flatMap((m) => m.migrations ?? [])
    .filter((m) => version !== undefined && m.version > version && m.upgradeSnapshot)
    .sort((a, b) => a.version - b.version);
  if (!later.length) return mapOntoSchema(ctx, version, tables);
  // `upgradeSnapshot` changes rows in place: on a copy, so the caller's snapshot stays as it was.
  const copy: Tables = {};
  for (const [t, rows] of Object.entries(tables)) copy[t] = Array.isArray(rows) ? rows.map((r) => (r && typeof r === 'object' ? { ...r } : r)) : rows;
  for (const m of later) m.upgradeSnapshot!(copy);
  return mapOntoSchema(ctx, version, copy);
}

/**
 * `tables` with what this schema lacks taken out where nothing is lost (a
 * 0.x snapshot's): a table a module lists in `droppedAtBaseline` without
 * rows, a column its table lists in `droppedAtBaseline`. A table no module
 * knows is 422 `Unknown table`. Columns it lacks stay absent (the store fills their
 * defaults). Throws `ApiError` 422 naming the version for a table with rows,
 * or a column, that the schema does not have.
 */
function mapOntoSchema(ctx: Emulator, version: number | undefined, tables: Tables): Tables {
  const known = new Set(userTables(ctx.db));
  const dropped = new Map<string, Set<string>>();
  const droppedTables = new Set<string>();
  if (version === undefined || version < BASELINE_VERSION) {
    for (const m of ctx.modules) {
      for (const t of m.tables ?? []) dropped.set(t.name, new Set(t.options.droppedAtBaseline ?? []));
      for (const t of m.droppedAtBaseline ?? []) droppedTables.add(t);
    }
  }
  const out: Tables = {};
  for (const [t, rows] of Object.entries(tables)) {
    if (!known.has(t)) {
      if (droppedTables.has(t) && Array.isArray(rows) && rows.length === 0) continue;
      if (!droppedTables.has(t)) throw new ApiError(422, 'validation_error', `Unknown table \`${t}\` in snapshot.`);
      throw new ApiError(422, 'validation_error', `Invalid snapshot: ${versionName(version)} has rows of table \`${t}\`, which this version (schema version ${currentVersion(ctx)}) does not have; it cannot be imported.`);
    }
    if (!Array.isArray(rows)) {
      out[t] = rows;
      continue;
    }
    const cols = new Set((ctx.db.prepare(`PRAGMA table_info("${t}")`).all() as ColumnInfo[]).map((c) => c.name));
    const ignore = dropped.get(t) ?? new Set<string>();
    out[t] = rows.map((row) => {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
      const kept: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) {
        if (cols.has(k)) kept[k] = v;
        else if (!ignore.has(k)) {
          throw new ApiError(422, 'validation_error', `Invalid snapshot: ${versionName(version)} has column \`${t}.${k}\`, which this version (schema version ${currentVersion(ctx)}) does not have; it cannot be imported.`);
        }
      }
      return kept;
    });
  }
  return out;
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
 * the caller's transaction.
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
  const current = currentVersion(ctx);
  const version = snapshot.schema_version;
  if (version !== undefined && version > current) {
    throw new ApiError(422, 'validation_error', `This snapshot was written at schema version ${version}, by a newer resend-emulator; this one knows schema version ${current}. Upgrade resend-emulator to import it.`);
  }
  if (version === undefined || version < current) tables = upgradeTables(ctx, version, tables);
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
      for (const m of ctx.modules) m.cleared?.(ctx);
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
