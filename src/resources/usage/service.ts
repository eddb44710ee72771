/**
 * The usage ledger and the quotas (docs/reference/inboxes.md#usage;
 * docs/reference/errors.md#error-names-and-statuses quota rows and "Quota
 * headers"; the plans in src/state/plans.ts): what other rooms call.
 *
 * The ledger owns the email counts the quotas of `--plan` and GET /usage
 * read, per team and UTC day, in its own table `emulator_usage` (store.ts); the rooms
 * that send and receive tell it, in the transaction that stores the email:
 * | call | who | counts |
 * |---|---|---|
 * | `recordSend` | emails' `insertEmail` (API, batch, SMTP and inbox sends, the fixture seed) | To + CC + BCC recipients (`recipientCount`) of a send whose source counts (`countsTowardQuota`) |
 * | `recordReceive` | receiving, when it stores a received email | one |
 * | `recordSends`, `recordReceives` | emails' and receiving's `imported` hooks (a snapshot's rows) | as the two above for each, one write per team and day |
 * | `forget` | reset and a snapshot import (the `cleared` hook), which empty every table | everything, before the rooms record again what they hold (emails' and receiving's `imported` hooks) |
 * No trigger keeps a count and no other room names the table: the ledger
 * reads no other room, so every room may call it. Like the saved clock it is
 * the emulator's bookkeeping (`emulator_`): not exported in snapshots.
 *
 * The daily quota resets at 00:00 UTC (docs/reference/README.md: "free
 * daily quota resets 00:00 UTC"), the monthly one on the 1st at 00:00 UTC
 * (the Go mock's `resets_at`). The email quotas are checked where sending
 * lives (emails' `sendEmail`, `EmailQuota`) on `emailUsage`; broadcasts
 * call `checkContactsQuota`. GET /usage is `usageOf` (report.ts).
 */
import type { Emulator } from '../../context.js';
import { usageMessages } from './messages.js';
import { isoTime } from '../../http/format.js';
import { planLimits } from '../../state/plans.js';
import { countContacts } from '../contacts/service.js';
import { addUsage, DAY_MS, deleteUsage, usageSince } from './store.js';

/**
 * The sources whose sends count toward the email quotas (and are checked
 * against them): transactional sends, inbox sends included (they go out as
 * `api`). Broadcast and automation emails are marketing email, counted by
 * contacts instead (the service's knowledge base "What are Resend account
 * quotas and limits?").
 */
const COUNTED_SOURCES: ReadonlySet<string> = new Set(['api', 'batch', 'smtp']);

/** Whether a send of `source` (an email's `source`: api, batch, smtp, broadcast, automation) counts toward the quotas. */
export function countsTowardQuota(source: string): boolean {
  return COUNTED_SOURCES.has(source);
}

/**
 * How many emails a send counts as: one per To, CC and BCC recipient (the
 * knowledge base). Each field is a list of addresses, one address (a
 * string, as a send body may give it), or absent.
 */
export function recipientCount(send: { to?: unknown; cc?: unknown; bcc?: unknown }): number {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : typeof v === 'string' ? 1 : 0);
  return n(send.to) + n(send.cc) + n(send.bcc);
}

/**
 * Records a stored send: its recipients (`recipientCount` of `to`, `cc`,
 * `bcc`) on the team's UTC day of `atMs` (emulated ms, the email's
 * `created_at`), when its `source` counts (`countsTowardQuota`; else
 * nothing). Call inside the transaction that stores the email.
 */
export function recordSend(ctx: Emulator, send: SendRecord): void {
  if (!countsTowardQuota(send.source)) return;
  addUsage(ctx, send.teamId, send.atMs, recipientCount(send), 0);
}

/** A stored send as the ledger records it (`recordSend`, `recordSends`): its team, `source`, `atMs` (emulated ms, the email's `created_at`) and recipients. */
export interface SendRecord { teamId: string; source: string; atMs: number; to?: unknown; cc?: unknown; bcc?: unknown }

/**
 * Records many stored sends (a snapshot import's), each as `recordSend`
 * would, summed per team and UTC day first (`addPerDay`). Call inside the
 * transaction that stores them.
 */
export function recordSends(ctx: Emulator, sends: Iterable<SendRecord>): void {
  addPerDay(ctx, (function* () {
    for (const s of sends) if (countsTowardQuota(s.source)) yield { teamId: s.teamId, atMs: s.atMs, sent: recipientCount(s), received: 0 };
  })());
}

/**
 * Records many stored received emails (a snapshot import's), each as
 * `recordReceive` would (`atMs` emulated ms), summed per team and UTC day
 * first (`addPerDay`). Call inside the transaction that stores them.
 */
