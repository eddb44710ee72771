/**
 * Reset: back to the fixtures. Every table is emptied and every module of
 * `ctx.modules` seeds its part, in order, in one transaction (never half a
 * state).
 */
import type { Emulator } from '../context.js';
import { userTables } from '../store/db.js';
import { dropOrphanedUploads, referencedUploads } from './uploads.js';

/**
 * Empties every table (and, through each module's `cleared` hook, what a
 * module keeps beside them: the usage ledger), then runs each module's `seed` (`ctx.modules`, in
 * order) with `fixtures`; one transaction. Then deletes the stored uploads
 * no row refers to any more (a refused or finished upload leaves no file behind), and puts the fault rules
 * back to the start rules (`ctx.faults.restore()`; a start rule that no
 * longer fits is a warning, or with `strictFaults` (start-up) thrown).
 * Emits `reset` on the bus. With `empty` (a store just created, every table
 * empty), nothing is deleted first: ~60 DELETEs were a tenth of a later
 * `startServer()`.
 * Throws what a seed throws (nothing is changed then).
 */
export function resetState(ctx: Emulator, fixtures: Record<string, any>, opts: { strictFaults?: boolean; empty?: boolean } = {}): void {
  const tables = opts.empty ? [] : userTables(ctx.db);
  const uploads = opts.empty ? new Set<string>() : referencedUploads(ctx);
  ctx.db.transaction(() => {
    for (const t of tables) ctx.db.prepare(`DELETE FROM "${t}"`).run();
    for (const m of ctx.modules) m.cleared?.(ctx);
    for (const m of ctx.modules) m.seed?.(ctx, fixtures, ctx.db);
  })();
  dropOrphanedUploads(ctx, uploads);
  // Fault rules go back to the start rules with the fixtures (a snapshot import keeps them: rules are not state).
  try {
    ctx.faults.restore();
  } catch (err) {
    if (opts.strictFaults) throw err;
    ctx.log('warn', `faults: the start rules could not all be put back after a reset: ${(err as Error).message}`);
  }
  ctx.bus.emit('reset');
}
