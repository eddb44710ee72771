/**
 * GET /emails/metrics (reference `emails/metrics`, SDK `emails.metrics`):
 * counts of the team's email events over a date range.
 *
 * - `end_date` defaults to now (a later one is clamped to now); `start_date`
 *   to 6 days before `end_date`; both ISO 8601 dates or date-times; start
 *   after end → 422 `validation_error`.
 * - Counts are of events whose time falls in the range: `sent`,
 *   `delivered`, `bounced` (all `bounced_permanent`: the emulator's bounces
 *   are hard), `complained`, `opened`, `clicked`, `suppressed`, `failed`,
 *   `delivery_delayed`; `unique_opened`/`unique_clicked` count emails.
 *   `received` and `unsubscribed` are 0 (not tracked by this module).
 *   Rates are fractions 0..1 rounded to 4 digits: delivery = delivered/sent,
 *   open = unique_opened/delivered, click = unique_clicked/delivered,
 *   bounce = bounced/sent, complaint = complained/delivered (0 when the
 *   denominator is 0).
 * - `dimensions` (`period`, `domain`, `email`, `broadcast`; `email` not with
 *   `broadcast`) add `data` rows, one per combination that has events
 *   (no zero rows), ordered by period. `period` labels the bucket start in
 *   `timezone` (IANA, default UTC): `YYYY-MM-DDTHH:00` (hourly),
 *   `YYYY-MM-DD` (daily; weekly = the Monday; monthly = the 1st).
 * - `domain_id`, `email_id`, `broadcast_id` (comma-separated UUIDs) filter.
 */
import type { Emulator } from '../../context.js';
import { domainNamesOf } from '../domains/service.js';
import { broadcastNamesOf } from '../broadcasts/service.js';
import { emailMessages } from './messages.js';
import { isoTime } from '../../http/format.js';
import { parseAddress } from './addresses.js';
import type { EmailRow } from './store.js';
import type { Answer, Req, ResponseBody } from '../../http/document-types.js';
import { eventsBetween, metricEmails } from './store.js';

export const METRICS = [
  'received', 'delivered', 'complained', 'suppressed', 'bounced', 'bounced_transient', 'bounced_permanent', 'bounced_undetermined',
  'opened', 'clicked', 'unsubscribed', 'delivery_delayed', 'failed', 'sent', 'unique_opened', 'unique_clicked',
  'delivery_rate', 'open_rate', 'click_rate', 'bounce_rate', 'complaint_rate', 'unsubscribe_rate',
] as const;

const DAY = 86_400_000;

function parseDate(value: string, field: string): number {
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(t)) {
    throw emailMessages.metricsDate(field);
  }
  return t;
}

const csv = (v: string | undefined): string[] => (v ? [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))] : []);

interface Counter {
  counts: Record<string, number>;
  opened: Set<string>;
  clicked: Set<string>;
}

function values(c: Counter, wanted: string[]): Record<string, number> {
  const n = (k: string) => c.counts[k] ?? 0;
  const rate = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);
  const all: Record<string, number> = {
    received: 0,
    delivered: n('delivered'),
    complained: n('complained'),
    suppressed: n('suppressed'),
    bounced: n('bounced'),
    bounced_transient: 0,
    bounced_permanent: n('bounced'),
    bounced_undetermined: 0,
    opened: n('opened'),
    clicked: n('clicked'),
    unsubscribed: 0,
    delivery_delayed: n('delivery_delayed'),
    failed: n('failed'),
    sent: n('sent'),
    unique_opened: c.opened.size,
    unique_clicked: c.clicked.size,
    delivery_rate: rate(n('delivered'), n('sent')),
    open_rate: rate(c.opened.size, n('delivered')),
    click_rate: rate(c.clicked.size, n('delivered')),
    bounce_rate: rate(n('bounced'), n('sent')),
    complaint_rate: rate(n('complained'), n('delivered')),
    unsubscribe_rate: 0,
  };
  return Object.fromEntries(wanted.map((k) => [k, all[k]]));
}

/** The bucket label of `ms` in `timeZone` (see the header). */
function periodOf(ms: number, timeZone: string, granularity: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  if (granularity === 'hourly') return `${date}T${parts.hour}:00`;
  if (granularity === 'monthly') return `${parts.year}-${parts.month}-01`;
  if (granularity === 'weekly') {
    const d = new Date(`${date}T00:00:00Z`);
    const monday = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY);
    return monday.toISOString().slice(0, 10);
  }
  return date;
}

