/**
 * Files stored from multipart uploads (contact import CSVs; a refused
 * or finished upload leaves no file): named `UPLOAD_PREFIX` + 32 hex digits in `config.uploadDir`.
 * Paths kept in the database come back through snapshots, so the emulator
 * reads or deletes a stored path only when its name has that form: a
 * snapshot naming another file can neither read nor delete it.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Name prefix of stored uploads (then 32 hex digits). */
export const UPLOAD_PREFIX = 'resend-emulator-upload-';

const UPLOAD_NAME = new RegExp(`^${UPLOAD_PREFIX}[0-9a-f]{32}$`);

/** Whether `file`'s base name is that of a stored upload (see the file comment). */
export function isUploadFile(file: string): boolean {
  return UPLOAD_NAME.test(path.basename(file));
}

/** Deletes the given stored uploads (others are left alone); missing files are fine. Never throws. */
export function removeUploads(files: Iterable<string>): void {
  for (const f of files) {
    if (!isUploadFile(f)) continue;
    try {
      fs.rmSync(f, { force: true });
    } catch {
      // Already gone or not ours to remove: nothing to do.
    }
  }
}
