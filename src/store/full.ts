/**
 * A full store: the machine's fault, not the caller's. SQLite reports a
 * database file (or its WAL) that cannot grow as `SQLITE_FULL` ("database or
 * disk is full", also when `PRAGMA max_page_count` is reached); a file write
 * that finds no space (an upload's temp file) fails with `ENOSPC` (or
 * `EDQUOT`, over a disk quota). In both cases SQLite has rolled back the
 * statement (and its transaction), so nothing is half-written, and the next
 * write succeeds once space frees (https://sqlite.org/rescode.html#full).
 *
 * The HTTP answer (507 `insufficient_storage`) is made in
 * src/http/store-full.ts; the scheduler and the SMTP relay use `fullStore`
 * to leave a job pending / answer 452 instead of failing.
 */

/** Where the full store is: `database` (the `--db` file, its WAL, or the in-memory store) or `uploads` (the upload folder). */
export type FullStore = 'database' | 'uploads';

/** Error codes of a write that found no space: SQLite's and the OS's. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * Which store `err` says is full, or null for any other error: `database`
 * for better-sqlite3's `SqliteError` with code `SQLITE_FULL`, `uploads` for
 * an `ENOSPC`/`EDQUOT` file-system error (the only files the emulator writes
 * besides its database are uploads).
 */
export function fullStore(err: unknown): FullStore | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !FULL_CODES.has(code)) return null;
  return code === 'SQLITE_FULL' ? 'database' : 'uploads';
}

/** Whether `err` is a write that found no space (`fullStore(err) !== null`). */
export function isStoreFull(err: unknown): boolean {
  return fullStore(err) !== null;
}

/**
 * The user-facing sentence for a full store, naming the cause and the path:
 * `the emulator's store /data/x.db is full`, `the emulator's store (in
 * memory) is full`, `the emulator's upload folder /tmp is full`.
 * `db`: the `--db` value; `uploadDir`: where uploads are stored.
 */
export function storeFullText(which: FullStore, db: string, uploadDir: string): string {
  if (which === 'uploads') return `the emulator's upload folder ${uploadDir} is full`;
  return db === ':memory:' ? `the emulator's store (in memory) is full` : `the emulator's store ${db} is full`;
}
