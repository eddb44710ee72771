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

/** Empties every table, then runs each module's `seed` in order; one transaction. */
export function resetState(ctx: Emulator, modules: ResourceModule[], fixtures: Record<string, any>): void {
  const tables = userTables(ctx.db);
  ctx.db.transaction(() => {
    for (const t of tables) ctx.db.prepare(`DELETE FROM "${t}"`).run();
    for (const m of modules) m.seed?.(ctx, fixtures, ctx.db);
  })();
  ctx.bus.emit('reset');
}

/** The whole state as JSON. */
export function exportSnapshot(ctx: Emulator): { version: 1; clock_ms: number; tables: Record<string, unknown[]> } {
  const tables: Record<string, unknown[]> = {};
  for (const t of userTables(ctx.db)) tables[t] = ctx.db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all();
  return { version: 1, clock_ms: ctx.clock.nowMs(), tables };
}

/**
 * Replaces the whole state with a snapshot, in one transaction. Throws
 * `ApiError` 422 if the snapshot names an unknown table or column.
 */
export function importSnapshot(ctx: Emulator, snapshot: { tables?: Record<string, Record<string, unknown>[]>; clock_ms?: number }): void {
  const known = new Set(userTables(ctx.db));
  const tables = snapshot.tables ?? {};
  for (const t of Object.keys(tables)) {
    if (!known.has(t)) throw new ApiError(422, 'validation_error', `Unknown table \`${t}\` in snapshot.`);
  }
  ctx.db.transaction(() => {
    for (const t of known) ctx.db.prepare(`DELETE FROM "${t}"`).run();
    for (const [t, rows] of Object.entries(tables)) {
      const cols = new Set((ctx.db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name));
      for (const row of rows) {
        const keys = Object.keys(row);
        const bad = keys.find((k) => !cols.has(k));
        if (bad) throw new ApiError(422, 'validation_error', `Unknown column \`${bad}\` of table \`${t}\` in snapshot.`);
        ctx.db.prepare(`INSERT INTO "${t}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => row[k] as any));
      }
    }
  })();
  if (typeof snapshot.clock_ms === 'number') ctx.clock.moveTo(snapshot.clock_ms);
  ctx.bus.emit('reset');
}
