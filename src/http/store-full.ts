/**
 * A full store as an answer (the machine's fault, src/store/full.ts): 507
 * `insufficient_storage`, an emulator-only name (docs/errors.md; HTTP's
 * 507 Insufficient Storage, RFC 4918 §11.5), with a message naming the
 * cause and the path, so a caller can tell its own mistake from the
 * machine's. The write was rolled back by SQLite (or the upload's temp file
 * removed), reads keep working, and the next write succeeds once space frees.
 * Logged as one line (no stack): the store and the refused request.
 */
import type { Emulator } from '../context.js';
import { storeFullText, type FullStore } from '../store/full.js';
import { ApiError } from './errors.js';

/**
 * The 507 answer for `err`, a full store (`which`, from `fullStore(err)`:
 * `SQLITE_FULL`, `ENOSPC`, `EDQUOT`). Logs one `error` line naming the
 * store, the cause and `what` (e.g. `POST /emails`). Message: ``the
 * emulator's store /data/x.db is full (SQLITE_FULL: database or disk is
 * full); nothing was written: free space on its disk and retry``.
 */
export function storeFullError(ctx: Emulator, which: FullStore, err: unknown, what: string): ApiError {
  const e = err as { code: string; message?: string };
  const text = `${storeFullText(which, ctx.config.db, ctx.config.uploadDir)} (${e.code}: ${String(e.message ?? '').split('\n')[0]})`;
  ctx.log('error', `${text}; ${what} answered 507, nothing was written`);
  return new ApiError(507, 'insufficient_storage', `${text}; nothing was written: free space on its disk and retry.`);
}
