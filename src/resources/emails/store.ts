/**
 * Sent emails as stored: the `emails` table (each email's history in its
 * `events` column) and `email_attachments`, the API shapes (docs/reference/interface-spec.md#sent-email;
 * docs/reference/resources.md#emails) and the webhook `data` (docs/reference/webhooks.md#envelope-and-data).
 */
import type { Emulator } from '../../context.js';
import { apiTime, fromJson, isoTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { emitEvent, type EventType } from '../../deliveries/emit.js';
import { teamPager } from '../../http/pagination.js';
import type { ResponseBody, SchemaOf } from '../../http/document-types.js';

/** Schema of the emails module (migration 19; 29 adds `contact_id`, see `emailContactMigration`). */
export const emailsMigration = {
  version: 19,
  name: 'emails',
  sql: `CREATE TABLE emails (
    seq INTEGER PRIMARY KEY,
    id TEXT UNIQUE NOT NULL,
    team_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    from_addr TEXT NOT NULL,
    to_addrs TEXT NOT NULL,
    cc TEXT,
    bcc TEXT,
    reply_to TEXT,
    subject TEXT NOT NULL,
    html TEXT,
    text TEXT,
    headers TEXT,
    tags TEXT,
    last_event TEXT NOT NULL,
    scheduled_at INTEGER,
    created_at INTEGER NOT NULL,
    source TEXT NOT NULL,
    domain_id TEXT,
    broadcast_id TEXT,
    template_id TEXT,
    topic_id TEXT,
    automation_run_id TEXT
  );
  CREATE INDEX emails_team ON emails (team_id, seq);
  CREATE INDEX emails_broadcast ON emails (broadcast_id);
  CREATE TABLE email_events (
    seq INTEGER PRIMARY KEY,
    email_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at INTEGER NOT NULL,
    data TEXT
  );
  CREATE INDEX email_events_email ON email_events (email_id, seq);
  CREATE INDEX email_events_team ON email_events (team_id, at);
  CREATE TABLE email_attachments (
    seq INTEGER PRIMARY KEY,
    id TEXT UNIQUE NOT NULL,
    email_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    filename TEXT,
    content_type TEXT NOT NULL,
    content_id TEXT,
    path TEXT,
    content TEXT,
    size INTEGER NOT NULL
  );
  CREATE INDEX email_attachments_email ON email_attachments (email_id, seq);`,
};

/**
 * Migration 29: `emails.contact_id`, the contact a broadcast email went to
 * (null for every other email). It replaces the broadcasts module's
 * `broadcast_emails` table, which repeated `emails.broadcast_id` only to
 * carry this id (one writer of the table); migration 30 of broadcasts copies the
 * ids over and drops that table.
 */
export const emailContactMigration = {
  version: 29,
  name: 'emails_contact_id',
  sql: `ALTER TABLE emails ADD COLUMN contact_id TEXT;`,
};

/**
 * Migration 31: an email's history moves into the email's own row, the
 * JSON array `emails.events` (`EmailEvent`s, oldest first), and the
 * `email_events` table goes. Three rows per delivered email, each with its
 * email id and team id, in two indexes, were ~630 of the ~1,100 bytes a
 * stored email cost (docs/benchmarks.md: ≤ 1 KB a stored email); the
 * array costs ~100. Events of older stores are copied over in order.
 */
export const emailEventsColumnMigration = {
  version: 31,
  name: 'emails_events_column',
  sql: `ALTER TABLE emails ADD COLUMN events TEXT NOT NULL DEFAULT '[]';
  UPDATE emails SET events = (
    SELECT json_group_array(json(CASE WHEN ev.data IS NULL THEN json_object('type', ev.type, 'at', ev.at)
      ELSE json_object('type', ev.type, 'at', ev.at, 'data', json(ev.data)) END) ORDER BY ev.seq)
    FROM email_events ev WHERE ev.email_id = emails.id
  ) WHERE EXISTS (SELECT 1 FROM email_events ev WHERE ev.email_id = emails.id);
  DROP TABLE email_events;`,
};

/** An `emails` row. Times in emulated ms; address lists and tags/headers as JSON text. */
export interface EmailRow {
  seq: number;
  id: string;
  team_id: string;
  message_id: string;
  from_addr: string;
  to_addrs: string;
  cc: string | null;
  bcc: string | null;
  reply_to: string | null;
  subject: string;
  html: string | null;
  text: string | null;
  headers: string | null;
  tags: string | null;
  last_event: SchemaOf<'LastEvent'>;
  scheduled_at: number | null;
  created_at: number;
  source: string;
  domain_id: string | null;
  broadcast_id: string | null;
  template_id: string | null;
  topic_id: string | null;
  automation_run_id: string | null;
  /** The contact a broadcast email went to; null for other emails. */
  contact_id: string | null;
  /** The email's history: a JSON array of `EmailEvent`, oldest first (migration 31). */
  events: string;
}

/** An `emails` row without its bodies (`html`, `text`): what the lifecycle jobs read (`loadEmailHead`). */
export type EmailHead = Omit<EmailRow, 'html' | 'text'>;

/** The columns of an `EmailHead`, in the order `loadEmailHead` reads them. */
const HEAD_COLUMNS = `seq, id, team_id, message_id, from_addr, to_addrs, cc, bcc, reply_to, subject, headers, tags, last_event, scheduled_at,
  created_at, source, domain_id, broadcast_id, template_id, topic_id, automation_run_id, contact_id, events`;

/** The columns of a new `emails` row: every column but `seq`. */
export type NewEmailRow = Omit<EmailRow, 'seq'>;

/**
 * The SQL expression of an email's recipient count toward the quota: the
 * lengths of its To, CC and BCC JSON arrays (`to`, `cc`, `bcc`: columns or
 * `?`), CC and BCC counted 0 when NULL. The same sum migration 36 froze in
 * its trigger and backfill; `insertEmail` and `recountSentUsage` use this one.
 */
function recipientCountSql(to: string, cc: string, bcc: string): string {
  return `json_array_length(${to}) + COALESCE(json_array_length(${cc}), 0) + COALESCE(json_array_length(${bcc}), 0)`;
}

/**
 * The one `INSERT INTO emails` (one writer of the table): writes a row as given
 * (address lists, tags and headers already JSON text; times in emulated ms).
 * Used by `sendEmail` (send.ts) and the fixture seed (index.ts). Counts the
 * recipients of an api, batch or smtp email toward the team's day in
 * `emulator_sent_usage` (migrations 36 and 43), in the caller's transaction.
 * Returns the row as stored (so a caller need not read it back). Throws the
 * SQLite error of a duplicate `id`.
 */
export function insertEmail(ctx: Emulator, row: NewEmailRow): EmailRow {
  const stored = insertRow(ctx, row);
  // The quota's count, written here in the row's transaction since migration 43 (it was a trigger's, which made
  // every INSERT run a trigger program, a broadcast's included: ~1/3 of its cost).
  if (SENT_USAGE_SOURCES.has(row.source)) {
    ctx.db
      .prepare(
        `INSERT INTO emulator_sent_usage (team_id, day, recipients)
         VALUES (?, ?, ${recipientCountSql('?', '?', '?')})
         ON CONFLICT (team_id, day) DO UPDATE SET recipients = recipients + excluded.recipients`,
      )
      .run(row.team_id, Math.floor(row.created_at / DAY_MS), row.to_addrs, row.cc, row.bcc);
  }
  return stored;
}

/** The row's INSERT alone (`insertEmail`). */
function insertRow(ctx: Emulator, row: NewEmailRow): EmailRow {
  // Positional parameters: binding 24 named ones from the object was ~4 µs of an email's ~15 µs INSERT
  // (micro-benchmark on the emulator's store; a broadcast inserts one per contact).
  const { lastInsertRowid } = ctx.db
    .prepare(
      `INSERT INTO emails (id, team_id, message_id, from_addr, to_addrs, cc, bcc, reply_to, subject, html, text, headers, tags,
        last_event, scheduled_at, created_at, source, domain_id, broadcast_id, template_id, topic_id, automation_run_id, contact_id, events)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.id, row.team_id, row.message_id, row.from_addr, row.to_addrs, row.cc, row.bcc, row.reply_to, row.subject, row.html, row.text, row.headers, row.tags,
      row.last_event, row.scheduled_at, row.created_at, row.source, row.domain_id, row.broadcast_id, row.template_id, row.topic_id, row.automation_run_id, row.contact_id, row.events,
    );
  return { seq: Number(lastInsertRowid), ...row };
}

/**
 * The Message-ID the emulator gives an email: `<YYYYMMDDHHMMSS.xxxxxxxx@domain>`
 * (UTC time of `atMs`, the first 8 characters of the email id, the sender's
 * domain; the OA example's shape). Used by sends and the fixture seed.
 */
export function messageId(emailId: string, atMs: number, domain: string): string {
  // The stamp of the last time asked for is kept: a broadcast's batch makes its 100 emails at one emulated time
  // (the date formatted per email was ~2 % of a broadcast).
  if (atMs !== stampAt) {
    stamp = new Date(atMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
    stampAt = atMs;
  }
  return `<${stamp}.${emailId.slice(0, 8)}@${domain}>`;
}
let stampAt = Number.NaN;
let stamp = '';

/** An `email_attachments` row; `content` is base64 text (snapshot-safe), null for `path` attachments. */
export interface AttachmentRow {
  seq: number;
  id: string;
  email_id: string;
  team_id: string;
  filename: string | null;
  content_type: string;
  content_id: string | null;
  path: string | null;
  content: string | null;
  size: number;
}

/** One step of an email's history (an element of `emails.events`): its type, when (emulated ms), and data where it has some (`{link}` of a click, `{addresses}` of a suppression). */
export interface EmailEvent {
  type: string;
  at: number;
  data?: Record<string, unknown>;
}

/** The JSON text of a history of one event (a new email's `events`). */
export function firstEvents(type: string, at: number): string {
  // Kept for the last type and time asked for, as `messageId`'s stamp (a batch's emails share both).
  if (type !== firstType || at !== firstAt) {
    firstText = JSON.stringify([{ type, at }]);
    firstType = type;
    firstAt = at;
  }
  return firstText;
}
let firstType = '';
let firstAt = Number.NaN;
let firstText = '';

export const list = (s: string | null): string[] => fromJson<string[]>(s) ?? [];
export const tagsOf = (r: Pick<EmailRow, 'tags'>): { name: string; value: string }[] => fromJson<{ name: string; value: string }[]>(r.tags) ?? [];
export const headersOf = (r: Pick<EmailRow, 'headers'>): Record<string, string> => fromJson<Record<string, string>>(r.headers) ?? {};

/** The row by id (any team), or undefined. */
export function loadEmail(ctx: Emulator, id: string): EmailRow | undefined {
  return ctx.db.prepare('SELECT * FROM emails WHERE id = ?').get(id) as EmailRow | undefined;
}

/**
 * The row by id without its bodies (any team), or undefined: the lifecycle
 * jobs' read (a broadcast's 100,000 emails read it twice each).
 */
export function loadEmailHead(ctx: Emulator, id: string): EmailHead | undefined {
  // Read as an array and shaped here: the driver building a 23-key object per row was ~2/3 of this read, which a
  // broadcast makes twice per email (an object literal of one fixed shape costs next to nothing).
  const r = ctx.db.prepare(`SELECT ${HEAD_COLUMNS} FROM emails WHERE id = ?`).raw().get(id) as unknown[] | undefined;
  return r ? headOf(r) : undefined;
}

/**
 * What a lifecycle step reads of an email (`runSend`, `runDeliver` in
 * jobs.ts): its recipients, state and history. `recordStep` reads the rest
 * (`loadEmailHead`) only when a webhook listens to the step's event.
 */
export type EmailStepRow = Pick<EmailHead, 'id' | 'team_id' | 'to_addrs' | 'cc' | 'bcc' | 'last_event' | 'topic_id' | 'events'>;

/**
 * The `EmailStepRow`s of many emails by id (any team), read in one
 * statement: the lifecycle steps of a broadcast's batch (`emails.send-many`,
 * `emails.deliver-many`; a head's 23 columns were ~15 % of a broadcast,
 * most of it for the webhook data nobody asked for). Unknown ids are absent.
 */
export function loadEmailSteps(ctx: Emulator, ids: readonly string[]): Map<string, EmailStepRow> {
  const rows = ctx.db
    .prepare('SELECT id, team_id, to_addrs, cc, bcc, last_event, topic_id, events FROM emails WHERE id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(ids)) as [string, string, string, string | null, string | null, EmailStepRow['last_event'], string | null, string][];
  return new Map(rows.map((r) => [r[0], { id: r[0], team_id: r[1], to_addrs: r[2], cc: r[3], bcc: r[4], last_event: r[5], topic_id: r[6], events: r[7] }]));
}

/** An `EmailHead` from a row of `HEAD_COLUMNS` read as an array. */
function headOf(r: unknown[]): EmailHead {
  return {
    seq: r[0], id: r[1], team_id: r[2], message_id: r[3], from_addr: r[4], to_addrs: r[5], cc: r[6], bcc: r[7], reply_to: r[8],
    subject: r[9], headers: r[10], tags: r[11], last_event: r[12], scheduled_at: r[13], created_at: r[14], source: r[15],
    domain_id: r[16], broadcast_id: r[17], template_id: r[18], topic_id: r[19], automation_run_id: r[20], contact_id: r[21], events: r[22],
  } as EmailHead;
}

/** The team's email, or 404 `Email not found`. */
export function getEmailOr404(ctx: Emulator, teamId: string, id: string): EmailRow {
  const row = ctx.db.prepare('SELECT * FROM emails WHERE id = ? AND team_id = ?').get(id, teamId) as EmailRow | undefined;
  if (!row) throw errors.notFound('Email');
  return row;
}

/** The events of a loaded row, oldest first (no second query). */
export function eventsOfRow(row: Pick<EmailRow, 'events'>): EmailEvent[] {
  return JSON.parse(row.events) as EmailEvent[];
}

/** The email's events, oldest first (none for an unknown id). */
export function eventsOf(ctx: Emulator, emailId: string): EmailEvent[] {
  const row = ctx.db.prepare('SELECT events FROM emails WHERE id = ?').get(emailId) as { events: string } | undefined;
  return row ? (JSON.parse(row.events) as EmailEvent[]) : [];
}

/** The email's attachments, in the order sent. */
export function attachmentsOf(ctx: Emulator, emailId: string): AttachmentRow[] {
  return ctx.db.prepare('SELECT * FROM email_attachments WHERE email_id = ? ORDER BY seq').all(emailId) as AttachmentRow[];
}

/**
 * The columns `toListItem` reads: lists select only these (not html, text,
 * headers), so a page's cost does not grow with the size of the emails
 * (`SELECT *` was 39 % of GET /emails).
 */
export const LIST_COLUMNS = 'id, to_addrs, from_addr, created_at, subject, bcc, cc, reply_to, last_event, scheduled_at, message_id';

/** List item of GET /emails (docs/reference/interface-spec.md#sent-email): unset cc/bcc/reply_to are `null`. Reads only `LIST_COLUMNS`. */
export function toListItem(r: Pick<EmailRow, 'id' | 'to_addrs' | 'from_addr' | 'created_at' | 'subject' | 'bcc' | 'cc' | 'reply_to' | 'last_event' | 'scheduled_at' | 'message_id'>) {
  return {
    id: r.id,
    to: list(r.to_addrs),
    from: r.from_addr,
    created_at: apiTime(r.created_at),
    subject: r.subject,
    bcc: fromJson<string[]>(r.bcc),
    cc: fromJson<string[]>(r.cc),
    reply_to: fromJson<string[]>(r.reply_to),
    last_event: r.last_event,
    scheduled_at: apiTime(r.scheduled_at),
    message_id: r.message_id,
  };
}

/** The columns a page of GET /emails reads: the item's changing fields; the rest comes from `listItemsJson`'s cache. */
export const LIST_PAGE_COLUMNS = 'id, last_event, scheduled_at';

/**
 * How many list items are kept per store (FIFO), about 0.8 KB each: a
 * suite listing the newest emails again and again reads them from here
 * (reading, shaping and serializing the 11 columns of 100 rows was ~60 %
 * of GET /emails).
 */
const LIST_ITEM_CACHE_SIZE = 5_000;

/**
 * An email's list item as last served: the object `toListItem` made
 * (frozen, its arrays too), the `last_event` and `scheduled_at` (ms) it
 * was made with, and its JSON text (`JSON.stringify(item)`).
 */
interface CachedItem {
  item: Readonly<ReturnType<typeof toListItem>>;
  lastEvent: string;
  scheduledAt: number | null;
  json: string;
}

/** The item caches, one per store; emptied on reset and snapshot import (the bus `reset`). */
const itemCaches = new WeakMap<object, Map<string, CachedItem>>();

function itemCacheOf(ctx: Emulator): Map<string, CachedItem> {
  let cache = itemCaches.get(ctx.db);
  if (!cache) {
    const created = new Map<string, CachedItem>();
    itemCaches.set(ctx.db, created);
    ctx.bus.on('reset', () => created.clear());
    cache = created;
  }
  return cache;
}

/**
 * The list item of the page row `r`, and its JSON text. An email's columns
 * other than `last_event` and `scheduled_at` never change after it is
 * stored (only those two have an UPDATE in this file), so the item is read
 * once (`toListItem` of its `LIST_COLUMNS`) and kept; when the row's
 * `last_event` or `scheduled_at` differ from the kept item's, a new item is
 * built from it with the row's values (a spread keeps `toListItem`'s key
 * order) and serialized again.
 */
function listItemOf(ctx: Emulator, r: Pick<EmailRow, 'id' | 'last_event' | 'scheduled_at'>): CachedItem {
  const cache = itemCacheOf(ctx);
  let kept = cache.get(r.id);
  if (!kept) {
    const row = ctx.db.prepare(`SELECT ${LIST_COLUMNS} FROM emails WHERE id = ?`).get(r.id) as EmailRow;
    const made = toListItem(row);
    for (const v of Object.values(made)) if (Array.isArray(v)) Object.freeze(v);
    const item = Object.freeze(made);
    kept = { item, lastEvent: row.last_event, scheduledAt: row.scheduled_at, json: JSON.stringify(item) };
    if (cache.size >= LIST_ITEM_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(r.id, kept);
  }
  if (kept.lastEvent !== r.last_event || kept.scheduledAt !== r.scheduled_at) {
    const item = Object.freeze({ ...kept.item, last_event: r.last_event, scheduled_at: apiTime(r.scheduled_at) });
    kept.item = item;
    kept.lastEvent = r.last_event;
    kept.scheduledAt = r.scheduled_at;
    kept.json = JSON.stringify(item);
  }
  return kept;
}

/**
 * The JSON array of the list items (`toListItem`) of `rows`, read with
 * `LIST_PAGE_COLUMNS`: each item the object `toListItem` gives for the
 * email's current row, serialized whole (`listItemOf` keeps the text until
 * the row's `last_event` or `scheduled_at` changes); the same text
 * `JSON.stringify(rows.map(toListItem))` gives.
 */
export function listItemsJson(ctx: Emulator, rows: readonly Pick<EmailRow, 'id' | 'last_event' | 'scheduled_at'>[]): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) out += (i ? ',' : '') + listItemOf(ctx, rows[i]).json;
  return out + ']';
}

/** GET /emails/{id} (docs/reference/resources.md#emails): `object: "email"`, html, text, tags; unset lists are `[]` as in the docs. */
export function toEmail(r: EmailRow): ResponseBody<'emails/get'> {
  return {
    object: 'email',
    id: r.id,
    message_id: r.message_id,
    from: r.from_addr,
    to: list(r.to_addrs),
    subject: r.subject,
    html: r.html,
    text: r.text,
    cc: list(r.cc),
    bcc: list(r.bcc),
    reply_to: list(r.reply_to),
    created_at: apiTime(r.created_at),
    scheduled_at: apiTime(r.scheduled_at),
    last_event: r.last_event,
    tags: tagsOf(r),
    topic_id: r.topic_id,
  };
}

/**
 * The webhook `data` of an outbound email event (docs/reference/webhooks.md#envelope-and-data): email_id,
 * created_at (ISO), from (as sent), to[], subject, message_id; broadcast_id
 * and template_id when set; tags as an object name → value when any;
 * headers `[{name, value}]` only when custom headers were set. `extra` adds
 * `bounce`, `click`, `suppressed`, `failed`.
 */
export function webhookData(r: EmailHead, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    email_id: r.id,
    created_at: isoTime(r.created_at),
    from: r.from_addr,
    to: list(r.to_addrs),
    subject: r.subject,
    message_id: r.message_id,
  };
  if (r.broadcast_id) data.broadcast_id = r.broadcast_id;
  if (r.template_id) data.template_id = r.template_id;
  const tags = tagsOf(r);
  if (tags.length) data.tags = Object.fromEntries(tags.map((t) => [t.name, t.value]));
  const headers = headersOf(r);
  if (Object.keys(headers).length) data.headers = Object.entries(headers).map(([name, value]) => ({ name, value }));
  return { ...data, ...extra };
}

/** Tells `ctx.bus` listeners (long-polls, the inbox page) that an email was created or changed: once the current transaction commits (src/bus.ts), never if it rolls back. */
export function notifyEmail(ctx: Emulator, id: string): void {
  ctx.bus.emit('email', id);
}

/** Events that have a webhook type (`email.<type>`). `queued` and `canceled` have none. */
const WEBHOOK_TYPES = new Set(['scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained', 'opened', 'clicked', 'failed', 'suppressed']);

/**
 * Records a step of an email: appends the event to `emails.events` and sets
 * `last_event` (unless `keepLastEvent`) in one UPDATE, raises
 * `email.<type>` with `webhookData(row, extra)` and notifies the bus.
 * `eventData` is kept with the event (e.g. `{link}`). `stored`: the row was
 * inserted with this event already (a new email's first step, see
 * `firstEvents`), so nothing is written. Synchronous; call inside the
 * transaction of the change.
 */
export function recordStep(
  ctx: Emulator,
  row: EmailHead | EmailStepRow,
  type: SchemaOf<'LastEvent'>,
  opts: { extra?: Record<string, unknown>; eventData?: Record<string, unknown>; keepLastEvent?: boolean; stored?: boolean } = {},
): void {
  if (!opts.stored) {
    const event: EmailEvent = { type, at: ctx.clock.nowMs(), ...(opts.eventData ? { data: opts.eventData } : {}) };
    if (opts.keepLastEvent) {
      ctx.db.prepare(`UPDATE emails SET events = json_insert(events, '$[#]', json(?)) WHERE id = ?`).run(JSON.stringify(event), row.id);
    } else {
      ctx.db.prepare(`UPDATE emails SET events = json_insert(events, '$[#]', json(?)), last_event = ? WHERE id = ?`).run(JSON.stringify(event), type, row.id);
      row.last_event = type;
    }
  }
  if (WEBHOOK_TYPES.has(type)) {
    // A step's row (`EmailStepRow`) lacks the webhook data's columns: read them only when a webhook listens.
    emitEvent(ctx, row.team_id, `email.${type}` as EventType, () => webhookData('message_id' in row ? row : { ...loadEmailHead(ctx, row.id)!, last_event: row.last_event }, opts.extra));
  }
  notifyEmail(ctx, row.id);
}

/**
 * Simulates an open or a click (admin API): records it, sets `last_event`,
 * raises `email.opened` / `email.clicked` (click data per docs/reference/webhooks.md#envelope-and-data:
 * `click{ipAddress, link, timestamp, userAgent}`).
 */
export function simulateEngagement(ctx: Emulator, row: EmailRow, type: 'opened' | 'clicked', link: string | null): void {
  ctx.db.transaction(() => {
    if (type === 'opened') {
      recordStep(ctx, row, 'opened');
      return;
    }
    recordStep(ctx, row, 'clicked', {
      eventData: { link },
      extra: { click: { ipAddress: '127.0.0.1', link, timestamp: isoTime(ctx.clock.nowMs()), userAgent: 'Mozilla/5.0 (resend-emulator)' } },
    });
  })();
}

/** Sent emails, newest first: the team's, or every team's when `teamId` is undefined (the admin API's search). */
export function emailRows(ctx: Emulator, teamId?: string): EmailRow[] {
  return (teamId !== undefined
    ? ctx.db.prepare('SELECT * FROM emails WHERE team_id = ? ORDER BY seq DESC').all(teamId)
    : ctx.db.prepare('SELECT * FROM emails ORDER BY seq DESC').all()) as EmailRow[];
}

/** One attachment of an email, or undefined. */
export function findEmailAttachment(ctx: Emulator, emailId: string, attachmentId: string): AttachmentRow | undefined {
  return ctx.db.prepare('SELECT * FROM email_attachments WHERE id = ? AND email_id = ?').get(attachmentId, emailId) as AttachmentRow | undefined;
}

/** A page of the team's sent emails (`paginateTeam` options but the table). */
export const pageEmails = teamPager<EmailRow>('emails');
/** The table's name, for `paginate` of an email's attachments. */
export const EMAIL_ATTACHMENTS = 'email_attachments';

/** Sets an email's `scheduled_at` (emulated ms). */
export function setScheduledAt(ctx: Emulator, id: string, at: number): void {
  ctx.db.prepare('UPDATE emails SET scheduled_at = ? WHERE id = ?').run(at, id);
}

/** The team's emails with the columns the metrics group by. */
export function metricEmails(ctx: Emulator, teamId: string): Pick<EmailRow, 'id' | 'domain_id' | 'broadcast_id' | 'from_addr'>[] {
  return ctx.db.prepare('SELECT id, domain_id, broadcast_id, from_addr FROM emails WHERE team_id = ?').all(teamId) as Pick<EmailRow, 'id' | 'domain_id' | 'broadcast_id' | 'from_addr'>[];
}

/** The team's email events between `start` and `end` (emulated ms, inclusive), in time order (then by email, then in the email's order). */
export function eventsBetween(ctx: Emulator, teamId: string, start: number, end: number): { email_id: string; type: string; at: number }[] {
  return ctx.db
    .prepare(
      `SELECT e.id AS email_id, ev.value ->> 'type' AS type, ev.value ->> 'at' AS at
       FROM emails e, json_each(e.events) ev
       WHERE e.team_id = ? AND (ev.value ->> 'at') >= ? AND (ev.value ->> 'at') <= ?
       ORDER BY at, e.seq, ev.key`,
    )
    .all(teamId, start, end) as { email_id: string; type: string; at: number }[];
}

/**
 * Stores one attachment of a new email (`content` bytes kept as base64;
 * `size` in bytes, 0 for a `path` attachment). Call inside the send's
 * transaction.
 */
export function insertAttachment(
  ctx: Emulator,
  a: { id: string; emailId: string; teamId: string; filename: string | null; content_type: string | null; content_id: string | null; path: string | null; content?: Buffer | null },
): void {
  ctx.db
    .prepare('INSERT INTO email_attachments (id, email_id, team_id, filename, content_type, content_id, path, content, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(a.id, a.emailId, a.teamId, a.filename, a.content_type, a.content_id, a.path, a.content?.toString('base64') ?? null, a.content?.length ?? 0);
}


/**
 * The emails a broadcast produced, oldest first, each with the contact it
 * went to (`contact_id`, given by the broadcast as `SendContext.contactId`)
 * (for GET /broadcasts/{id}/recipients and clicked links).
 */
export function emailsOfBroadcast(ctx: Emulator, broadcastId: string): { id: string; contact_id: string | null; to: string[]; last_event: string; created_at: number; clicks: { link: string; at: number }[] }[] {
  const rows = ctx.db.prepare('SELECT * FROM emails WHERE broadcast_id = ? ORDER BY seq').all(broadcastId) as EmailRow[];
  return rows.map((r) => ({
    id: r.id,
    contact_id: r.contact_id,
    to: list(r.to_addrs),
    last_event: r.last_event,
    created_at: r.created_at,
    // The clicks are in the email's own history.
    clicks: (JSON.parse(r.events) as EmailEvent[]).filter((e) => e.type === 'clicked').map((e) => ({ link: String(e.data?.link ?? ''), at: e.at })),
  }));
}


/**
 * Migration 36: the team's quota usage kept as it happens (constant-time quota checks):
 * `emulator_sent_usage` holds, per team and UTC day (`created_at` ÷
 * 86,400,000), the recipients of its transactional sends (`source` api,
 * batch or smtp: each To, CC and BCC address one email, the service's
 * knowledge base "What are Resend account quotas and limits?"; broadcast and
 * automation emails are marketing email, counted by contacts instead).
 * Triggers keep it in the statement that inserts or deletes an `emails` row
 * (a send, the fixture seed, a snapshot import, a reset), so it never
 * disagrees with the rows; the rows already stored are counted once here.
 * (Since migration 43 `insertEmail` counts an insert, and a snapshot import
 * counts again: `sentUsageCountedMigration`.)
 * A quota check then reads at most the month's days, however many emails
 * are stored (it summed every email of the month, several times a send).
 * Like the saved clock it is the emulator's bookkeeping (`emulator_`): not
 * exported in snapshots, not emptied by reset (the triggers follow the rows).
 */
export const sentUsageMigration = {
  version: 36,
  name: 'emails_sent_usage',
  sql: `CREATE TABLE emulator_sent_usage (
    team_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    recipients INTEGER NOT NULL,
    PRIMARY KEY (team_id, day)
  ) WITHOUT ROWID;
  CREATE TRIGGER emails_sent_usage_insert AFTER INSERT ON emails WHEN NEW.source IN ('api', 'batch', 'smtp') BEGIN
    INSERT INTO emulator_sent_usage (team_id, day, recipients)
    VALUES (NEW.team_id, CAST(NEW.created_at / 86400000 AS INTEGER), json_array_length(NEW.to_addrs) + COALESCE(json_array_length(NEW.cc), 0) + COALESCE(json_array_length(NEW.bcc), 0))
    ON CONFLICT (team_id, day) DO UPDATE SET recipients = recipients + excluded.recipients;
  END;
  CREATE TRIGGER emails_sent_usage_delete AFTER DELETE ON emails WHEN OLD.source IN ('api', 'batch', 'smtp') BEGIN
    UPDATE emulator_sent_usage
    SET recipients = recipients - (json_array_length(OLD.to_addrs) + COALESCE(json_array_length(OLD.cc), 0) + COALESCE(json_array_length(OLD.bcc), 0))
    WHERE team_id = OLD.team_id AND day = CAST(OLD.created_at / 86400000 AS INTEGER);
  END;
  INSERT INTO emulator_sent_usage (team_id, day, recipients)
    SELECT team_id, CAST(created_at / 86400000 AS INTEGER), SUM(json_array_length(to_addrs) + COALESCE(json_array_length(cc), 0) + COALESCE(json_array_length(bcc), 0))
    FROM emails WHERE source IN ('api', 'batch', 'smtp') GROUP BY 1, 2;`,
};

const DAY_MS = 86_400_000;

/** The sources whose recipients `emulator_sent_usage` counts (migration 36: transactional sends; send.ts `QUOTA_SOURCES`). */
const SENT_USAGE_SOURCES: ReadonlySet<string> = new Set(['api', 'batch', 'smtp']);

/**
 * Migration 43: the recipients of a send are counted by `insertEmail`, in
 * the transaction that stores the email, instead of by the
 * `emails_sent_usage_insert` trigger: an AFTER INSERT trigger makes SQLite
 * run its program for every row, even those its `WHEN` excludes (a
 * broadcast's emails): 30,000 inserts took 450-600 ms with it, 280-440
 * without (docs/benchmarks.md). `insertEmail` is the one writer of the
 * table's rows; a snapshot import, which inserts rows as they are, counts
 * them again (`recountSentUsage`). The DELETE trigger stays (deletes are
 * rare, and reset and imports delete by table).
 */
export const sentUsageCountedMigration = {
  version: 43,
  name: 'emails_sent_usage_counted',
  sql: `DROP TRIGGER emails_sent_usage_insert;`,
};

/**
 * Counts `emulator_sent_usage` again from the stored emails (as migration
 * 36 did): after a snapshot import, whose rows go in without `insertEmail`.
 * Call inside the import's transaction.
 */
export function recountSentUsage(ctx: Emulator): void {
  ctx.db.exec(`DELETE FROM emulator_sent_usage;
  INSERT INTO emulator_sent_usage (team_id, day, recipients)
    SELECT team_id, CAST(created_at / 86400000 AS INTEGER), SUM(${recipientCountSql('to_addrs', 'cc', 'bcc')})
    FROM emails WHERE source IN ('api', 'batch', 'smtp') GROUP BY 1, 2;`);
}

/**
 * How many emails the team's transactional sends count toward its quota in
 * two windows, read in one query from the per-day counts of migration 36
 * (at most the month's days, whatever the number of emails): `day`, the
 * recipients of sends created at or after `dayStartMs`, and `month`, at or
 * after `monthStartMs` (emulated ms; both must be UTC day starts, as
 * usage's `quotaWindows` gives them).
 */
export function sentRecipients(ctx: Emulator, teamId: string, dayStartMs: number, monthStartMs: number): { day: number; month: number } {
  return ctx.db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN day >= ? THEN recipients END), 0) AS day, COALESCE(SUM(recipients), 0) AS month
       FROM emulator_sent_usage WHERE team_id = ? AND day >= ?`,
    )
    .get(Math.floor(dayStartMs / DAY_MS), teamId, Math.floor(monthStartMs / DAY_MS)) as { day: number; month: number };
}

/** The ids of a team's sent emails, oldest first. */
export function teamEmailIds(ctx: Emulator, teamId: string): string[] {
  return (ctx.db.prepare('SELECT id FROM emails WHERE team_id = ? ORDER BY seq').all(teamId) as { id: string }[]).map((r) => r.id);
}

/**
 * Deletes sent emails (`ids`; unknown ones are left out) with their
 * attachments (their events are in the row), in two statements whatever their number; the usage
 * counts follow the rows (the `emails_sent_usage_delete` trigger). Returns
 * the ids deleted. Call in the caller's transaction.
 */
export function deleteEmailRows(ctx: Emulator, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  const deleted = (ctx.db.prepare('DELETE FROM emails WHERE id IN (SELECT value FROM json_each(?)) RETURNING id').all(json) as { id: string }[]).map((r) => r.id);
  if (deleted.length === 0) return [];
  const gone = JSON.stringify(deleted);
  ctx.db.prepare('DELETE FROM email_attachments WHERE email_id IN (SELECT value FROM json_each(?))').run(gone);
  const cache = itemCacheOf(ctx);
  for (const id of deleted) cache.delete(id);
  return deleted;
}

/** An `emails` row with or without its bodies (`emailsByIds`). */
export type EmailWithBodies = EmailHead & { html?: string | null; text?: string | null };

/**
 * Emails by id (any team; unknown ids are left out), with `html` and `text`
 * when `bodies`: what an inbox's thread reads of the emails it sent (one
 * query for a page of them).
 */
export function emailsByIds(ctx: Emulator, ids: readonly string[], bodies: boolean): EmailWithBodies[] {
  if (ids.length === 0) return [];
  return ctx.db
    .prepare(`SELECT ${HEAD_COLUMNS}${bodies ? ', html, text' : ''} FROM emails WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as EmailWithBodies[];
}

/** The attachments of these emails without their contents, each email's in the order sent. */
export function attachmentMetaOfEmails(ctx: Emulator, emailIds: readonly string[]): Omit<AttachmentRow, 'content'>[] {
  if (emailIds.length === 0) return [];
  return ctx.db
    .prepare('SELECT seq, id, email_id, team_id, filename, content_type, content_id, path, size FROM email_attachments WHERE email_id IN (SELECT value FROM json_each(?)) ORDER BY seq')
    .all(JSON.stringify(emailIds)) as Omit<AttachmentRow, 'content'>[];
}
