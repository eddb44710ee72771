/**
 * The import jobs (docs/reference/resources.md#contact-imports; docs/reference/interface-spec.md#contact-import):
 * - `contact-imports.start`: `queued` → `in_progress`, then schedules the run;
 * - `contact-imports.run`: streams the CSV from disk with Papa Parse (never
 *   the whole file in memory, rows as arrays), rows committed in batches of
 *   `BATCH_ROWS` (one transaction each; a row makes every check before its
 *   first write, and the segments and topics it joins are checked again at
 *   the start of each batch, in its transaction, so a failed row has
 *   written nothing without a savepoint of its own), then `completed`
 *   (or `failed` when the file cannot be read, is not valid CSV or lacks a
 *   mapped column). The temporary file is deleted once the import ends. An
 *   async job (src/clock/scheduler.ts): a run interrupted by a crash runs
 *   again after the restart and resumes after its last committed batch (the
 *   stored `counts.total` rows are skipped, counts carry on), so every row
 *   is counted once (crash safety: a stop in the middle repeats nothing and loses nothing).
 *   A full store (`SQLITE_FULL`, `ENOSPC`: `fullStore`, src/store/full.ts) is
 *   the machine's fault, not the file's: the batch's transaction is rolled
 *   back, the import stays `in_progress` with its upload, and the error
 *   reaches the scheduler, which puts the job back to `pending` and runs it
 *   again once space frees (the scheduler's rule for every job); the run
 *   resumes after the last committed batch, as after a crash.
 * Row rules: the header row names the columns (matched case-insensitively);
 * default mapping `email`, `first_name`, `last_name`, `unsubscribed`, and
 * every column whose header equals the key of one of the team's contact
 * properties (case-insensitively, e.g. `plan_seats` or `Plan_Seats`), typed
 * by that property's type, unless `column_map.properties` maps that property
 * or the column is already mapped (to a field or another property): an
 * emulator choice, the documents being silent (see `defaultPropertyColumns`); empty
 * cells leave a field unset; a row with an invalid email or a value that
 * does not parse as its mapped type (`number`, `boolean`: true/false/1/0/
 * yes/no) or fit its contact property counts as `failed` (only a row's own
 * validation failure, `RowError` or `ApiError`: any other error ends the
 * batch, see above); an existing email
 * is `updated` (on_conflict `upsert`, the default per docs/reference/interface-spec.md#where-the-spec-and-the-service-differ #5)
 * or `skipped` (`skip`, left untouched). Created and updated contacts join
 * the import's segments and get its topic subscriptions. No `contact.*`
 * webhook events (docs/reference/resources.md#contact-imports).
 */
import fs from 'node:fs';
import { requirePackage } from '../../lazy.js';
import type { Emulator } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { DELAYS } from '../../clock/delays.js';
import { defineJob } from '../../clock/jobs.js';
import { isUploadFile } from '../../http/uploads.js';
import { fullStore } from '../../store/full.js';
import { contactWriter, type CheckedRefs, type ContactFields } from '../contacts/service.js';
import { isContactEmail } from '../../http/addresses.js';
import { findSegment } from '../segments/service.js';
import { findTopic } from '../topics/service.js';
import { propertiesByKey, type PropertyRow } from '../contact-properties/service.js';
import { endImport, importById, markImportRunning, saveImportCounts, ZERO_COUNTS, type Counts, type ImportOptions } from './store.js';
import { importMessages } from './messages.js';

/** `contact-imports.start` (`startImport`). */
export const importStartJob = defineJob('contact-imports.start', (ctx, job) => startImport(ctx, job.payload.import_id));
/** `contact-imports.run` (`runImport`). */
// Streams the file: resumable after a crash from its last committed batch.
export const importRunJob = defineJob('contact-imports.run', (ctx, job) => runImport(ctx, job.payload.import_id, job.id), { async: true });

/**
 * Rows committed per transaction (with `counts`). A row has no savepoint of
 * its own: its checks all come before its first write. Each transaction
 * journals every page it changes once, and the contacts' id index (random
 * UUIDs) and email index spread a batch over most of their pages, so the
 * fewer the transactions, the fewer pages are copied: 5,000 rows a batch,
 * ~50 ms of work between two reads of the file on a quiet machine (a
 * request waits that long at most). Larger batches copy
 * fewer pages still, but the rows they hold until their commit outlive the
 * collector's young generation, and the last batch before a full disk
 * leaves less room to put the job back to pending. A crash repeats nothing
 * (the counts commit with their rows). Figures:
 * docs/benchmarks.md#imports-through-the-cli-issue-36.
 */