/** The JSON body of GET /emails/metrics (the document's response). */
type Metrics = ResponseBody<'emails/metrics'>;
/** One group of `data`: its dimension values, then its metric values. */
type MetricsGroup = NonNullable<Metrics['data']>[number];

/** GET /emails/metrics; see the header. Throws 422 `validation_error` for the rules above. */
export function metrics(ctx: Emulator, req: Req<'emails/metrics'>): Answer<'emails/metrics'> {
  const q = req.query;
  const teamId = req.auth.teamId;
  const now = ctx.clock.nowMs();
  const end = Math.min(q.end_date ? parseDate(q.end_date, 'end_date') : now, now);
  const start = q.start_date ? parseDate(q.start_date, 'start_date') : end - 6 * DAY;
  if (start > end) throw emailMessages.metricsDateOrder();
  const timeZone = q.timezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw emailMessages.metricsTimeZone(timeZone);
  }
  const granularity = q.granularity ?? 'daily';
  const wanted = q.metrics ? csv(q.metrics) : [...METRICS];
  // The document's pattern lets only these four names through validation.
  const dims = csv(q.dimensions) as Metrics['dimensions'];
  const domainIds = csv(q.domain_id);
  const emailIds = csv(q.email_id);
  const broadcastIds = csv(q.broadcast_id);
  if ((dims.includes('email') || emailIds.length) && (dims.includes('broadcast') || broadcastIds.length)) {
    throw emailMessages.metricsEmailAndBroadcast();
  }

  const emails = new Map<string, Pick<EmailRow, 'id' | 'domain_id' | 'broadcast_id' | 'from_addr'>>();
  for (const e of metricEmails(ctx, teamId)) {
    if (domainIds.length && !domainIds.includes(e.domain_id ?? '')) continue;
    if (emailIds.length && !emailIds.includes(e.id)) continue;
    if (broadcastIds.length && !broadcastIds.includes(e.broadcast_id ?? '')) continue;
    emails.set(e.id, e);
  }
  const domainNames = domainNamesOf(ctx, teamId);
  const broadcastNames = broadcastNamesOf(ctx, teamId);

  const newCounter = (): Counter => ({ counts: {}, opened: new Set(), clicked: new Set() });
  const totals = newCounter();
  const groups = new Map<string, { key: Record<string, unknown>; c: Counter }>();
  const events = eventsBetween(ctx, teamId, start, end);
  for (const ev of events) {
    const e = emails.get(ev.email_id);
    if (!e) continue;
    const counters = [totals];
    if (dims.length) {
      const key: Record<string, unknown> = {};
      for (const d of dims) {
        if (d === 'period') key.period = periodOf(ev.at, timeZone, granularity);
        if (d === 'domain') {
          key.domain_id = e.domain_id;
          key.domain_name = (e.domain_id && domainNames.get(e.domain_id)) || parseAddress(e.from_addr)?.domain || '';
        }
        if (d === 'email') key.email_id = e.id;
        if (d === 'broadcast') {
          key.broadcast_id = e.broadcast_id;
          key.broadcast_name = e.broadcast_id ? broadcastNames.get(e.broadcast_id) ?? null : null;
        }
      }
      const k = JSON.stringify(key);
      if (!groups.has(k)) groups.set(k, { key, c: newCounter() });
      counters.push(groups.get(k)!.c);
    }
    for (const c of counters) {
      c.counts[ev.type] = (c.counts[ev.type] ?? 0) + 1;
      if (ev.type === 'opened') c.opened.add(e.id);
      if (ev.type === 'clicked') c.clicked.add(e.id);
    }
  }
  const out: Metrics = {
    object: 'metrics',
    start_date: isoTime(start),
    end_date: isoTime(end),
    metrics: wanted,
    dimensions: dims,
    granularity,
    totals: values(totals, wanted),
  };
  if (dims.length) {
    out.data = [...groups.values()]
      .sort((a, b) => String(a.key.period ?? '').localeCompare(String(b.key.period ?? '')))
      // A group's dimension values (strings, null) and metric values (numbers): the document's item, whose generated type cannot say "named members of their own type, the rest numbers".
      .map((g) => ({ ...g.key, ...values(g.c, wanted) }) as MetricsGroup);
  }
  return out;
}
