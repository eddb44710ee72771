/**
 * Fixtures, reset and snapshots.
 * - `loadFixtures`: reads the fixtures JSON (default `fixtures/default.json`).
 * - `resetState`: empties every table and seeds the fixtures, all in one
 *   transaction (never half a state).
 * - `exportSnapshot` / `importSnapshot`: the whole state as JSON
 *   `{version: 1, clock_ms, tables: {name: rows[]}}`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Emulator } from '../context.js';
import type { ResourceModule } from '../http/types.js';
import { ApiError } from '../http/errors.js';
import { specDir } from '../http/spec.js';
import { userTables } from './db.js';
import { MAX_CLOCK_MS } from '../clock/clock.js';
import { removeUploads } from '../http/uploads.js';

/** Every stored upload that the modules' rows refer to (`ResourceModule.uploads`). */
export function referencedUploads(ctx: Emulator, modules: ResourceModule[]): Set<string> {
  return new Set(modules.flatMap((m) => m.uploads?.(ctx) ?? []));
}

/** Deletes the uploads of `before` that the rows no longer refer to (after a reset or a snapshot import). */
function dropOrphanedUploads(ctx: Emulator, modules: ResourceModule[], before: Set<string>): void {
  if (before.size === 0) return;
  const after = referencedUploads(ctx, modules);
  removeUploads([...before].filter((f) => !after.has(f)));
}

/** Path of the bundled default fixtures. */
export function defaultFixturesPath(): string {
  return path.join(path.dirname(specDir()), 'fixtures', 'default.json');
}

/** Reads a fixtures file. Throws a plain Error naming the file if it is missing or not JSON. */
export function loadFixtures(file: string): Record<string, any> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixtures ${file}: ${(err as Error).message}`);
  }
}

/**
 * Empties every table, then runs each module's `seed` in order; one
 * transaction. Then deletes the stored uploads no row refers to any more
 * (the CSVs of imports that had not run: issue 13, defect 3).
 */
export function resetState(ctx: Emulator, modules: ResourceModule[], fixtures: Record<string, any>): void {
  const tables = userTables(ctx.db);
  const uploads = referencedUploads(ctx, modules);
  ctx.db.transaction(() => {
    for (const t of tables) ctx.db.prepare(`DELETE FROM "${t}"`).run();
    for (const m of modules) m.seed?.(ctx, fixtures, ctx.db);
  })();
  dropOrphanedUploads(ctx, modules, uploads);
  ctx.bus.emit('reset');
}

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
 * (e.g. a duplicate id), or `clock_ms` is out of range; nothing changes then.
 * Given `modules`, stored uploads that only the replaced rows referred to
 * are deleted afterwards.
 */
export function importSnapshot(ctx: Emulator, snapshot: { tables?: Record<string, Record<string, unknown>[]>; clock_ms?: number }, modules: ResourceModule[] = []): void {
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
  const uploads = referencedUploads(ctx, modules);
  try {
    ctx.db.transaction(() => {
      for (const t of known) ctx.db.prepare(`DELETE FROM "${t}"`).run();
      for (const [t, rows] of Object.entries(tables)) {
        for (const row of rows) {
          const keys = Object.keys(row);
          ctx.db.prepare(`INSERT INTO "${t}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => row[k] as any));
        }
      }
    })();
  } catch (err) {
    if ((err as { code?: string })?.code?.startsWith('SQLITE_CONSTRAINT')) {
      throw new ApiError(422, 'validation_error', `Invalid snapshot: ${(err as Error).message}.`);
    }
    throw err;
  }
  dropOrphanedUploads(ctx, modules, uploads);
  if (typeof snapshot.clock_ms === 'number') ctx.clock.moveTo(snapshot.clock_ms);
  ctx.scheduler.saveClock();
  ctx.bus.emit('reset');
}
