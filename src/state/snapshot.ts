/**
 * Snapshots: the whole state as JSON `{version: 1, clock_ms, tables: {name:
 * rows[]}}` (`exportSnapshot`), and back (`importSnapshot`, checked first,
 * then one transaction). The admin API's `/_emulator/snapshot`.
 */
import type { Emulator } from '../context.js';
import { ApiError } from '../http/errors.js';
import { userTables } from '../store/db.js';
import { MAX_CLOCK_MS } from '../clock/clock.js';
import { dropOrphanedUploads, referencedUploads } from './uploads.js';

/** The whole state as JSON. */
export function exportSnapshot(ctx: Emulator): { version: 1; clock_ms: number; tables: Record<string, unknown[]> } {
  const tables: Record<string, unknown[]> = {};
  for (const t of userTables(ctx.db)) tables[t] = ctx.db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all();
  return { version: 1, clock_ms: ctx.clock.nowMs(), tables };
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
export function importSnapshot(ctx: Emulator, snapshot: { tables?: Record<string, Record<string, unknown>[]>; clock_ms?: number }): void {
  const known = new Set(userTables(ctx.db));
  const tables = snapshot.tables ?? {};
  for (const t of Object.keys(tables)) {
    if (!known.has(t)) throw new ApiError(422, 'validation_error', `Unknown table \`${t}\` in snapshot.`);
  }
  if (snapshot.clock_ms !== undefined && !(Number.isSafeInteger(snapshot.clock_ms) && snapshot.clock_ms >= 0 && snapshot.clock_ms <= MAX_CLOCK_MS)) {
    throw new ApiError(422, 'validation_error', `The snapshot's \`clock_ms\` must be an integer from 0 to ${MAX_CLOCK_MS}.`);
  }
  const columns = new Map<string, Map<string, ColumnInfo>>();
  for (const [t, rows] of Object.entries(tables)) {
    const cols = new Map((ctx.db.prepare(`PRAGMA table_info("${t}")`).all() as ColumnInfo[]).map((c) => [c.name, c]));
    columns.set(t, cols);
    for (const row of rows) {
      const problem = rowProblem(t, cols, row);
      if (problem) throw new ApiError(422, 'validation_error', `Invalid snapshot: ${problem}.`);
    }
  }
  const uploads = referencedUploads(ctx);
  try {
    ctx.db.transaction(() => {
      for (const t of known) ctx.db.prepare(`DELETE FROM "${t}"`).run();
      for (const [t, rows] of Object.entries(tables)) {
        for (const row of rows) {
          const keys = Object.keys(row);
          ctx.db.prepare(`INSERT INTO "${t}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => row[k] as any));
        }
      }
      // A job running when the snapshot was taken runs again, as after a restart (its run here ended with the old state).
      ctx.scheduler.recover();
      // A pending job no handler runs would fail when due: refused now (issue 9), like at start-up.
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
