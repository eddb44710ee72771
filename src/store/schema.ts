/**
 * The store's schema and its versions.
 *
 * The schema is declared, table by table, in the room that owns each
 * (`defineTable`, src/store/table.ts; a module lists its `tables`). A new
 * store is that declaration, made in one transaction (src/store/db.ts
 * `migrate`). Its version is `PRAGMA user_version`; a snapshot carries it
 * as `schema_version` (src/state/snapshot.ts).
 *
 * Versions: 1 to 19 were the 0.x releases, whose schema was the history of
 * 43 migrations; `BASELINE_VERSION` (20, resend-emulator 1.0) folds that
 * history into the declared tables. A 0.x `--db` file is refused at start
 * (no user holds one: 0.x was never published); a 0.x snapshot is imported
 * when its tables and columns map onto the declared ones
 * (docs/admin-api.md#snapshots).
 *
 * From the baseline on, a change to a table is two edits in its room: the
 * declaration (what a new store gets) and a `Migration` (what a store of the
 * version before gets), numbered `BASELINE_VERSION + 1`, `+ 2`, … across
 * all modules; test/store/schema.test.ts holds that a store upgraded from
 * every earlier version equals a new one.
 */

/** The schema version of resend-emulator 1.0: the declared tables with no migration after them. Versions below it are 0.x. */
export const BASELINE_VERSION = 20;

/**
 * One step from the schema version before it to `version`, declared by the
 * module that owns the tables it changes (`ResourceModule.migrations`),
 * beside the declaration it brings an older store to.
 */
export interface Migration {
  /** The schema version it makes: `BASELINE_VERSION + 1`, `+ 2`, … in the order written, across all modules. */
  version: number;
  /** Short label, for errors. */
  name: string;
  /** SQL run once, in one transaction with the store's new `user_version`. */
  sql: string;
  /**
   * A snapshot's rows of the version before, brought to this one, for a
   * step that is more than new columns with defaults or new tables (which
   * an import fills by itself): a rename, a value moved or recomputed.
   * `tables` is the snapshot's rows by table; change it in place.
   */
  upgradeSnapshot?: (tables: Record<string, Record<string, unknown>[]>) => void;
}

/**
 * The schema version a set of migrations makes: the last of them, or the
 * baseline with none. Throws when they are not `BASELINE_VERSION + 1 … N`,
 * each once (a programming error, caught by every start and test).
 */
export function schemaVersion(migrations: readonly Migration[]): number {
  const versions = migrations.map((m) => m.version).sort((a, b) => a - b);
  versions.forEach((v, i) => {
    if (v !== BASELINE_VERSION + 1 + i) {
      throw new Error(`migrations must be numbered ${BASELINE_VERSION + 1}, ${BASELINE_VERSION + 2}, … each once: found ${versions.join(', ')}`);
    }
  });
  return BASELINE_VERSION + versions.length;
}
