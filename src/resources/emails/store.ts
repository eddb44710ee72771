/**
 * Sent emails as stored: the `emails` table (each email's history in its
 * `events` column) and `email_attachments` (declared here, each once), the API shapes (docs/reference/interface-spec.md#sent-email;
 * docs/reference/resources.md#emails) and the webhook `data` (docs/reference/webhooks.md#envelope-and-data).
 */
import type { Emulator } from '../../context.js';
import { apiTime, fromJson, isoTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { emitEvent, type EventType } from '../../deliveries/emit.js';
import { teamPager } from '../../http/pagination.js';
import type { ResponseBody, SchemaOf } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';
import { countsTowardQuota, recordSend, recordSends } from '../usage/service.js';

/**
 * Sent emails: address lists (`to_addrs`, `cc`, `bcc`, `reply_to`), `tags`
 * and `headers` as JSON text, times in emulated ms, `source` how it was sent
 * (api, batch, smtp, broadcast, automation), each email's history in its own
 * row (`events`: three rows of a table per delivered email, with their ids
 * and indexes, cost ~630 of the ~1,100 bytes a stored email took;
 * docs/benchmarks.md: <= 1 KB a stored email).
 */
export const emailsTable = defineTable(
  'emails',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    message_id: text().notNull(),
    from_addr: text().notNull(),
    to_addrs: text().notNull(),
    cc: text(),
    bcc: text(),
    reply_to: text(),
    subject: text().notNull(),
    html: text(),
    text: text(),
    headers: text(),
    tags: text(),
    last_event: text().notNull().as<SchemaOf<'LastEvent'>>(),
    scheduled_at: integer(),
    created_at: integer().notNull(),
    source: text().notNull(),
    domain_id: text(),
    broadcast_id: text(),
    template_id: text(),
    topic_id: text(),
    automation_run_id: text(),
    /** The contact a broadcast email went to; null for other emails. */
    contact_id: text(),
    /** The email's history: a JSON array of `EmailEvent`, oldest first. */
    events: text().notNull().default('[]'),
  },
  {
    indexes: [
      { name: 'emails_team', on: 'team_id, seq' },
      { name: 'emails_broadcast', on: 'broadcast_id' },
    ],
  },
);

