/**
 * The store's schema versions: one number for each set of migrations this
 * project's history has shipped (migrations are numbered by module range,
 * src/modules.ts, so their highest number does not say how new a
 * store is). Schema version N is the migrations of `SCHEMA_ADDED[0..N-1]`.
 * A `--db` file records its version in `PRAGMA user_version` (src/store/db.ts
 * `migrate`); a snapshot carries it as `schema_version` (src/state/snapshot.ts),
 * so an older one is imported through the same migrations as a file and a
 * newer one is refused naming both versions.
 *
 * Adding a migration: append a new entry with its version(s) here (a test,
 * test/store/schema.test.ts, checks the last entry is every migration the
 * modules declare), and add a snapshot fixture for the schema it replaces
 * (test/fixtures/snapshots/generate.sh, one commit a version).
 */

/** The migrations each schema version added, oldest first (from the repository's history, first parents). */
export const SCHEMA_ADDED: readonly (readonly number[])[] = [
  [1, 2, 100, 200, 300, 350], // 1: core, domains, API keys, webhooks
  [500, 550, 600, 700, 800], // 2: contacts, segments, topics, properties
  [1000, 1001, 1400, 1500], // 3: broadcasts, logs, OAuth grants
  [450], // 4: receiving
  [400, 401, 1300], // 5: emails and their events, deliveries
  [900, 1100, 1200], // 6: templates, automations, events
  [301, 351], // 7
  [3], // 8: the saved clock
  [601], // 9
  [402, 1002], // 10
  [510, 511], // 11: memberships and topic choices move to contacts
  [403], // 12: an email's history in emails.events (email_events dropped)
  [602], // 13: memberships indexed by (segment_id, seq)
  [701, 1600], // 14: topics.updated_at (topic events), the inboxes tables
  [1601], // 15: an inbox's thread emails reference the received and sent emails (one fact, one row: the two copies could disagree)
  [404, 451], // 16: quota usage kept per team and day (sent recipients, received emails)
  [1602], // 17: inbox threads and drafts ordered by an `activity` column, `seq` never rewritten (it is the insertion order cursors rely on)
];

/** This version's schema version: the newest entry of `SCHEMA_ADDED`. */
export const SCHEMA_VERSION = SCHEMA_ADDED.length;

/** The migration versions of schema version `version` (1..SCHEMA_VERSION). */
export function migrationsAt(version: number): Set<number> {
  return new Set(SCHEMA_ADDED.slice(0, version).flat());
}

/** The schema version whose migrations are exactly `applied`, or null when none is. */
export function schemaVersionOf(applied: Iterable<number>): number | null {
  const set = new Set(applied);
  let size = 0;
  for (let v = 1; v <= SCHEMA_VERSION; v++) {
    size += SCHEMA_ADDED[v - 1].length;
    if (size === set.size && SCHEMA_ADDED.slice(0, v).every((added) => added.every((m) => set.has(m)))) return v;
  }
  return null;
}
