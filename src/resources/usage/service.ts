/**
 * Usage and quotas (docs/reference/inboxes.md#usage; docs/reference/errors.md#error-names-and-statuses quota rows and "Quota
 * headers"; the plans in src/state/plans.ts). Usage is counted from the
 * other rooms' state through their `service.ts` (never their SQL), in
 * emulated time:
 * | count | what | window |
 * |---|---|---|
 * | emails `sent` | To + CC + BCC recipients of API, batch, SMTP and inbox sends (emails' `sentRecipients`, per-day counts kept as rows are stored) | the UTC day / month so far |
 * | emails `received` | received emails, one each (receiving's `receivedCounts`, the same way) | the UTC day / month so far |
 * | emails `used` | `sent + received` (the knowledge base: both count) | |
 * | contacts, segments, broadcasts, domains | the team's rows now | |
 * | automation runs | runs started | the UTC month so far |
 * The daily quota resets at 00:00 UTC (docs/reference/README.md: "free daily quota resets
 * 00:00 UTC"), the monthly one on the 1st at 00:00 UTC (the Go mock's
 * `resets_at`). The email quotas are checked where sending lives (emails'
 * `sendEmail`, `EmailQuota`), on the numbers of `emailUsage` (given to it as
 * `ctx.usage`); broadcasts call `checkContactsQuota`.
 */
import type { Emulator, EmailWindow, UsageCounter } from '../../context.js';
import { usageMessages } from './messages.js';
import { isoTime } from '../../http/format.js';
import { planLimits } from '../../state/plans.js';
import { sentRecipients } from '../emails/service.js';
import { receivedCounts } from '../receiving/service.js';
import { countContacts } from '../contacts/service.js';
import { countSegments } from '../segments/service.js';
import { countBroadcasts } from '../broadcasts/service.js';
import { countRuns } from '../automations/service.js';
import { countDomains } from '../domains/service.js';
import type { ResponseBody } from '../../http/document-types.js';

const DAY_MS = 86_400_000;

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

/**
 * The team's email usage today and this month (emulated time), with the
 * plan's limits: GET /usage's `emails`, and what a send's quota is checked
 * against. Two reads (sent, received), each of both windows over at most
 * the month's per-day counts: constant whatever the number of emails.
 */
export function emailUsage(ctx: Emulator, teamId: string): { daily: EmailWindow; monthly: EmailWindow } {
  const w = quotaWindows(ctx.clock.nowMs());
  const limits = planLimits(ctx);
  const sent = sentRecipients(ctx, teamId, w.dayStart, w.monthStart);
  const received = receivedCounts(ctx, teamId, w.dayStart, w.monthStart);
  const window = (s: number, r: number, resets: number, limit: number | null): EmailWindow => ({ used: s + r, limit, sent: s, received: r, resets_at: isoTime(resets)! });
  return { daily: window(sent.day, received.day, w.dayEnd, limits.emailsDaily), monthly: window(sent.month, received.month, w.monthEnd, limits.emailsMonthly) };
}

/** `ctx.usage` (src/context.ts `UsageCounter`): the email usage as sending reads it. */
export const usageCounter: UsageCounter = { emailUsage };

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

/**
 * GET /usage: the SDK's `GetUsageResponseSuccess` (docs/reference/inboxes.md#usage).
 * `emails` is `emailUsage`, the numbers a send's quota is checked against
 * (read once: the reply's quota headers come from it too); limits the SDK
 * types `number` are NO_LIMIT without a plan.
 */
export function usageOf(ctx: Emulator, teamId: string): ResponseBody<'usage/get'> {
  const limits = planLimits(ctx);
  const w = quotaWindows(ctx.clock.nowMs());
  const usage = ctx.usage.emailUsage(ctx, teamId);
  return {
    object: 'usage',
    emails: { daily: usage.daily, monthly: { ...usage.monthly, limit: usage.monthly.limit ?? NO_LIMIT } },
    contacts: { used: countContacts(ctx, teamId), limit: limits.contacts ?? NO_LIMIT },
    segments: { used: countSegments(ctx, teamId), limit: limits.segments },
    broadcasts: { used: countBroadcasts(ctx, teamId), limit: null },
    ai_credits: { used: 0, limit: null, next_increase_at: null },
    automation_runs: { used: countRuns(ctx, teamId, w.monthStart), limit: limits.automationRuns ?? NO_LIMIT, resets_at: isoTime(w.monthEnd)! },
    domains: { used: countDomains(ctx, teamId), limit: limits.domains },
    rate_limit: { limit: ctx.config.rateLimit > 0 ? ctx.config.rateLimit : DEFAULT_RATE_LIMIT, duration: '1000ms' },
  };
}