/** The attachments of sent emails: `content` base64 text (snapshot-safe), null for `path` attachments. */
export const emailAttachmentsTable = defineTable(
  'email_attachments',
  {
    seq: seq(),
    id: id(),
    email_id: text().notNull(),
    team_id: text().notNull(),
    filename: text(),
    content_type: text().notNull(),
    content_id: text(),
    path: text(),
    content: text(),
    size: integer().notNull(),
  },
  {
    indexes: [
      { name: 'email_attachments_email', on: 'email_id, seq' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [emailsTable, emailAttachmentsTable];

/** An `emails` row. Times in emulated ms; address lists and tags/headers as JSON text. */
export type EmailRow = RowOf<typeof emailsTable>;

/** An `emails` row without its bodies (`html`, `text`): what the lifecycle jobs read (`loadEmailHead`). */
export type EmailHead = Omit<EmailRow, 'html' | 'text'>;

/** What `loadEmailHead` reads: every column but the bodies, read as an array and shaped once (`Reader`). */
const HEAD = emailsTable.reader(emailsTable.columnsExcept('html', 'text'));

/** The columns of a new `emails` row: every column but `seq`. */
export type NewEmailRow = Omit<EmailRow, 'seq'>;

/** The one INSERT of a new email: every column but `seq`, positional (binding 24 named parameters from the object was ~4 µs of an email's ~15 µs INSERT; a broadcast inserts one per contact). */
const INSERT_EMAIL = emailsTable.insert(emailsTable.columnsExcept('seq'));

/**
 * The one `INSERT INTO emails` (one writer of the table): writes a row as given
 * (address lists, tags and headers already JSON text; times in emulated ms).
 * Used by `sendEmail` (send.ts) and the fixture seed (index.ts). Records the
 * send in the usage ledger (`recordSend`, which counts the sources that
 * count), in the caller's transaction. Returns the row as stored (so a
 * caller need not read it back). Throws the SQLite error of a duplicate `id`.
 */
export function insertEmail(ctx: Emulator, row: NewEmailRow): EmailRow {
  const { lastInsertRowid } = ctx.db.prepare(INSERT_EMAIL.sql).run(...INSERT_EMAIL.params(row));
  if (countsTowardQuota(row.source)) recordSend(ctx, sendOf(row));
  return { seq: Number(lastInsertRowid), ...row };
}

/** The columns the usage ledger reads of a stored email (`sendOf`). */
const SEND_NAMES = ['team_id', 'source', 'created_at', 'to_addrs', 'cc', 'bcc'] as const;

/** What the usage ledger records of a stored email (`recordSend`). */
function sendOf(r: Pick<EmailRow, (typeof SEND_NAMES)[number]>) {
  return { teamId: r.team_id, source: r.source, atMs: r.created_at, to: list(r.to_addrs), cc: list(r.cc), bcc: list(r.bcc) };
}

/**
 * Records the stored emails of a snapshot import in the usage ledger (the
 * import's rows go in as they are, not through `insertEmail`; the ledger
 * forgot its counts when the tables were emptied). Call inside the import's
 * transaction (the emails module's `imported` hook).
 */
export function recordImportedSends(ctx: Emulator): void {
  const rows = ctx.db.prepare(`SELECT ${emailsTable.columnList(SEND_NAMES)} FROM emails`).all() as Pick<EmailRow, (typeof SEND_NAMES)[number]>[];
  recordSends(ctx, rows.filter((r) => countsTowardQuota(r.source)).map(sendOf));
}

/**
 * The Message-ID the emulator gives an email: `<YYYYMMDDHHMMSS.xxxxxxxx@domain>`
 * (UTC time of `atMs`, the first 8 characters of the email id, the sender's
 * domain; the OA example's shape). Used by sends and the fixture seed.
 */
export function messageId(emailId: string, atMs: number, domain: string): string {
  // The stamp of the last time asked for is kept: a broadcast's batch makes its 100 emails at one emulated time,
  // so the date is formatted once a batch, not once an email (docs/benchmarks.md#figures-behind-the-code).
  if (atMs !== stampAt) {
    stamp = new Date(atMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
    stampAt = atMs;
  }
  return `<${stamp}.${emailId.slice(0, 8)}@${domain}>`;
}
let stampAt = Number.NaN;
let stamp = '';

/** An `email_attachments` row; `content` is base64 text (snapshot-safe), null for `path` attachments. */
export type AttachmentRow = RowOf<typeof emailAttachmentsTable>;

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
  const r = ctx.db.prepare(`SELECT ${HEAD.columns} FROM emails WHERE id = ?`).raw().get(id) as unknown[] | undefined;
  return r ? HEAD.fromArray(r) : undefined;
}

/**
 * What a lifecycle step reads of an email (the steps' plans and
 * `runLifecycle` in lifecycle.ts): its recipients, state and history. `recordStep` reads the rest
 * (`loadEmailHead`) only when a webhook listens to the step's event.
 */
export type EmailStepRow = Pick<EmailHead, (typeof STEP_NAMES)[number]>;

/** The columns of an `EmailStepRow`. */
const STEP_NAMES = ['id', 'team_id', 'to_addrs', 'cc', 'bcc', 'last_event', 'topic_id', 'events'] as const;

/** What `loadEmailSteps` reads: the `STEP_NAMES` columns, read as arrays and shaped once (`Reader`). */
const STEP = emailsTable.reader(STEP_NAMES);

/**
 * The `EmailStepRow`s of many emails by id (any team), read in one
 * statement: the lifecycle steps of a broadcast's batch (`emails.send-many`,
 * `emails.deliver-many`): only the columns the steps read, not a head's 23,
 * most of them webhook data the steps do not need (docs/benchmarks.md#figures-behind-the-code). Unknown ids are absent.
 */
export function loadEmailSteps(ctx: Emulator, ids: readonly string[]): Map<string, EmailStepRow> {
  const rows = ctx.db
    .prepare(`SELECT ${STEP.columns} FROM emails WHERE id IN (SELECT value FROM json_each(?))`)
    .raw()
    .all(JSON.stringify(ids)) as unknown[][];
  const out = new Map<string, EmailStepRow>();
  for (const r of rows) {
    const step = STEP.fromArray(r);
    out.set(step.id, step);
  }
  return out;
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
  return row ? eventsOfRow(row) : [];
}

/** The email's attachments, in the order sent. */
export function attachmentsOf(ctx: Emulator, emailId: string): AttachmentRow[] {
  return ctx.db.prepare('SELECT * FROM email_attachments WHERE email_id = ? ORDER BY seq').all(emailId) as AttachmentRow[];
}

/** The names of `LIST_COLUMNS`, in its order. */
const LIST_NAMES = ['id', 'to_addrs', 'from_addr', 'created_at', 'subject', 'bcc', 'cc', 'reply_to', 'last_event', 'scheduled_at', 'message_id'] as const;

/**
 * The columns `toListItem` reads: lists select only these (not html, text,
 * headers), so a page's cost does not grow with the size of the emails
 * (docs/benchmarks.md#figures-behind-the-code).
 */
export const LIST_COLUMNS = emailsTable.columnList(LIST_NAMES);

/** What `toListItem` reads of an email: the `LIST_COLUMNS` of its row. */
export type EmailListRow = Pick<EmailRow, (typeof LIST_NAMES)[number]>;

/** List item of GET /emails (docs/reference/interface-spec.md#sent-email): unset cc/bcc/reply_to are `null`. Reads only `LIST_COLUMNS`. */
export function toListItem(r: EmailListRow) {
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

/** The names of `LIST_PAGE_COLUMNS`, in its order. */
const LIST_PAGE_NAMES = ['id', 'last_event', 'scheduled_at'] as const;

/** The columns a page of GET /emails reads: the item's changing fields; the rest comes from `listItemsJson`'s cache. */
export const LIST_PAGE_COLUMNS = emailsTable.columnList(LIST_PAGE_NAMES);

/** A page row of GET /emails: the `LIST_PAGE_COLUMNS` of an email's row. */
export type EmailPageRow = Pick<EmailRow, (typeof LIST_PAGE_NAMES)[number]>;

/**
 * How many list items are kept per store (FIFO), about 0.8 KB each: a
 * suite listing the newest emails again and again reads them from here
 * instead of reading, shaping and serializing 11 columns of 100 rows a
 * page, most of a list's time (docs/benchmarks.md#figures-behind-the-code).
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
function listItemOf(ctx: Emulator, r: EmailPageRow): CachedItem {
  const cache = itemCacheOf(ctx);
  let kept = cache.get(r.id);
  if (!kept) {
    const row = ctx.db.prepare(`SELECT ${LIST_COLUMNS} FROM emails WHERE id = ?`).get(r.id) as EmailListRow;
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
export function listItemsJson(ctx: Emulator, rows: readonly EmailPageRow[]): string {
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

/** The columns the metrics group by (`metricEmails`). */
const METRIC_COLUMNS = emailsTable.columnList(['id', 'domain_id', 'broadcast_id', 'from_addr']);

/** The team's emails with the columns the metrics group by. */
export function metricEmails(ctx: Emulator, teamId: string): Pick<EmailRow, 'id' | 'domain_id' | 'broadcast_id' | 'from_addr'>[] {
  return ctx.db.prepare(`SELECT ${METRIC_COLUMNS} FROM emails WHERE team_id = ?`).all(teamId) as Pick<EmailRow, 'id' | 'domain_id' | 'broadcast_id' | 'from_addr'>[];
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

/** The one INSERT of an attachment: every column but `seq`, positional. */
const INSERT_ATTACHMENT = emailAttachmentsTable.insert(emailAttachmentsTable.columnsExcept('seq'));

/**
 * Stores one attachment of a new email (`content` bytes kept as base64;
 * `size` in bytes, 0 for a `path` attachment). Call inside the send's
 * transaction.
 */
export function insertAttachment(
  ctx: Emulator,
  a: { id: string; emailId: string; teamId: string; filename: string | null; content_type: string; content_id: string | null; path: string | null; content?: Buffer | null },
): void {
  const row: Omit<AttachmentRow, 'seq'> = {
    id: a.id,
    email_id: a.emailId,
    team_id: a.teamId,
    filename: a.filename,
    content_type: a.content_type,
    content_id: a.content_id,
    path: a.path,
    content: a.content?.toString('base64') ?? null,
    size: a.content?.length ?? 0,
  };
  ctx.db.prepare(INSERT_ATTACHMENT.sql).run(...INSERT_ATTACHMENT.params(row));
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


/** The ids of a team's sent emails, oldest first. */
export function teamEmailIds(ctx: Emulator, teamId: string): string[] {
  return (ctx.db.prepare('SELECT id FROM emails WHERE team_id = ? ORDER BY seq').all(teamId) as { id: string }[]).map((r) => r.id);
}

/**
 * Deletes sent emails (`ids`; unknown ones are left out) with their
 * attachments (their events are in the row), in two statements whatever
 * their number. The usage ledger keeps their sends: a quota counts what was
 * sent, not what is still stored (docs/admin-api.md#deleting-emails).
 * Returns the ids deleted. Call in the caller's transaction.
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

/** Every column of `emails`, the head's first (what `emailsByIds` reads with the bodies). */
const HEAD_AND_BODIES = emailsTable.columnList([...emailsTable.columnsExcept('html', 'text'), 'html', 'text']);

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
    .prepare(`SELECT ${bodies ? HEAD_AND_BODIES : HEAD.columns} FROM emails WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as EmailWithBodies[];
}

/** Every column of `email_attachments` but `content` (`attachmentMetaOfEmails`). */
const ATTACHMENT_META_COLUMNS = emailAttachmentsTable.columnList(emailAttachmentsTable.columnsExcept('content'));

/** The attachments of these emails without their contents, each email's in the order sent. */
export function attachmentMetaOfEmails(ctx: Emulator, emailIds: readonly string[]): Omit<AttachmentRow, 'content'>[] {
  if (emailIds.length === 0) return [];
  return ctx.db
    .prepare(`SELECT ${ATTACHMENT_META_COLUMNS} FROM email_attachments WHERE email_id IN (SELECT value FROM json_each(?)) ORDER BY seq`)
    .all(JSON.stringify(emailIds)) as Omit<AttachmentRow, 'content'>[];
}