export const BATCH_ROWS = 5_000;

/** A cell that does not parse; the row counts as failed. */
class RowError extends Error {}

const TRUE = new Set(['true', '1', 'yes', 'y', 't']);
const FALSE = new Set(['false', '0', 'no', 'n', 'f']);

/** Parses a boolean cell; throws `RowError`. */
function parseBoolean(cell: string): boolean {
  const v = cell.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new RowError(`not a boolean: ${cell}`);
}

/** Parses a cell by its mapped type; throws `RowError`. */
function parseTyped(cell: string, type: 'string' | 'number' | 'boolean'): string | number | boolean {
  if (type === 'string') return cell;
  if (type === 'boolean') return parseBoolean(cell);
  const n = Number(cell.trim());
  if (cell.trim() === '' || !Number.isFinite(n)) throw new RowError(`not a number: ${cell}`);
  return n;
}

type CellType = 'string' | 'number' | 'boolean';
/** A CSV column (its index in the row) mapped to a contact property. */
interface PropertyColumn { key: string; column: number; type: CellType }

/**
 * The property columns mapped by default: each CSV column (`headers`, as
 * written) whose name equals, case-insensitively, the key of one of the
 * team's contact properties (`defs`: by key; an exact-case key wins over
 * another that differs only in case) becomes that property, typed by the
 * property's type (`number` → parsed as a number, so a bad cell fails the
 * row). Left out: properties that `explicit` already maps, and columns
 * whose index is in `taken` (already mapped to `email`/`first_name`/`last_name`/`unsubscribed`
 * or to a property). Emulator rule: neither the interface spec nor the
 * API facts say how unmapped columns are treated.
 */
function defaultPropertyColumns(headers: string[], defs: Map<string, PropertyRow>, explicit: PropertyColumn[], taken: Set<number>): PropertyColumn[] {
  const mapped = new Set(explicit.map((p) => p.key));
  const out: PropertyColumn[] = [];
  headers.forEach((column, index) => {
    if (taken.has(index)) return;
    const key = defs.has(column) ? column : [...defs.keys()].find((k) => k.toLowerCase() === column.toLowerCase());
    if (key === undefined || mapped.has(key)) return;
    mapped.add(key);
    out.push({ key, column: index, type: defs.get(key)!.type });
  });
  return out;
}

/**
 * The record delimiter of a CSV file (`file`: its path), read from its
 * first 64 KiB as csv-parse, the importer's earlier parser, discovered it:
 * the first line break outside a quoted field, `\r\n`, `\n` or a lone
 * `\r`; `\n` when there is none. Papa Parse guesses from its first chunk
 * instead, which a short first read of a stream could mislead. Throws the
 * file system's error when the file cannot be read (the import fails).
 */
