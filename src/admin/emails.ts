/**
 * Admin API for sent emails (docs/reference/design.md#admin-api; no auth; spec
 * `spec/paths/admin-emails.yaml`):
 * | operationId | does |
 * |---|---|
 * | admin/list-emails | `GET /_emulator/emails`: every team's sent emails, newest first, full content (`AdminEmail`); filters `to` (any of to/cc/bcc), `from`, `subject` (substrings, case-insensitive), `tag` (`name` or `name:value`), `team_id`, `last_event`, `q` (search language, src/admin/search.ts; a bad one → 422); `wait=MS` long-polls until one matches, answering an empty list on timeout |
 * | admin/get-email | `GET /_emulator/emails/{id}`: one of them; unknown → 404 `Email not found`; the id `latest` is the newest match of the list's filters (and `wait`) |
 * | admin/get-email-raw | `GET /_emulator/emails/{id}/raw`: the message as `message/rfc822` (src/admin/raw.ts); `latest` works here too |
 * | admin/download-email-attachment | `GET /_emulator/emails/{id}/attachments/{attachment_id}`: the raw bytes with their content type (`path` attachments have none: 404) |
 * | admin/delete-email | `DELETE /_emulator/emails/{id}`: deletes one sent email with its attachments, pending jobs and the webhook deliveries of its events, in one transaction (`deleteEmails` of the emails room) → `{object: "email", id, deleted: true}`; unknown → 404 `Email not found` |
 * | admin/clear-emails | `DELETE /_emulator/emails?team_id=…`: the same for every sent email of the team (of every team without `team_id`), one transaction → `{object: "email_deletion", deleted}`; unknown team → 404 `Team not found` |
 * | admin/release-email | `POST /_emulator/emails/{id}/release` `{to}`: sends the email's raw message to `to` through the real SMTP server of `--relay` (src/admin/release.ts) → `{object: "email_release", id, to, relay, response}`; errors there |
 * | admin/create-email-event | `POST /_emulator/emails/{id}/events` `{type: opened\|clicked\|delivery_delayed\|failed, link?, reason?}`: simulates an open or a click of a delivered email (`email.opened` / `email.clicked`; a click without `link` uses the email's first link), a delay of a sent one (`email.delivery_delayed`) or a failure of one not yet delivered (`email.failed`, `failed.reason` default `reached_daily_quota`) |
 * `listEmails` and `waitForEmail` are also what `startServer()` exposes as
 * `emu.emails()` / `emu.waitForEmail()`. Called from code, they reject a
 * filter key they do not know (a typo such as `subjct` would otherwise match
 * every email) with a TypeError naming it and the allowed keys; over HTTP,
 * unknown query parameters are ignored, as the real API does.
 */
import type { Emulator } from '../context.js';
import { errors } from '../http/errors.js';
import { isoTime } from '../http/format.js';
import { dispositionHeader } from './inbound.js';
import { Reply, type ResourceModule } from '../module.js';
import { FAILABLE, clearTeamEmails, deleteEmails, emailRows, findEmailAttachment, simulateDeliveryProblem, simulateEngagement } from '../resources/emails/service.js';
import { DEFAULT_FAILED_REASON } from '../faults/rules.js';
import { rawMessage } from './raw.js';
import { releaseEmail } from './release.js';
import { listTeams, teamExists } from '../state/teams.js';
import { extractCodes } from './codes.js';
import { matchesSearch, parseSearch } from './search.js';
import { attachmentsOf, eventsOf, headersOf, list, loadEmail, tagsOf, type EmailRow } from '../resources/emails/service.js';
import type { Answer, Req, OperationHandlers } from '../http/document-types.js';
import type { AdminEmail, EmailFilter } from '../public-types.js';

// The shapes are public (`emu.emails()`, `SentEmail`): declared in src/public-types.ts.
export type { AdminEmail, EmailFilter };

/** The keys of `EmailFilter`, in the order error messages list them. */
export const EMAIL_FILTER_KEYS = ['to', 'from', 'subject', 'tag', 'team_id', 'last_event', 'q'] as const;

/** Edit distance (for "did you mean"), small strings only. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/**
 * Checks a filter given from code (`emu.emails()`, `emu.waitForEmail()`):
 * throws a TypeError if it is not a plain object, has a key outside
 * `EMAIL_FILTER_KEYS` (message names the key, a near match and the allowed
 * keys), or a value that is neither a string nor undefined.
 */
