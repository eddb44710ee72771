/**
 * The contacts resource's tables (owned here: no other room names them): `contacts`, and a
 * contact's memberships of segments (`contact_segments`) and explicit topic
 * choices (`contact_topics`, without one a contact follows the topic's
 * `default_subscription`); contact rows and their API shapes (docs/reference/resources.md#contacts,
 * key orders as recorded in REC:CONv2-*, REC:CON-list-*).
 */
import type { Emulator } from '../../context.js';
import type { DB } from '../../store/db.js';
import { apiTime } from '../../http/format.js';
import { paginate, type ListEnvelope, type PageQuery } from '../../http/pagination.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Contacts: `email_lower` is the key of the team's unique address; `properties` JSON text. */
export const contactsTable = defineTable(
  'contacts',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    /** The address as given. */
    email: text().notNull(),
    /** `email` lower-cased: the key of the team's unique address. */
    email_lower: text().notNull(),
    first_name: text(),
    last_name: text(),
    /** 1 when unsubscribed, else 0. */
    unsubscribed: integer().notNull().default(0),
    /** Custom property values by key (without fallbacks applied), as JSON text. */
    properties: text().notNull().default('{}'),
    /** Emulated ms. */
    created_at: integer().notNull(),
    /** Emulated ms. */
    updated_at: integer().notNull(),
  },
  {
    unique: [['team_id', 'email_lower']],
    indexes: [
      { name: 'contacts_team', on: 'team_id, seq' },
    ],
  },
);

/** A contact's memberships of segments. It goes with its contact or its segment and follows a contact's id when it changes (a seeded contact takes the fixtures' id; docs/reference/resources.md#segments-and-audiences: deleting a segment keeps its contacts). `contact_seq` (the contact's `seq`) lists a segment's members newest contact first in one range scan of `contact_segments_members`; its trigger fills it on every insert that leaves it null (API, import, fixtures, an older snapshot). `contact_segments_segment_seq` reads a segment's memberships in membership order (a broadcast's batches) as one range scan. */
export const contactSegmentsTable = defineTable(
  'contact_segments',
  {
    seq: seq(),
    team_id: text().notNull(),
    contact_id: text().notNull().references('contacts', { onDelete: 'CASCADE', onUpdate: 'CASCADE' }),
    segment_id: text().notNull().references('segments', { onDelete: 'CASCADE' }),
    created_at: integer().notNull(),
    contact_seq: integer(),
  },
  {
    unique: [['contact_id', 'segment_id']],
    indexes: [
      { name: 'contact_segments_members', on: 'segment_id, contact_seq' },
      { name: 'contact_segments_segment_seq', on: 'segment_id, seq' },
    ],
    triggers: [
      {
        name: 'contact_segments_contact_seq',
        sql: `CREATE TRIGGER contact_segments_contact_seq AFTER INSERT ON contact_segments WHEN NEW.contact_seq IS NULL BEGIN
          UPDATE contact_segments SET contact_seq = (SELECT seq FROM contacts WHERE contacts.id = NEW.contact_id) WHERE seq = NEW.seq;
        END`,
      },
    ],
  },
);

