/**
 * Thread search (docs/reference/inboxes.md#thread-endpoints; docs/reference/inboxes.md#search): the filters of a thread list,
 * plus `query` (every word and `"phrase"` must appear, `-word` /
 * `-"phrase"` must not), `from`/`to`/`cc`/`bcc` (any of, substring,
 * case-insensitive), `has_attachment` and `start_date`/`end_date`; every
 * condition must hold for one email of the thread. Reads at most
 * `SEARCH_CAP` threads; `matched_email_id` is the newest matching email.
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import type { Req } from '../../http/document-types.js';
import type { ListEnvelope } from '../../http/pagination.js';
import { checkThreadCursor, threadFilter } from './threads.js';
import { threadEmails, type ThreadEmail } from './thread-emails.js';
import { pageThreads, threadMessages, threadsMatching, type InboxRow, type ThreadRow } from './store.js';

/** A `query`: words and `"phrases"` that must all appear, `-word` / `-"phrase"` that must not (lower-cased). */
export function parseQuery(q: string): { must: string[]; not: string[] } {
  const must: string[] = [];
  const not: string[] = [];
  for (const m of q.matchAll(/(-?)(?:"([^"]*)"|(\S+))/g)) {
    const term = (m[2] ?? m[3] ?? '').toLowerCase().trim();
    if (!term) continue;
    (m[1] ? not : must).push(term);
  }
  return { must, not };
}

/** A `start_date` / `end_date`: a date covers its whole day (UTC); a timestamp is taken as given. Returns ms or throws 422. */
export function dateBound(field: 'start_date' | 'end_date', v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const t = Date.parse(dateOnly ? `${v}T00:00:00.000Z` : v);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(v)) throw inboxMessages.invalidDate(field);
  return dateOnly && field === 'end_date' ? t + 86_400_000 - 1 : t;
}

/**
 * One page of the inbox's threads matching a search, each mapped with the
 * id of its newest matching email. Throws 422 for a bad cursor, filter,
 * `query` (over 256 characters or 32 words), address list (over 20
 * values) or date range (`start_date` after `end_date`), 404 for an unknown
 * label. Every matching thread (up to `SEARCH_CAP`) is read to find the
 * matches; the page itself pages as the thread list does.
 */
export function searchThreads<Item>(
  ctx: Emulator,
  inbox: InboxRow,
  q: Req<'inboxes/threads/search'>['query'],
  map: (t: ThreadRow, matchedEmailId: string | null) => Item,
): ListEnvelope<Item> {
  checkThreadCursor(ctx, inbox, q);
  const filter = threadFilter(ctx, inbox, q);
  if (q.query !== undefined && q.query.length > 256) throw inboxMessages.queryTooLong(q.query.length);
  for (const field of ['from', 'to', 'cc', 'bcc'] as const) {
    const n = q[field]?.split(',').length ?? 0;
    if (n > 20) throw inboxMessages.tooManyValues(field, n);
  }
  const query = parseQuery(q.query ?? '');
  if (query.must.length + query.not.length > 32) {
    throw inboxMessages.tooManyWords(query.must.length + query.not.length);
  }
  const start = dateBound('start_date', q.start_date);
  const end = dateBound('end_date', q.end_date);
  if (start !== undefined && end !== undefined && start > end) throw inboxMessages.datesReversed();
  const csv = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : undefined);
  const addr = { from: csv(q.from), to: csv(q.to), cc: csv(q.cc), bcc: csv(q.bcc) };
  const hasAttachment = q.has_attachment === undefined ? undefined : q.has_attachment === 'true';
  const anyOf = (values: string[] | undefined, list: string[]) => !values || values.some((v) => list.some((a) => a.toLowerCase().includes(v)));
  const matches = (m: ThreadEmail): boolean => {
    const atts = m.attachments;
    if (!anyOf(addr.from, [m.from]) || !anyOf(addr.to, m.to) || !anyOf(addr.cc, m.cc) || !anyOf(addr.bcc, m.bcc)) return false;
    if (hasAttachment !== undefined && hasAttachment !== atts.length > 0) return false;
    if (start !== undefined && m.received_at < start) return false;
    if (end !== undefined && m.received_at > end) return false;
    const hay = [m.subject ?? '', m.text ?? '', m.html ?? '', m.from, ...m.to, ...m.cc, ...m.bcc, ...atts.map((a) => a.filename ?? '')].join('\n').toLowerCase();
    return query.must.every((w) => hay.includes(w)) && !query.not.some((w) => hay.includes(w));
  };
  const matched = new Map<string, string>();
  for (const t of threadsMatching(ctx, inbox.id, filter)) {
    const hit = threadEmails(ctx, threadMessages(ctx, t.id), true).filter(matches).pop();
    if (hit) matched.set(t.id, hit.id);
  }
  return pageThreads(ctx.db, inbox.id, { ...filter, ids: [...matched.keys()] }, q, (t) => map(t, matched.get(t.id) ?? null));
}
