/**
 * GET /broadcasts/{id}/recipients and /clicked-links (reference operations
 * `broadcasts/recipients`, `broadcasts/list-clicked-links`), computed from the
 * emails the broadcast produced (`emailsOfBroadcast`: each email with the
 * contact it went to).
 * Row `id`s are opaque cursors, base64 of `offset:N` as the reference shows
 * (`b2Zmc2V0OjA`); `after`/`before` take them.
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import type { PageQuery, ListEnvelope } from '../../http/pagination.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { emailsOfBroadcast } from '../emails/service.js';
import { unsubscribedNow } from '../contacts/service.js';
import type { BroadcastRow } from './store.js';
import { broadcastMessages } from './messages.js';

/** The recipient event types of the reference. */
export type RecipientType = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'unsubscribed' | 'suppressed';

/** Which emails (by `last_event`) count for each type. `clicked` also counts any email with clicks. */
const EVENTS: Record<Exclude<RecipientType, 'unsubscribed'>, Set<string>> = {
  sent: new Set(['sent', 'delivered', 'delivery_delayed', 'opened', 'clicked', 'bounced', 'complained']),
  delivered: new Set(['delivered', 'opened', 'clicked', 'complained']),
  opened: new Set(['opened', 'clicked']),
  clicked: new Set(['clicked']),
  bounced: new Set(['bounced']),
  complained: new Set(['complained']),
  suppressed: new Set(['suppressed']),
};
/** `unsubscribed` counts contacts that were sent to and are unsubscribed now. */
const REACHED = EVENTS.sent;

function cursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64').replace(/=+$/, '');
}

function offsetOf(id: string, length: number, which: 'after' | 'before'): number {
  const m = /^offset:(\d+)$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  const n = m ? Number(m[1]) : NaN;
  if (!Number.isInteger(n) || n >= length) {
    throw errors.unknownCursor(which, id);
  }
  return n;
}

/**
 * One page of an in-memory list, the rules of `paginate()` (docs/reference/interface-spec.md#pagination): `after` → items after that cursor, `before` → items before
 * it, both → 422; all items when `limit` is omitted. Each item gets its
 * cursor as `id`.
 */
function pageOf<T extends object>(items: T[], query: PageQuery): ListEnvelope<{ id: string } & T> {
  if (query.after !== undefined && query.before !== undefined) {
    throw errors.bothCursors();
  }
  const withIds = items.map((it, i) => ({ id: cursor(i), ...it }));
  const limit = query.limit ?? null;
  let from = 0;
  let to = withIds.length;
  if (query.after !== undefined) from = offsetOf(query.after, withIds.length, 'after') + 1;
  if (query.before !== undefined) to = offsetOf(query.before, withIds.length, 'before');
  let page: typeof withIds;
  let hasMore: boolean;
  if (limit === null) {
    page = withIds.slice(from, to);
    hasMore = false;
  } else if (query.before !== undefined) {
    page = withIds.slice(Math.max(from, to - limit), to);
    hasMore = to - from > limit;
  } else {
    page = withIds.slice(from, Math.min(to, from + limit));
    hasMore = to - from > limit;
  }
  return { object: 'list', has_more: hasMore, data: page };
}

/**
 * The broadcast's emails with their state, newest first: `email` the
 * address it went to, `contact_id` the contact, `unsubscribed` the contact's
 * flag now (1 or 0; null when the contact is gone or not the team's).
 */
function sentEmails(ctx: Emulator, row: BroadcastRow) {
  const emails = emailsOfBroadcast(ctx, row.id).reverse();
  if (emails.length === 0) return [];
  const flags = unsubscribedNow(ctx, row.team_id, [...new Set(emails.flatMap((e) => (e.contact_id === null ? [] : [e.contact_id])))]);
  return emails.map((e) => ({
    email_id: e.id,
    contact_id: e.contact_id,
    email: e.to[0] ?? '',
    unsubscribed: e.contact_id === null ? null : flags.get(e.contact_id) ?? null,
    last_event: e.last_event,
    clicks: e.clicks,
  }));
}