/** A contact's explicit topic choices (without one it follows the topic's `default_subscription`); it goes with its contact or its topic. */
export const contactTopicsTable = defineTable(
  'contact_topics',
  {
    contact_id: text().notNull().references('contacts', { onDelete: 'CASCADE', onUpdate: 'CASCADE' }),
    topic_id: text().notNull().references('topics', { onDelete: 'CASCADE' }),
    subscription: text().notNull().as<'opt_in' | 'opt_out'>(),
    /** Emulated ms of the last choice. */
    updated_at: integer().notNull(),
  },
  {
    primaryKey: ['contact_id', 'topic_id'],
    indexes: [
      { name: 'contact_topics_topic', on: 'topic_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [contactsTable, contactSegmentsTable, contactTopicsTable];

/** A `contacts` row; `properties` is JSON text, `unsubscribed` 0/1, times in emulated ms. */
export type ContactRow = RowOf<typeof contactsTable>;

/** A `contact_topics` row: a contact's explicit choice of a topic. */
export type ContactTopicRow = RowOf<typeof contactTopicsTable>;

/** A contact as stored, decoded (`toContact`): its row without `seq` and `email_lower`, `unsubscribed` a boolean, `properties` parsed; times in emulated ms. */
export type Contact = Omit<ContactRow, 'seq' | 'email_lower' | 'unsubscribed' | 'properties'> & {
  unsubscribed: boolean;
  /** Custom property values by key (without fallbacks applied). */
  properties: Record<string, string | number | boolean | null>;
};

/** Row → the contract's `Contact`. */
export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    team_id: row.team_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    unsubscribed: row.unsubscribed === 1,
    properties: JSON.parse(row.properties),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The columns `toContactItem` and `toSegmentContactItem` read. */
const LIST_NAMES = ['id', 'created_at', 'email', 'unsubscribed', 'first_name', 'last_name'] as const;

/** What a page of contacts reads of each: its `CONTACT_LIST_COLUMNS`. */
export type ContactListRow = Pick<ContactRow, (typeof LIST_NAMES)[number]>;

/** GET /contacts list item: `{id, created_at, email, unsubscribed, first_name, last_name}` (REC:CONv2-list-*). */
export function toContactItem(row: ContactListRow) {
  return { id: row.id, created_at: apiTime(row.created_at), email: row.email, unsubscribed: row.unsubscribed === 1, first_name: row.first_name, last_name: row.last_name };
}

/** The columns `toContactItem` and `toSegmentContactItem` read (a page selects only these, not the properties: a list reads only what it shows). */
export const CONTACT_LIST_COLUMNS = contactsTable.columnList(LIST_NAMES);

/** GET /segments/{id}/contacts item: `{id, email, first_name, last_name, created_at, unsubscribed}` (REC:CON-list-*). */
export function toSegmentContactItem(row: ContactListRow) {
  return { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name, created_at: apiTime(row.created_at), unsubscribed: row.unsubscribed === 1 };
}

/**
 * The contacts of segments as one table for `paginate`: each member's
 * contact row with `seq` = the contact's `seq` and its `segment_id`; filter
 * with `segment_id = ?` (index `contact_segments_members`).
 */
export const SEGMENT_MEMBERS = `(SELECT cs.contact_seq AS seq, cs.segment_id AS segment_id, ${contactsTable.columnsExcept('seq').map((n) => `c.${n} AS ${n}`).join(', ')} FROM contact_segments cs JOIN contacts c ON c.seq = cs.contact_seq)`;

/** A contact's memberships as one table for `paginate`: `id` = the segment's id, `seq` and `created_at` the membership's; filter with `team_id = ? AND contact_id = ?`. */
export const CONTACT_MEMBERSHIPS = '(SELECT seq, segment_id AS id, created_at, contact_id, team_id FROM contact_segments)';

/** `insertMembership`'s statement: `contact_seq` is left to the table's trigger, `seq` to SQLite. */
const INSERT_MEMBERSHIP = `INSERT OR IGNORE INTO contact_segments (${contactSegmentsTable.columnList(['team_id', 'contact_id', 'segment_id', 'created_at'])}) VALUES (?, ?, ?, ?)`;

/** Adds a membership if absent (idempotent, keeps the first `created_at`). No checks. */
export function insertMembership(ctx: Emulator, teamId: string, contactId: string, segmentId: string, at?: number): void {
  ctx.db.prepare(INSERT_MEMBERSHIP).run(teamId, contactId, segmentId, at ?? ctx.clock.nowMs());
}

/** Segment ids of a contact, oldest membership first. */
export function segmentIdsOf(ctx: Emulator, contactId: string): string[] {
  return (ctx.db.prepare('SELECT segment_id FROM contact_segments WHERE contact_id = ? ORDER BY seq').all(contactId) as { segment_id: string }[]).map((r) => r.segment_id);
}

/** The INSERT of a whole `contact_topics` row, positional. */
const INSERT_CONTACT_TOPIC = contactTopicsTable.insert(contactTopicsTable.columnNames);
/** `upsertSubscriptions`' statement: the row, or its new choice and time where the contact has one for the topic. */
const UPSERT_CONTACT_TOPIC = `${INSERT_CONTACT_TOPIC.sql}
     ON CONFLICT (contact_id, topic_id) DO UPDATE SET subscription = excluded.subscription, updated_at = excluded.updated_at`;

/** Upserts a contact's explicit topic choices at `now` (emulated ms). No checks: the caller checked the topics. */
export function upsertSubscriptions(ctx: Emulator, contactId: string, topics: { id: string; subscription: ContactTopicRow['subscription'] }[], now: number): void {
  if (topics.length === 0) return; // an import without topics calls this per row
  const upsert = ctx.db.prepare(UPSERT_CONTACT_TOPIC);
  for (const t of topics) upsert.run(...INSERT_CONTACT_TOPIC.params({ contact_id: contactId, topic_id: t.id, subscription: t.subscription, updated_at: now }));
}

/** A contact's explicit subscription to a topic, or undefined. */
export function explicitSubscription(ctx: Emulator, contactId: string, topicId: string): ContactTopicRow['subscription'] | undefined {
  const row = ctx.db.prepare('SELECT subscription FROM contact_topics WHERE contact_id = ? AND topic_id = ?').get(contactId, topicId) as Pick<ContactTopicRow, 'subscription'> | undefined;
  return row?.subscription;
}

/** Removes a deleted contact property's values from every contact of the team. */
export function removePropertyValues(ctx: Emulator, teamId: string, key: string): void {
  ctx.db
    .prepare(`UPDATE contacts SET properties = json_remove(properties, '$."' || ? || '"') WHERE team_id = ? AND json_extract(properties, '$."' || ? || '"') IS NOT NULL`)
    .run(key, teamId, key);
}

/**
 * A seeded contact takes the fixtures' id and `created_at` (emulated ms)
 * (reset only); its memberships and choices follow the new id (foreign keys
 * `ON UPDATE CASCADE`) and its memberships take that time.
 */
export function renumberSeededContact(db: DB, fromId: string, id: string, at: number): void {
  db.prepare('UPDATE contacts SET id = ?, created_at = ?, updated_at = ? WHERE id = ?').run(id, at, at, fromId);
  db.prepare('UPDATE contact_segments SET created_at = ? WHERE contact_id = ?').run(at, id);
}

/**
 * The `unsubscribed` flag now (1 or 0) of each of the team's contacts among
 * `contactIds`, in one query; a contact gone or not the team's is absent.
 */
export function unsubscribedNow(ctx: Emulator, teamId: string, contactIds: readonly string[]): Map<string, number> {
  if (contactIds.length === 0) return new Map();
  const rows = ctx.db
    .prepare('SELECT id, unsubscribed FROM contacts WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))')
    .all(teamId, JSON.stringify(contactIds)) as Pick<ContactRow, 'id' | 'unsubscribed'>[];
  return new Map(rows.map((r) => [r.id, r.unsubscribed]));
}

/** The table's name, for `paginate` (GET /contacts, beside the segment-filtered `SEGMENT_MEMBERS`). */
export const CONTACTS = 'contacts';

/**
 * A page of the team's contacts (GET /contacts), or of one segment's
 * members when `segmentId` is given (GET /contacts?segment_id=, GET
 * /segments/{id}/contacts), newest first, all when `limit` is omitted;
 * rows read `CONTACT_LIST_COLUMNS` only.
 */
export function pageContacts<Item>(db: DB, teamId: string, segmentId: string | undefined, query: PageQuery, map: (r: ContactListRow) => Item): ListEnvelope<Item> {
  return segmentId !== undefined
    ? paginate(db, { table: SEGMENT_MEMBERS, where: 'team_id = ? AND segment_id = ?', params: [teamId, segmentId], query, defaultLimit: null, columns: CONTACT_LIST_COLUMNS, map })
    : paginate(db, { table: CONTACTS, where: 'team_id = ?', params: [teamId], query, defaultLimit: null, columns: CONTACT_LIST_COLUMNS, map });
}

/** A page of a contact's segment memberships (GET /contacts/{id}/segments): `id` = the segment's id, `created_at` the membership's; all by default. */
export function pageMemberships<Item>(db: DB, teamId: string, contactId: string, query: PageQuery, map: (r: { id: string; created_at: number }) => Item): ListEnvelope<Item> {
  return paginate(db, { table: CONTACT_MEMBERSHIPS, where: 'team_id = ? AND contact_id = ?', params: [teamId, contactId], query, defaultLimit: null, map });
}

/** Removes a contact from a segment (no-op when not a member). */
export function removeMembership(ctx: Emulator, contactId: string, segmentId: string): void {
  ctx.db.prepare('DELETE FROM contact_segments WHERE contact_id = ? AND segment_id = ?').run(contactId, segmentId);
}

/** A contact's explicit topic choices. */
export function explicitSubscriptions(ctx: Emulator, contactId: string): Pick<ContactTopicRow, 'topic_id' | 'subscription'>[] {
  return ctx.db.prepare('SELECT topic_id, subscription FROM contact_topics WHERE contact_id = ?').all(contactId) as Pick<ContactTopicRow, 'topic_id' | 'subscription'>[];
}

/** The team's contact row by id or (case-insensitive, trimmed) email, or undefined. */
export function contactRowByRef(ctx: Emulator, teamId: string, idOrEmail: string): ContactRow | undefined {
  if (idOrEmail.includes('@')) {
    return ctx.db.prepare('SELECT * FROM contacts WHERE team_id = ? AND email_lower = ?').get(teamId, idOrEmail.trim().toLowerCase()) as ContactRow | undefined;
  }
  return ctx.db.prepare('SELECT * FROM contacts WHERE team_id = ? AND id = ?').get(teamId, idOrEmail) as ContactRow | undefined;
}

/** A contact row by id (any team), or undefined. */
export function contactRowById(ctx: Emulator, id: string): ContactRow | undefined {
  return ctx.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow | undefined;
}

/** A new contact as `insertContactRow` and `insertContactRowsIfAbsent` take it: `properties` its stored values (no nulls); `at` created and updated time (ms). */
export type NewContactRow = Pick<ContactRow, 'id' | 'email'> & {
  firstName: ContactRow['first_name'];
  lastName: ContactRow['last_name'];
  unsubscribed: boolean;
  properties: Record<string, unknown>;
  at: number;
};

/** The `contacts` row of a new contact of the team (`email_lower` and the JSON of `properties` made here). */
function contactRowOf(teamId: string, c: NewContactRow): Omit<ContactRow, 'seq'> {
  return {
    id: c.id,
    team_id: teamId,
    email: c.email,
    email_lower: c.email.toLowerCase(),
    first_name: c.firstName,
    last_name: c.lastName,
    unsubscribed: c.unsubscribed ? 1 : 0,
    properties: JSON.stringify(c.properties),
    created_at: c.at,
    updated_at: c.at,
  };
}

/** The INSERT of a new contact: every column but `seq`, positional. */
const INSERT_CONTACT = contactsTable.insert(contactsTable.columnsExcept('seq'));

/** Inserts a contact row of the team `c.teamId`. Throws the SQLite error of a taken id or email. */
export function insertContactRow(ctx: Emulator, c: NewContactRow & { teamId: string }): void {
  ctx.db.prepare(INSERT_CONTACT.sql).run(...INSERT_CONTACT.params(contactRowOf(c.teamId, c)));
}

/**
 * Rows one multi-row INSERT of `insertContactRowsIfAbsent` carries (the rest
 * of a call's rows go one a statement: two SQL texts in all). Binding and
 * stepping a statement a row was ~15 % of the import's inserts against 25
 * rows a statement (measured with the contacts' schema, 100,000 rows).
 */
export const CONTACT_INSERT_CHUNK = 25;
/** How many values a new contact row binds (`INSERT_CONTACT`'s columns). */
const CONTACT_VALUES = contactsTable.columnsExcept('seq').length;
/** `INSERT_CONTACT` of `rows` rows, each left out where the team has its email. */
const INSERT_CONTACT_IF_ABSENT = (rows: number) =>
  `${INSERT_CONTACT.sql}${`, (${new Array(CONTACT_VALUES).fill('?').join(', ')})`.repeat(rows - 1)} ON CONFLICT (team_id, email_lower) DO NOTHING`;
const INSERT_CONTACT_IF_ABSENT_ONE = INSERT_CONTACT_IF_ABSENT(1);
const INSERT_CONTACT_IF_ABSENT_CHUNK = INSERT_CONTACT_IF_ABSENT(CONTACT_INSERT_CHUNK);

/**
 * Inserts the team's contact rows in order, each unless the team has a
 * contact with its email (any case) by then, an earlier row of the same
 * call included: `insertContactRowIfAbsent` for each row in turn, with the
 * same outcome, `CONTACT_INSERT_CHUNK` rows a statement. Returns, for each
 * row, whether it was inserted. Call inside the caller's transaction.
 */
export function insertContactRowsIfAbsent(ctx: Emulator, teamId: string, rows: readonly NewContactRow[]): boolean[] {
  const inserted: boolean[] = new Array(rows.length).fill(true);
  // A row's values in `INSERT_CONTACT`'s order, from its compiled `params`: the row's object and array cost
  // 20-40 ns against the ~3.5 µs of CPU a row's insert takes (measured on 1,000,000 rows).
  const values = (c: NewContactRow, out: unknown[], at: number): void => {
    const row = INSERT_CONTACT.params(contactRowOf(teamId, c));
    for (let k = 0; k < CONTACT_VALUES; k++) out[at + k] = row[k];
  };
  let i = 0;
  if (rows.length >= CONTACT_INSERT_CHUNK) {
    const chunk = ctx.db.prepare(INSERT_CONTACT_IF_ABSENT_CHUNK);
    const args: unknown[] = new Array(CONTACT_INSERT_CHUNK * CONTACT_VALUES);
    for (; i + CONTACT_INSERT_CHUNK <= rows.length; i += CONTACT_INSERT_CHUNK) {
      for (let j = 0; j < CONTACT_INSERT_CHUNK; j++) values(rows[i + j], args, j * CONTACT_VALUES);
      if (chunk.run(...args).changes === CONTACT_INSERT_CHUNK) continue;
      // Some emails existed (or repeat inside the chunk): which rows went in, by their new ids.
      const ids = rows.slice(i, i + CONTACT_INSERT_CHUNK).map((c) => c.id);
      const stored = new Set(
        ctx.db.prepare('SELECT id FROM contacts WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as string[],
      );
      for (let j = 0; j < CONTACT_INSERT_CHUNK; j++) inserted[i + j] = stored.has(ids[j]);
    }
  }
  if (i < rows.length) {
    const one = ctx.db.prepare(INSERT_CONTACT_IF_ABSENT_ONE);
    for (; i < rows.length; i++) inserted[i] = one.run(...INSERT_CONTACT.params(contactRowOf(teamId, rows[i]))).changes === 1;
  }
  return inserted;
}

/** Rewrites a contact row's fields (`properties` the whole stored map; `at` the update time, ms). */
export function updateContactRow(
  ctx: Emulator,
  id: string,
  c: { email: string; firstName: string | null; lastName: string | null; unsubscribed: boolean; properties: Record<string, unknown>; at: number },
): void {
  ctx.db
    .prepare('UPDATE contacts SET email = ?, email_lower = ?, first_name = ?, last_name = ?, unsubscribed = ?, properties = ?, updated_at = ? WHERE id = ?')
    .run(c.email, c.email.toLowerCase(), c.firstName, c.lastName, c.unsubscribed ? 1 : 0, JSON.stringify(c.properties), c.at, id);
}

/** Deletes a contact row; its memberships and topic choices go with it (foreign keys of `contact_segments` and `contact_topics`). */
export function deleteContactRows(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM contacts WHERE id = ?').run(id);
}

/**
 * The addresses of a segment's subscribed contacts (`unsubscribed` = 0),
 * oldest membership first: only the emails, no contact decoded (the
 * sending rules of a broadcast from `@resend.dev`).
 */
export function subscribedEmailsOfSegment(ctx: Emulator, teamId: string, segmentId: string): string[] {
  const rows = ctx.db
    .prepare(`SELECT c.email FROM contact_segments cs JOIN contacts c ON c.id = cs.contact_id
              WHERE cs.segment_id = ? AND c.team_id = ? AND c.unsubscribed = 0 ORDER BY cs.seq`)
    .all(segmentId, teamId) as { email: string }[];
  return rows.map((r) => r.email);
}

/**
 * The newest membership of a segment (its `seq`), or 0 when it has none: the
 * end of a broadcast's recipient list, fixed when its first batch runs.
 */
export function lastMembershipSeq(ctx: Emulator, segmentId: string): number {
  const row = ctx.db.prepare('SELECT MAX(seq) AS seq FROM contact_segments WHERE segment_id = ?').get(segmentId) as { seq: number | null };
  return row.seq ?? 0;
}

/**
 * One page of a segment's contacts in membership order: memberships with
 * `afterSeq < seq <= untilSeq`, at most `limit`, each with its `seq` (the
 * cursor of the next page). One index range scan, whatever the segment's
 * size (a broadcast keeps a cursor, not a list, in its job).
 */
export function segmentContactsPage(
  ctx: Emulator,
  teamId: string,
  segmentId: string,
  page: { afterSeq: number; untilSeq: number; limit: number },
): { contact: Contact; seq: number }[] {
  // Rows as arrays, shaped here: the driver's object per row was most of a broadcast batch's read. The contact is
  // found by `contact_seq` (its rowid, kept by the membership's trigger, as `SEGMENT_MEMBERS` does): one B-tree
  // search a member instead of two (the id's index, then the row).
  const rows = ctx.db
    .prepare(`SELECT c.id, c.team_id, c.email, c.first_name, c.last_name, c.unsubscribed, c.properties, c.created_at, c.updated_at, cs.seq
              FROM contact_segments cs JOIN contacts c ON c.seq = cs.contact_seq
              WHERE cs.segment_id = ? AND cs.seq > ? AND cs.seq <= ? AND c.team_id = ? ORDER BY cs.seq LIMIT ?`)
    .raw()
    .all(segmentId, page.afterSeq, page.untilSeq, teamId, page.limit) as [string, string, string, string | null, string | null, number, string, number, number, number][];
  return rows.map((r) => ({
    contact: { id: r[0], team_id: r[1], email: r[2], first_name: r[3], last_name: r[4], unsubscribed: r[5] === 1, properties: JSON.parse(r[6]), created_at: r[7], updated_at: r[8] },
    seq: r[9],
  }));
}

/** The team's contacts, newest first, at most `limit` (for the admin dashboard, src/admin/dashboard.ts). */
export function listContacts(ctx: Emulator, teamId: string, limit = 500): Contact[] {
  const rows = ctx.db.prepare('SELECT * FROM contacts WHERE team_id = ? ORDER BY seq DESC LIMIT ?').all(teamId, limit) as ContactRow[];
  return rows.map(toContact);
}

/** How many contacts the team has (the contacts quota, GET /usage `contacts.used`). */
export function countContacts(ctx: Emulator, teamId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM contacts WHERE team_id = ?').get(teamId) as { n: number }).n;
}