export function assertEmailFilter(filter: unknown): asserts filter is EmailFilter {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    throw new TypeError(`email filter must be an object with keys ${EMAIL_FILTER_KEYS.join(', ')}`);
  }
  const allowed: readonly string[] = EMAIL_FILTER_KEYS;
  for (const [key, value] of Object.entries(filter)) {
    if (!allowed.includes(key)) {
      const near = allowed.find((k) => distance(k, key.toLowerCase()) <= 2);
      throw new TypeError(`unknown email filter key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; allowed: ${EMAIL_FILTER_KEYS.join(', ')}`);
    }
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`email filter "${key}" must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
    }
  }
}

/** http(s) URLs in html and text, in order of appearance, without repeats. */
export function extractLinks(html: string | null, text: string | null): string[] {
  const out: string[] = [];
  const add = (u: string) => {
    const clean = u.replace(/&amp;/g, '&').replace(/[.,;:!?]+$/, '');
    if (/^https?:\/\//i.test(clean) && !out.includes(clean)) out.push(clean);
  };
  if (html) {
    for (const m of html.matchAll(/href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) add((m[1] ?? m[2]).trim());
    for (const m of html.replace(/<[^>]*>/g, ' ').matchAll(/https?:\/\/[^\s<>"')\]]+/gi)) add(m[0]);
  }
  if (text) for (const m of text.matchAll(/https?:\/\/[^\s<>"')\]]+/gi)) add(m[0]);
  return out;
}

/** The admin shape of an email row. */
export function toAdminEmail(ctx: Emulator, r: EmailRow): AdminEmail {
  return {
    id: r.id,
    team_id: r.team_id,
    message_id: r.message_id,
    from: r.from_addr,
    to: list(r.to_addrs),
    cc: list(r.cc),
    bcc: list(r.bcc),
    reply_to: list(r.reply_to),
    subject: r.subject,
    html: r.html,
    text: r.text,
    headers: headersOf(r),
    attachments: attachmentsOf(ctx, r.id).map((a) => ({ id: a.id, filename: a.filename, content_type: a.content_type, content_id: a.content_id, size: a.size })),
    tags: tagsOf(r),
    last_event: r.last_event,
    created_at: isoTime(r.created_at)!,
    scheduled_at: isoTime(r.scheduled_at),
    events: eventsOf(ctx, r.id).map((e) => ({ type: e.type, at: isoTime(e.at)! })),
    links: extractLinks(r.html, r.text),
    codes: extractCodes(r.subject, r.text, r.html),
    broadcast_id: r.broadcast_id,
    template_id: r.template_id,
  };
}

/**
 * A filter compiled to a row test (see `EmailFilter`). Throws ApiError 422
 * for a bad `q` (`parseSearch`).
 */
function compile(ctx: Emulator, f: EmailFilter): (r: EmailRow) => boolean {
  const terms = f.q !== undefined ? parseSearch(f.q) : [];
  return (r) => {
    const has = (hay: string, needle: string | undefined) => needle === undefined || hay.toLowerCase().includes(needle.toLowerCase());
    if (f.team_id !== undefined && r.team_id !== f.team_id) return false;
    if (f.last_event !== undefined && r.last_event !== f.last_event) return false;
    if (!has(r.from_addr, f.from) || !has(r.subject, f.subject)) return false;
    const recipients = [...list(r.to_addrs), ...list(r.cc), ...list(r.bcc)];
    if (f.to !== undefined && !recipients.some((a) => has(a, f.to))) return false;
    if (f.tag !== undefined) {
      const i = f.tag.indexOf(':');
      const name = i < 0 ? f.tag : f.tag.slice(0, i);
      const value = i < 0 ? undefined : f.tag.slice(i + 1);
      if (!tagsOf(r).some((t) => t.name === name && (value === undefined || t.value === value))) return false;
    }
    return terms.length === 0 || matchesSearch(terms, {
      from: r.from_addr,
      to: recipients,
      subject: r.subject,
      text: r.text ?? '',
      tags: tagsOf(r),
      attachments: () => attachmentsOf(ctx, r.id).length,
      last_event: r.last_event,
      created_at: r.created_at,
    });
  };
}

/** Stored rows matching `filter`, newest first (no content assembled yet). */
function matchingRows(ctx: Emulator, filter: EmailFilter): EmailRow[] {
  const test = compile(ctx, filter);
  const rows = emailRows(ctx, filter.team_id);
  return rows.filter(test);
}

/** The newest email matching `filter`, assembled, or null (only that one is assembled). */
function newestMatch(ctx: Emulator, filter: EmailFilter): AdminEmail | null {
  const row = matchingRows(ctx, filter)[0];
  return row ? toAdminEmail(ctx, row) : null;
}

/** Sent emails of every team matching `filter`, newest first. Throws TypeError for a bad filter (`assertEmailFilter`). */
export function listEmails(ctx: Emulator, filter: EmailFilter = {}): AdminEmail[] {
  assertEmailFilter(filter);
  return matchingRows(ctx, filter).map((r) => toAdminEmail(ctx, r));
}

/**
 * Resolves with the newest email matching `filter` as soon as there is one
 * (at once if one exists), or with null after `timeoutMs` of wall-clock
 * time or when the emulator closes. Listens to `ctx.bus` `'email'` events.
 * Rejects with a TypeError for a bad filter (`assertEmailFilter`).
 */
export function waitForMatch(ctx: Emulator, filter: EmailFilter, timeoutMs: number): Promise<AdminEmail | null> {
  let test: (r: EmailRow) => boolean;
  try {
    assertEmailFilter(filter);
    test = compile(ctx, filter);
  } catch (err) {
    return Promise.reject(err);
  }
  const now = newestMatch(ctx, filter);
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (value: AdminEmail | null) => {
      clearTimeout(timer);
      ctx.bus.off('email', onEmail);
      ctx.bus.off('reset', onReset);
      ctx.bus.off('close', onClose);
      resolve(value);
    };
    const onEmail = (id: string) => {
      const row = loadEmail(ctx, id);
      if (row && test(row)) done(toAdminEmail(ctx, row));
    };
    const onReset = () => {
      const found = newestMatch(ctx, filter);
      if (found) done(found);
    };
    const onClose = () => done(null);
    const timer = setTimeout(() => done(null), Math.max(0, timeoutMs));
    ctx.bus.on('email', onEmail);
    ctx.bus.on('reset', onReset);
    ctx.bus.on('close', onClose);
  });
}

function filterOf(q: Record<string, any>): EmailFilter {
  const f: EmailFilter = {};
  for (const k of EMAIL_FILTER_KEYS) if (q[k] !== undefined) f[k] = String(q[k]);
  return f;
}

async function listOp(ctx: Emulator, req: Req<'admin/list-emails'>): Promise<Answer<'admin/list-emails'>> {
  const filter = filterOf(req.query);
  if (req.query.wait !== undefined && req.query.wait > 0) {
    const found = await waitForMatch(ctx, filter, req.query.wait);
    return { object: 'list', data: found ? listEmails(ctx, filter) : [] };
  }
  return { object: 'list', data: listEmails(ctx, filter) };
}

function getOr404(ctx: Emulator, id: string): EmailRow {
  const row = loadEmail(ctx, id);
  if (!row) throw errors.notFound('Email');
  return row;
}

/**
 * The row of `{email_id}`; the id `latest` is the newest email matching the
 * query's filters (`to`, `from`, `subject`, `tag`, `team_id`, `last_event`,
 * `q`), waiting up to `wait` ms for one. 404 `Email not found` when none.
 */
async function resolveEmail(ctx: Emulator, req: Req<'admin/get-email'> | Req<'admin/get-email-raw'>): Promise<EmailRow> {
  if (req.params.email_id !== 'latest') return getOr404(ctx, req.params.email_id);
  const filter = filterOf(req.query);
  const wait = req.query.wait ?? 0;
  const found = wait > 0 ? await waitForMatch(ctx, filter, wait) : newestMatch(ctx, filter);
  if (!found) throw errors.notFound('Email');
  return loadEmail(ctx, found.id)!;
}

async function getOp(ctx: Emulator, req: Req<'admin/get-email'>): Promise<Answer<'admin/get-email'>> {
  return toAdminEmail(ctx, await resolveEmail(ctx, req));
}

function download(ctx: Emulator, req: Req<'admin/download-email-attachment'>): Answer<'admin/download-email-attachment'> {
  const row = getOr404(ctx, req.params.email_id);
  const a = findEmailAttachment(ctx, row.id, req.params.attachment_id);
  if (!a) throw errors.notFound('Attachment');
  if (a.content === null) throw errors.notFound('Attachment content (it was sent by `path`, which the emulator does not fetch)');
  return new Reply(200, Buffer.from(a.content, 'base64'), { 'content-disposition': dispositionHeader('attachment', a.filename ?? a.id) }, a.content_type);
}

/** `GET /_emulator/emails/{id}/raw`: the message as `message/rfc822` (src/admin/raw.ts), offered as `{id}.eml`. */
async function rawOp(ctx: Emulator, req: Req<'admin/get-email-raw'>): Promise<Answer<'admin/get-email-raw'>> {
  const row = await resolveEmail(ctx, req);
  return new Reply(200, await rawMessage(ctx, row), { 'content-disposition': `attachment; filename="${row.id}.eml"` }, 'message/rfc822');
}

/**
 * `POST /_emulator/emails/{id}/events`: `opened` / `clicked` on a delivered
 * email (`simulateEngagement`); `delivery_delayed` on a sent email not yet
 * delivered or bounced; `failed` (`reason`, default `reached_daily_quota`)
 * on an email not yet delivered (`last_event` queued, scheduled, sent or
 * delivery_delayed) (`simulateDeliveryProblem`). Otherwise 422
 * `validation_error` saying why; `reason` with another type, or `link`
 * with `delivery_delayed` / `failed`, is 422 too.
 */
function createEvent(ctx: Emulator, req: Req<'admin/create-email-event'>): Answer<'admin/create-email-event'> {
  const row = getOr404(ctx, req.params.email_id);
  const { type } = req.body;
  if (req.body.reason !== undefined && type !== 'failed') throw errors.validation('The `reason` field applies to `type: "failed"` only.', 422);
  if (req.body.link !== undefined && (type === 'delivery_delayed' || type === 'failed')) throw errors.validation('The `link` field applies to `type: "clicked"` only.', 422);
  if (type === 'delivery_delayed' || type === 'failed') {
    const events = eventsOf(ctx, row.id).map((e) => e.type);
    if (type === 'delivery_delayed' && (!events.includes('sent') || !FAILABLE.includes(row.last_event))) {
      throw errors.validation(
        `Email \`${row.id}\` cannot be delayed (last event \`${row.last_event}\`): only a sent email not yet delivered or bounced can (it is sent 1 s after it is queued and delivered 2 s later on the clock).`,
        422,
      );
    }
    if (type === 'failed' && !FAILABLE.includes(row.last_event)) {
      throw errors.validation(`Email \`${row.id}\` cannot fail (last event \`${row.last_event}\`): only an email not yet delivered can (last event ${FAILABLE.map((e) => `\`${e}\``).join(', ')}).`, 422);
    }
    simulateDeliveryProblem(ctx, row, type, type === 'failed' ? (req.body.reason ?? DEFAULT_FAILED_REASON) : null);
    return toAdminEmail(ctx, loadEmail(ctx, row.id)!);
  }
  if (!eventsOf(ctx, row.id).some((e) => e.type === 'delivered')) {
    throw errors.validation(`Email \`${row.id}\` has not been delivered (last event \`${row.last_event}\`); only delivered emails can be opened or clicked.`, 422);
  }
  let link: string | null = null;
  if (req.body.type === 'clicked') {
    link = req.body.link ?? extractLinks(row.html, row.text)[0] ?? null;
    if (!link) throw errors.validation('The email has no link to click; give `link`.', 422);
  }
  simulateEngagement(ctx, row, type, link);
  return toAdminEmail(ctx, loadEmail(ctx, row.id)!);
}