/**
 * Recipient rows for one event type, filtered by `email` (case-insensitive)
 * and `bounce_type`. `count` for opened/clicked (opens are not counted
 * separately: an opened email counts 1), `bounce_type` for bounced (the
 * emulator's bounces are permanent, docs/reference/test-addresses.md), `clicked_links` for clicked.
 * Throws 422 `validation_error` for `bounce_type` with another type.
 */
/** A recipient as listed, before its page gives it an `id`. */
type Recipient = Omit<ListItem<'broadcasts/recipients'>, 'id'>;

export function recipients(ctx: Emulator, row: BroadcastRow, q: PageQuery & { type: RecipientType; email?: string; bounce_type?: string }): ResponseBody<'broadcasts/recipients'> {
  if (q.bounce_type !== undefined && q.type !== 'bounced') {
    throw broadcastMessages.bounceTypeWithoutBounced();
  }
  const wanted = q.email?.toLowerCase();
  const rows: Recipient[] = [];
  for (const e of sentEmails(ctx, row)) {
    if (wanted !== undefined && e.email.toLowerCase() !== wanted) continue;
    if (q.type === 'unsubscribed') {
      if (!REACHED.has(e.last_event) || e.contact_id === null) continue;
      if (e.unsubscribed !== 1) continue;
      rows.push({ contact_id: e.contact_id, email: e.email });
      continue;
    }
    const hit = EVENTS[q.type].has(e.last_event) || (q.type === 'clicked' && e.clicks.length > 0) || (q.type === 'opened' && e.clicks.length > 0);
    if (!hit) continue;
    const item: Recipient = { contact_id: e.contact_id, email: e.email };
    if (q.type === 'opened') item.count = 1;
    if (q.type === 'clicked') {
      const byUrl = new Map<string, number>();
      for (const c of e.clicks) byUrl.set(c.link, (byUrl.get(c.link) ?? 0) + 1);
      item.count = Math.max(1, e.clicks.length);
      item.clicked_links = [...byUrl].map(([url, clicks]) => ({ url, clicks }));
    }
    if (q.type === 'bounced') {
      if (q.bounce_type !== undefined && q.bounce_type !== 'permanent') continue;
      item.bounce_type = 'permanent';
    }
    rows.push(item);
  }
  return pageOf(rows, q);
}

/** Clicked links of the broadcast's emails: `clicks` (all), `unique_clicks` (distinct recipients); most clicked first. */
export function clickedLinks(ctx: Emulator, row: BroadcastRow, q: PageQuery) {
  const links = new Map<string, { clicks: number; who: Set<string> }>();
  for (const e of sentEmails(ctx, row)) {
    for (const c of e.clicks) {
      const l = links.get(c.link) ?? { clicks: 0, who: new Set<string>() };
      l.clicks += 1;
      l.who.add(e.email.toLowerCase());
      links.set(c.link, l);
    }
  }
  const items = [...links]
    .map(([url, l]) => ({ url, clicks: l.clicks, unique_clicks: l.who.size }))
    .sort((a, b) => b.clicks - a.clicks || a.url.localeCompare(b.url));
  return pageOf(items, q);
}

/**
 * Counts of a broadcast's recipients (for the admin dashboard): `recipients`
 * emails produced, and how many were `sent`, `delivered`, `opened`,
 * `clicked`, `bounced`, `complained` (the rules of `recipients()`).
 */
export function broadcastSummary(ctx: Emulator, row: BroadcastRow) {
  const out = { recipients: 0, sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 };
  for (const e of sentEmails(ctx, row)) {
    out.recipients += 1;
    if (EVENTS.sent.has(e.last_event)) out.sent += 1;
    if (EVENTS.delivered.has(e.last_event)) out.delivered += 1;
    if (EVENTS.opened.has(e.last_event) || e.clicks.length > 0) out.opened += 1;
    if (EVENTS.clicked.has(e.last_event) || e.clicks.length > 0) out.clicked += 1;
    if (EVENTS.bounced.has(e.last_event)) out.bounced += 1;
    if (EVENTS.complained.has(e.last_event)) out.complained += 1;
  }
  return out;
}