function recordDelimiter(file: string): '\r\n' | '\n' | '\r' {
  const head = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(file, 'r');
  let length: number;
  try {
    length = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  let quoted = false;
  for (let i = 0; i < length; i++) {
    const c = head[i];
    if (c === 0x22) quoted = !quoted; // a doubled quote inside a quoted field toggles twice
    else if (!quoted && c === 0x0d) return head[i + 1] === 0x0a || i + 1 === head.length ? '\r\n' : '\r'; // a `\r` ending the read may be half of `\r\n`
    else if (!quoted && c === 0x0a) return '\n';
  }
  return '\n';
}

/** Job `contact-imports.start`. */
function startImport(ctx: Emulator, importId: string): void {
  const row = importById(ctx, importId);
  if (!row || row.status !== 'queued') return;
  ctx.db.transaction(() => {
    markImportRunning(ctx, importId);
    importRunJob.schedule(ctx, { import_id: importId }, { dueAt: ctx.clock.nowMs() + DELAYS.contactImportRun, teamId: row.team_id });
  })();
}

/** Ends the import (and its job, `jobId`, in the same transaction). */
function finish(ctx: Emulator, importId: string, status: 'completed' | 'failed', counts: Counts, error: string | null, jobId?: number): void {
  ctx.db.transaction(() => {
    endImport(ctx, importId, { status, counts, error, completedAt: ctx.clock.nowMs() });
    if (jobId !== undefined) ctx.scheduler.complete(jobId);
  })();
}

/**
 * Job `contact-imports.run` (`jobId`: the job, ended with the import). Rows
 * already counted by an earlier, interrupted run are skipped. Rejects with
 * the store's error when the store is full (`fullStore`): the import stays
 * `in_progress` with its upload and the scheduler runs the job again later;
 * any other failure of the file ends the import `failed`.
 */
async function runImport(ctx: Emulator, importId: string, jobId?: number): Promise<void> {
  const row = importById(ctx, importId);
  if (!row || row.status !== 'in_progress') return;
  const teamId = row.team_id;
  const opts = JSON.parse(row.options) as ImportOptions;
  // Counts committed by an earlier run that a crash stopped (zero on the first run).
  const counts: Counts = { ...ZERO_COUNTS, ...(JSON.parse(row.counts) as Partial<Counts>) };
  const resumeAfter = counts.total;
  let seen = 0;
  const file = row.file_path;
  // Checked once for every row, the segments and topics again by each batch (in its transaction, so none goes
  // while its rows join it). Segments/topics deleted since the upload are left out rather than failing every row.
  const checked: CheckedRefs = { defs: propertiesByKey(ctx, teamId), segments: [], topics: [] };
  const checkRefs = () => {
    checked.segments = opts.segments.filter((s) => findSegment(ctx, teamId, s));
    checked.topics = opts.topics.filter((t) => findTopic(ctx, teamId, t.id));
  };
  /** Set when the store is full: the upload is kept for the next run. */
  let pending = false;
  let source: fs.ReadStream | null = null;
  try {
    // Only a file stored by an upload (a snapshot could name any path).
    if (!file || !isUploadFile(file) || !fs.existsSync(file)) {
      finish(ctx, importId, 'failed', counts, 'The uploaded file is no longer available.', jobId);
      return;
    }
    const newline = recordDelimiter(file);
    source = fs.createReadStream(file, { encoding: 'utf8' }); // decoded by the stream: a character split between two reads stays whole
    /** The header's columns (trimmed, lower case) → their index. */
    let columns: Map<string, number> | null = null;
    let header: string[] = [];
    const map = opts.column_map;
    const col = (name: string | undefined, fallback: string, explicit: boolean): number | null => {
      const wanted = (name ?? fallback).toLowerCase();
      const found = columns!.get(wanted) ?? null;
      if (found === null && explicit) throw importMessages.noSuchColumn(name);
      return found;
    };
    let emailCol: number | null = null;
    let firstCol: number | null = null;
    let lastCol: number | null = null;
    let unsubCol: number | null = null;
    let propCols: PropertyColumn[] = [];

    /** The contact fields of a row (`record`, its cells; `email` its trimmed email); throws `RowError` for a cell that does not parse. */
    const rowFields = (record: string[], email: string): ContactFields => {
      const cell = (c: number | null) => (c === null ? '' : (record[c] ?? '').trim());
      const fields: ContactFields = { email };
      const first = cell(firstCol);
      if (first !== '') fields.first_name = first;
      const last = cell(lastCol);
      if (last !== '') fields.last_name = last;
      const unsubscribed = cell(unsubCol);
      if (unsubscribed !== '') fields.unsubscribed = parseBoolean(unsubscribed);
      if (propCols.length === 0) return fields;
      const properties: Record<string, unknown> = {};
      for (const p of propCols) {
        const raw = p.type === 'string' ? (record[p.column] ?? '') : cell(p.column);
        if (raw.trim() === '') continue;
        properties[p.key] = parseTyped(raw, p.type);
      }
      coerceToDefinitions(checked.defs, properties);
      fields.properties = properties;
      return fields;
    };
    const skip = opts.on_conflict === 'skip';
    const writeBatch = ctx.db.transaction((records: string[][]): Counts => {
      checkRefs();
      const next = { ...counts };
      // The batch's rows are written together, in order (`contactWriter`: an outcome as if one at a time).
      const writer = contactWriter(ctx, teamId, { checked, skipExisting: skip });
      for (const record of records) {
        next.total++;
        const email = (emailCol === null ? '' : (record[emailCol] ?? '')).trim();
        if (!isContactEmail(email)) {
          next.failed++;
          continue;
        }
        try {
          writer.add(rowFields(record, email)); // a row's own fault (a cell, a property) is thrown before it is queued
        } catch (err) {
          if (!(err instanceof RowError) && !(err instanceof ApiError)) throw err;
          // `skip` leaves an existing contact untouched whatever its cells say: skipped, not failed (the rows before it written first).
          if (skip && writer.has(email)) next.skipped++;
          else next.failed++;
        }
      }
      // Anything else (a full store) may come after a write: the whole batch is undone, never a half-written row, and
      // the run ends (see `runImport`).
      const tally = writer.finish();
      next.created += tally.created;
      next.updated += tally.updated;
      next.skipped += tally.skipped;
      saveImportCounts(ctx, importId, next);
      return next;
    });
    const commit = (records: string[][]) => {
      if (records.length) Object.assign(counts, writeBatch(records)); // counts move only once the batch is committed
    };

    let batch: string[][] = [];
    /** One parsed record (the header row first); synchronous, so a batch commits without awaiting anything. */
    const onRecord = (record: string[]): void => {
      if (!columns) {
        header = record.map((c) => c.trim());
        columns = new Map();
        header.forEach((name, i) => columns!.set(name.toLowerCase(), i)); // a repeated name: its last column (the later one wins, as in a JSON object)
        emailCol = col(map.email, 'email', true);
        firstCol = col(map.first_name, 'first_name', map.first_name !== undefined);
        lastCol = col(map.last_name, 'last_name', map.last_name !== undefined);
        unsubCol = col(map.unsubscribed, 'unsubscribed', map.unsubscribed !== undefined);
        propCols = Object.entries(map.properties ?? {}).map(([key, m]) => ({ key, column: col(m.column, m.column, true)!, type: m.type ?? checked.defs.get(key)?.type ?? 'string' }));
        const taken = new Set([emailCol, firstCol, lastCol, unsubCol, ...propCols.map((p) => p.column)].filter((c): c is number => c !== null));
        propCols = [...propCols, ...defaultPropertyColumns(header, checked.defs, propCols, taken)];
        return; // the header row
      }
      if (++seen <= resumeAfter) return; // committed by an interrupted earlier run
      batch.push(record);
      if (batch.length >= BATCH_ROWS) {
        commit(batch);
        batch = [];
      }
    };
    // Papa Parse reads the stream a chunk at a time (64 KiB) and hands each chunk's rows as arrays to a synchronous
    // callback: a batch commits without awaiting anything, and it parses far faster than a record-by-record stream
    // (docs/benchmarks.md#figures-behind-the-code). The first error (the file, a quote left open or closed mid-field, a missing column, the store) ends
    // the import; the rows before it in the same batch are not committed, so the counts stay those of committed rows.
    const input = source;
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        input.destroy();
        reject(err);
      };
      requirePackage<typeof import('papaparse')>('papaparse').parse<string[]>(input, {
        delimiter: ',',
        newline,
        quoteChar: '"',
        escapeChar: '"',
        skipEmptyLines: true,
        // A byte order mark is not part of the first column's name.
        beforeFirstChunk: (chunk) => (chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk),
        chunk: (results, parser) => {
          if (failed) return;
          const error = results.errors[0];
          const rows = error ? results.data.slice(0, error.row ?? 0) : results.data;
          try {
            for (const record of rows) onRecord(record);
            if (error) throw importMessages.invalidCsv(error.message, seen);
          } catch (err) {
            fail(err); // first: `abort` calls `complete` at once
            parser.abort();
          }
        },
        complete: () => { if (!failed) resolve(); },
        error: fail,
      });
    });
    commit(batch);
    if (!columns) {
      finish(ctx, importId, 'failed', counts, 'The CSV file has no header row.', jobId);
      return;
    }
    finish(ctx, importId, 'completed', counts, null, jobId);
  } catch (err) {
    // A full store: nothing of the batch was written; the job stays pending (the scheduler's rule) and resumes here.
    if (fullStore(err)) {
      pending = true;
      throw err;
    }
    try {
      finish(ctx, importId, 'failed', counts, (err as Error)?.message ?? String(err), jobId);
    } catch (e) {
      // The failure itself cannot be written on a full store: the file is kept, the next run decides again.
      pending = fullStore(e) !== null;
      throw e;
    }
  } finally {
    source?.destroy();
    if (!pending && file && isUploadFile(file)) await fs.promises.rm(file, { force: true }).catch(() => {});
  }
}

/**
 * Fits parsed values to the team's contact properties (`defs`, loaded once
 * per import): a `string` property takes any value as text; a `number`
 * property needs a number. Throws `RowError` for a mismatch (the row fails).
 */
function coerceToDefinitions(defs: Map<string, PropertyRow>, properties: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(properties)) {
    const type = defs.get(key)?.type;
    if (!type) throw new RowError(`unknown property ${key}`);
    if (type === 'string') properties[key] = String(value);
    else if (typeof value !== 'number') throw new RowError(`property ${key} needs a number`);
  }
}