export function recordReceives(ctx: Emulator, received: Iterable<{ teamId: string; atMs: number }>): void {
  addPerDay(ctx, (function* () {
    for (const r of received) yield { teamId: r.teamId, atMs: r.atMs, sent: 0, received: 1 };
  })());
}

/** Adds `counts` (emulated `atMs`) to the ledger summed per team and UTC day: one write a day, not one a row. */
function addPerDay(ctx: Emulator, counts: Iterable<{ teamId: string; atMs: number; sent: number; received: number }>): void {
  const days = new Map<string, { teamId: string; atMs: number; sent: number; received: number }>();
  for (const c of counts) {
    const key = `${Math.floor(c.atMs / DAY_MS)} ${c.teamId}`;
    const day = days.get(key);
    if (day) {
      day.sent += c.sent;
      day.received += c.received;
    } else days.set(key, { ...c });
  }
  for (const d of days.values()) addUsage(ctx, d.teamId, d.atMs, d.sent, d.received);
}

/** Records a stored received email (one email) on the team's UTC day of `atMs` (emulated ms). Call inside the transaction that stores it. */
export function recordReceive(ctx: Emulator, teamId: string, atMs: number): void {
  addUsage(ctx, teamId, atMs, 0, 1);
}

/**
 * Forgets every count: the rows they counted are gone (reset and a snapshot
 * import empty every table; the usage module's `cleared` hook). The rooms
 * record again what they then store (the fixtures' seed, the import's
 * `imported` hooks). Call inside that transaction.
 */
export function forget(ctx: Emulator): void {
  deleteUsage(ctx);
}

/** Start and end (the next reset) of the UTC day and month of `nowMs`, in ms. */
export function quotaWindows(nowMs: number): { dayStart: number; dayEnd: number; monthStart: number; monthEnd: number } {
  const d = new Date(nowMs);
  const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return {
    dayStart,
    dayEnd: dayStart + DAY_MS,
    monthStart: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    monthEnd: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

/** One window of a team's email usage (GET /usage `emails.daily` / `emails.monthly`): counts in emails, `limit` null without one, `resets_at` ISO 8601. */
export interface EmailWindow {
  used: number;
  limit: number | null;
  sent: number;
  received: number;
  resets_at: string;
}

/**
 * The team's email usage today and this month (emulated time), with the
 * plan's limits: GET /usage's `emails`, and what a send's quota is checked
 * against. One read of at most the month's days of the ledger: constant
 * whatever the number of emails.
 */
export function emailUsage(ctx: Emulator, teamId: string): { daily: EmailWindow; monthly: EmailWindow } {
  const w = quotaWindows(ctx.clock.nowMs());
  const limits = planLimits(ctx);
  const c = usageSince(ctx, teamId, w.dayStart, w.monthStart);
  const window = (s: number, r: number, resets: number, limit: number | null): EmailWindow => ({ used: s + r, limit, sent: s, received: r, resets_at: isoTime(resets)! });
  return {
    daily: window(c.sent_day, c.received_day, w.dayEnd, limits.emailsDaily),
    monthly: window(c.sent_month, c.received_month, w.monthEnd, limits.emailsMonthly),
  };
}

/**
 * Refuses a broadcast when the team has more contacts than its plan allows:
 * 403 `validation_error` `You have reached your contacts quota. Please upgrade
 * your plan to send more emails.` (docs/reference/errors.md#error-names-and-statuses, D:api-reference/rate-limit).
 * Does nothing without a plan.
 */
export function checkContactsQuota(ctx: Emulator, teamId: string): void {
  const limit = planLimits(ctx).contacts;
  if (limit === null) return;
  if (countContacts(ctx, teamId) > limit) {
    throw usageMessages.contactsQuotaReached();
  }
}

/** The rate limit GET /usage reports when `--rate-limit` is off: the service's documented default, 10 a second (docs/reference/formats.md#rate-limits). */
export const DEFAULT_RATE_LIMIT = 10;

/**
 * The `limit` GET /usage reports, where the SDK types it `number` (never
 * null: `emails.monthly`, `contacts`, `automation_runs`, docs/reference/inboxes.md#usage
 * "monthly is always a number"), for a limit the emulator does not have
 * (no `--plan`): 2,147,483,647, the largest 32-bit integer, so every
 * official SDK's integer type reads it (the Java SDK reads limits as `Integer`).
 * The limits the SDK types `number | null` stay `null` (no limit).
 */
export const NO_LIMIT = 2_147_483_647;
