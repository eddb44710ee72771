/**
 * Contact import rows and shapes (docs/reference/resources.md#contact-imports; SDK ContactImport).
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import type { ResponseBody } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `contact_imports` table. */
export const contactImportsTable = defineTable(
  'contact_imports',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    status: text().notNull().as<ImportStatus>(),
    /** The uploaded CSV on disk until the import ends. */
    file_path: text(),
    /** How the import reads its file: `ImportOptions` as JSON text. */
    options: text().notNull(),
    /** `Counts` as JSON text. */
    counts: text().notNull(),
    error: text(),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms; null until the import ends. */
    completed_at: integer(),
  },
  {
    indexes: [
      { name: 'contact_imports_team', on: 'team_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [contactImportsTable];

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
export type ImportRow = RowOf<typeof contactImportsTable>;

export const ZERO_COUNTS: Counts = { total: 0, created: 0, updated: 0, skipped: 0, failed: 0 };

/** The fields after `object`: `{id, status, created_at, completed_at, counts}`. */
function toImportItem(row: ImportRow) {
  return { id: row.id, status: row.status, created_at: apiTime(row.created_at), completed_at: apiTime(row.completed_at), counts: JSON.parse(row.counts) as Counts };
}

/** Single shape: `object: "contact_import"` plus the item. */
export function toImport(row: ImportRow): ResponseBody<'contacts/get-import'> {
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

/** The CSVs of imports not yet run (a finished import has no `file_path`): the module's `uploads`. */
export function pendingUploads(ctx: Emulator): string[] {
  return (ctx.db.prepare('SELECT file_path FROM contact_imports WHERE file_path IS NOT NULL').all() as { file_path: string }[]).map((r) => r.file_path);
}

/** The INSERT of a new import: every column but `seq`, positional. */
const INSERT_IMPORT = contactImportsTable.insert(contactImportsTable.columnsExcept('seq'));

/** Inserts a `queued` import with zero counts (`createdAt` emulated ms). */
export function insertImport(ctx: Emulator, i: { id: string; teamId: string; filePath: string; options: ImportOptions; createdAt: number }): void {
  const row: Omit<ImportRow, 'seq'> = {
    id: i.id,
    team_id: i.teamId,
    status: 'queued',
    file_path: i.filePath,
    options: JSON.stringify(i.options),
    counts: JSON.stringify(ZERO_COUNTS),
    error: null,
    created_at: i.createdAt,
    completed_at: null,
  };
  ctx.db.prepare(INSERT_IMPORT.sql).run(...INSERT_IMPORT.params(row));
}

/** The table's name, for `paginate` with a filter (GET /contacts/imports?status=). */
export const CONTACT_IMPORTS = 'contact_imports';

/** Marks an import `in_progress` (its run job is scheduled in the same transaction). */
export function markImportRunning(ctx: Emulator, id: string): void {
  ctx.db.prepare(`UPDATE contact_imports SET status = 'in_progress' WHERE id = ?`).run(id);
}

/** Saves an import's running counts (each committed batch). */
export function saveImportCounts(ctx: Emulator, id: string, counts: Counts): void {
  ctx.db.prepare('UPDATE contact_imports SET counts = ? WHERE id = ?').run(JSON.stringify(counts), id);
}

/** Ends an import: `completed` or `failed`, its counts, error and `completed_at` (ms); its upload path is cleared. */
export function endImport(ctx: Emulator, id: string, end: { status: Extract<ImportStatus, 'completed' | 'failed'>; counts: Counts; error: ImportRow['error']; completedAt: number }): void {
  ctx.db
    .prepare('UPDATE contact_imports SET status = ?, counts = ?, error = ?, completed_at = ?, file_path = NULL WHERE id = ?')
    .run(end.status, JSON.stringify(end.counts), end.error, end.completedAt, id);
}