/** `DELETE /_emulator/emails/{id}`: one sent email and what is only about it (`deleteEmails`). */
function deleteOp(ctx: Emulator, req: Req<'admin/delete-email'>): Answer<'admin/delete-email'> {
  const row = getOr404(ctx, req.params.email_id);
  deleteEmails(ctx, [row.id]);
  return { object: 'email', id: row.id, deleted: true };
}

/** `DELETE /_emulator/emails?team_id=…`: every sent email of the team, or of every team, in one transaction. */
function clearOp(ctx: Emulator, req: Req<'admin/clear-emails'>): Answer<'admin/clear-emails'> {
  const teamId = req.query.team_id;
  if (teamId !== undefined && !teamExists(ctx, teamId)) throw errors.notFound('Team');
  const teams = teamId !== undefined ? [teamId] : listTeams(ctx.db).map((t) => t.id);
  const deleted = ctx.db.transaction(() => teams.reduce((n, id) => n + clearTeamEmails(ctx, id), 0))();
  return { object: 'email_deletion', deleted };
}

/** `POST /_emulator/emails/{id}/release`: the stored message to a real inbox, through `--relay` (`releaseEmail`). */
async function releaseOp(ctx: Emulator, req: Req<'admin/release-email'>): Promise<Answer<'admin/release-email'>> {
  const row = getOr404(ctx, req.params.email_id);
  const to = typeof req.body.to === 'string' ? [req.body.to] : req.body.to;
  const r = await releaseEmail(ctx, row, to);
  return { object: 'email_release', id: row.id, to: r.to, relay: r.relay, response: r.response };
}

export const adminEmailsModule: ResourceModule = {
  name: 'admin-emails',
  operations: {
    'admin/list-emails': listOp,
    'admin/get-email': getOp,
    'admin/download-email-attachment': download,
    'admin/create-email-event': createEvent,
    'admin/get-email-raw': rawOp,
    'admin/delete-email': deleteOp,
    'admin/clear-emails': clearOp,
    'admin/release-email': releaseOp,
  } satisfies OperationHandlers,
};
