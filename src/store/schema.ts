/**
 * The store's migrations and schema versions.
 *
 * Migrations are numbered in the order they were written: 1, 2, 3, … with
 * no gaps, whatever module declares them, and a store runs them in that
 * order (src/store/db.ts `migrate`), so a fresh store is built by the same
 * history as a store that lived through it. A schema version is one set of
 * migrations this project shipped: schema version N is the migrations of
 * `SCHEMA_ADDED[0..N-1]`, numbers 1 to the last of entry N. A `--db` file
 * records its version in `PRAGMA user_version`; a snapshot carries it as
 * `schema_version` (src/state/snapshot.ts), so an older one is imported
 * through the same migrations as a file and a newer one is refused naming
 * both versions.
 *
 * Adding a migration: give it the next number (one more than the last of
 * `SCHEMA_ADDED`), append a new entry here with it (test/store/schema.test.ts
 * checks the entries are 1..N in order and that the last one is every
 * migration the modules declare), and add a snapshot fixture for the schema
 * it replaces (test/fixtures/snapshots/generate.sh, one commit a version).
 *
 * Schema versions 1 to 17 numbered migrations by module range (teams 1-99,
 * API keys 100-199, …, inboxes 1600-1699), so a fresh store ran them in
 * module order, not the order written. `LEGACY_NUMBERS` translates those
 * numbers: a store recorded under them (its `schema_migrations` lacks the
 * row of migration 0, `NUMBERING`) has them rewritten once, in one
 * transaction, when it is next opened.
 */

/**
 * The migrations each schema version added, oldest first: its entry lists
 * their numbers (from the repository's history, first parents).
 */
export const SCHEMA_ADDED: readonly (readonly number[])[] = [
  [1, 2, 3, 4, 5, 6], // 1: teams, jobs, API keys, domains, webhooks, webhook deliveries
  // 2: contacts, contact imports, segments, topics, contact properties. Segments' and topics' migrations then
  // also created the join tables `contact_segments` (10) and `contact_topics` (12); the contacts room has
  // owned those two migrations since schema version 11.
  [7, 8, 9, 10, 11, 12, 13],
  [14, 15, 16, 17], // 3: broadcasts, their emails, logs, OAuth grants
  [18], // 4: receiving
  [19, 20, 21], // 5: emails and their events, idempotency keys, suppressions
  [22, 23, 24], // 6: templates, automations, events
  [25, 26], // 7: a webhook's previous secret, delivery attempts' details
  [27], // 8: the saved clock
  [28], // 9: memberships ordered by contact (contact_seq)
  [29, 30], // 10: emails.contact_id (broadcast_emails folded into it)
  // 11: memberships and topic choices moved to the contacts room: the same schema as 10; under the module-range
  // numbers this was two new migrations (510, 511), which are 10 and 12 in the order written.
  [],
  [31], // 12: an email's history in emails.events (email_events dropped)
  [32], // 13: memberships indexed by (segment_id, seq)
  [33, 34], // 14: topics.updated_at (topic events), the inboxes tables
  [35], // 15: an inbox's thread emails reference the received and sent emails (one fact, one row: the two copies could disagree)
  [36, 37], // 16: quota usage kept per team and day (sent recipients, received emails)
  [38], // 17: inbox threads and drafts ordered by an `activity` column, `seq` never rewritten (it is the insertion order cursors rely on)
  // 18: foreign keys declared with the cascades of the delete rules (docs/reference/design.md#storage-conventions):
  // memberships and topic choices (39), template versions (40), automation runs and their steps (41), an inbox's
  // agent, labels, threads, thread emails and drafts, a thread's label links (42); rows whose parent is gone dropped.
  [39, 40, 41, 42],
  [43], // 19: a send's recipients counted toward the quota by the code that stores the email, not by an INSERT trigger
];

/** This version's schema version: the newest entry of `SCHEMA_ADDED`. */
export const SCHEMA_VERSION = SCHEMA_ADDED.length;

/**
 * Migration 0, recorded in `schema_migrations` by every store whose
 * migrations are numbered in the order written (every store this version
 * makes, and every older one once translated); a store without it records
 * the module-range numbers of schema versions 1 to 17.
 */
export const NUMBERING = { version: 0, name: 'migrations numbered in the order written' } as const;

/**
 * Module-range number (schema versions 1 to 17) → number in the order
 * written. Every migration those versions shipped is here; a store
 * recording any other module-range number was written by a newer version.
 */
export const LEGACY_NUMBERS: ReadonlyMap<number, number> = new Map([
  [1, 1], [2, 2], [100, 3], [200, 4], [300, 5], [350, 6],
  [500, 7], [550, 8], [600, 9], [510, 10], [700, 11], [511, 12], [800, 13],
  [1000, 14], [1001, 15], [1400, 16], [1500, 17],
  [450, 18],
  [400, 19], [401, 20], [1300, 21],
  [900, 22], [1100, 23], [1200, 24],
  [301, 25], [351, 26],
  [3, 27],
  [601, 28],
  [402, 29], [1002, 30],
  [403, 31],
  [602, 32],
  [701, 33], [1600, 34],
  [1601, 35],
  [404, 36], [451, 37],
  [1602, 38],
]);

/** The migration numbers of schema version `version` (1..SCHEMA_VERSION). */
export function migrationsAt(version: number): Set<number> {
  return new Set(SCHEMA_ADDED.slice(0, version).flat());
}

/**
 * The schema version whose migrations are exactly `applied` (migration 0,
 * `NUMBERING`, aside), or null when none is. Versions 10 and 11 have the
 * same migrations: 10 is named.
 */
export function schemaVersionOf(applied: Iterable<number>): number | null {
  const set = new Set(applied);
  set.delete(NUMBERING.version);
  let size = 0;
  for (let v = 1; v <= SCHEMA_VERSION; v++) {
    size += SCHEMA_ADDED[v - 1].length;
    if (size === set.size && SCHEMA_ADDED.slice(0, v).every((added) => added.every((m) => set.has(m)))) return v;
  }
  return null;
}
