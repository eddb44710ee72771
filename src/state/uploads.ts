/**
 * Stored uploads (contact-import CSVs, src/http/uploads.ts) after the rows
 * are replaced wholesale: a reset or a snapshot import deletes the files no
 * row refers to any more (a refused or finished upload leaves no file behind). Each module names the files
 * its rows still need (`uploads` of `ctx.modules`).
 */
import type { Emulator } from '../context.js';
import { removeUploads } from '../http/uploads.js';

/** Every stored upload that the modules' rows refer to (paths). */
export function referencedUploads(ctx: Emulator): Set<string> {
  return new Set(ctx.modules.flatMap((m) => m.uploads?.(ctx) ?? []));
}

/** Deletes the uploads of `before` that the rows no longer refer to. Never throws for a file already gone. */
export function dropOrphanedUploads(ctx: Emulator, before: Set<string>): void {
  if (before.size === 0) return;
  const after = referencedUploads(ctx);
  removeUploads([...before].filter((f) => !after.has(f)));
}
