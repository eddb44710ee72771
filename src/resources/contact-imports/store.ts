/**
 * Contact import rows and shapes (API-FACTS §5.9; SDK ContactImport).
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';

export type ImportStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

export interface Counts {
  total: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

/** How an import reads its file, as stored in `options` (JSON). */
export interface ImportOptions {
  column_map: {
    email?: string;
    first_name?: string;
    last_name?: string;
    unsubscribed?: string;
    properties?: Record<string, { column: string; type?: 'string' | 'number' | 'boolean' }>;
  };
  on_conflict: 'upsert' | 'skip';
  segments: string[];
  topics: { id: string; subscription: 'opt_in' | 'opt_out' }[];
}

/** A `contact_imports` row. `file_path`: the uploaded CSV on disk until the import ends. */
export interface ImportRow {
  seq: number;
  id: string;
  team_id: string;
  status: ImportStatus;
  file_path: string | null;
  options: string;
  counts: string;
  error: string | null;
  created_at: number;
  completed_at: number | null;
}

export const ZERO_COUNTS: Counts = { total: 0, created: 0, updated: 0, skipped: 0, failed: 0 };

/** The fields after `object`: `{id, status, created_at, completed_at, counts}`. */
function toImportItem(row: ImportRow) {
  return { id: row.id, status: row.status, created_at: apiTime(row.created_at), completed_at: apiTime(row.completed_at), counts: JSON.parse(row.counts) as Counts };
}

/** Single shape: `object: "contact_import"` plus the item. */
export function toImport(row: ImportRow) {
  return { object: 'contact_import', ...toImportItem(row) };
}

export function getImportOr404(ctx: Emulator, teamId: string, id: string): ImportRow {
  const row = ctx.db.prepare('SELECT * FROM contact_imports WHERE id = ? AND team_id = ?').get(id, teamId) as ImportRow | undefined;
  if (!row) throw errors.notFound('Contact import');
  return row;
}

export function importById(ctx: Emulator, id: string): ImportRow | undefined {
  return ctx.db.prepare('SELECT * FROM contact_imports WHERE id = ?').get(id) as ImportRow | undefined;
}
