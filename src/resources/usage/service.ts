/**
 * Usage and quotas (INBOXES-FACTS §8; API-FACTS §2.1 quota rows and "Quota
 * headers"; the plans in src/state/plans.ts). Usage is counted from the
 * other rooms' state through their `service.ts` (never their SQL), in
 * emulated time:
 * | count | what | window |
 * |---|---|---|
 * | emails `sent` | To + CC + BCC recipients of API, batch and SMTP sends (emails' `countSentRecipients`) | the UTC day / month so far |
 * | emails `received` | received emails (receiving's `countReceived`), one each | the UTC day / month so far |
 * | emails `used` | `sent + received` (the knowledge base: both count) | |
 * | contacts, segments, broadcasts, domains | the team's rows now | |
 * | automation runs | runs started | the UTC month so far |
 * The daily quota resets at 00:00 UTC (API-FACTS: "free daily quota resets
 * 00:00 UTC"), the monthly one on the 1st at 00:00 UTC (the Go mock's
 * `resets_at`). Other rooms call `checkEmailQuota` before a send,
 * `quotaHeaders` for its reply and `checkContactsQuota` before a broadcast.
 */
import type { Emulator } from '../../context.js';
import { ApiError, ERROR_NAMES, errors } from '../../http/errors.js';
import { isoTime } from '../../http/format.js';
import { planLimits } from '../../state/plans.js';
import { countSentRecipients } from '../emails/service.js';
import { countReceived } from '../receiving/service.js';
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

/** The team's email usage today and this month (emulated time), with the plan's limits. */
export function emailUsage(ctx: Emulator, teamId: string) {
  const w = quotaWindows(ctx.clock.nowMs());
  const limits = planLimits(ctx);
  const window = (since: number, resets: number, limit: number | null) => {
    const sent = countSentRecipients(ctx, teamId, since);
    const received = countReceived(ctx, teamId, since);
    return { used: sent + received, limit, sent, received, resets_at: isoTime(resets)! };
  };
  return { daily: window(w.dayStart, w.dayEnd, limits.emailsDaily), monthly: window(w.monthStart, w.monthEnd, limits.emailsMonthly) };
}

/** How many emails a send body counts as: one per To, CC and BCC recipient (the knowledge base). */
export function recipientCount(input: { to?: unknown; cc?: unknown; bcc?: unknown }): number {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : typeof v === 'string' ? 1 : 0);
  return n(input.to) + n(input.cc) + n(input.bcc);
}

/**
 * The quota headers of a send's reply (API-FACTS "Quota headers",
 * D:api-reference/rate-limit): `x-resend-daily-quota` (plans with a daily
 * quota only, i.e. free) and `x-resend-monthly-quota`, each the emails used
 * so far in its window (sent and received). None without a plan.
 */
export function quotaHeaders(ctx: Emulator, teamId: string): Record<string, string> {
  if (!ctx.config.plan) return {};
  const usage = emailUsage(ctx, teamId);
  return {
    ...(usage.daily.limit !== null ? { 'x-resend-daily-quota': String(usage.daily.used) } : {}),
    'x-resend-monthly-quota': String(usage.monthly.used),
  };
}

/**
 * Refuses a send of `recipients` emails that would go over the plan's daily
 * or monthly quota: throws 429 `daily_quota_exceeded` (checked first) or
 * `monthly_quota_exceeded` (API-FACTS §2.1), with the quota headers. Does
 * nothing without a plan. Call it before `sendEmail`, inside the same
 * transaction when several sends share one (a batch).
 */
export function checkEmailQuota(ctx: Emulator, teamId: string, recipients: number): void {
  if (!ctx.config.plan) return;
  const usage = emailUsage(ctx, teamId);
  const over = (w: { used: number; limit: number | null }) => w.limit !== null && w.used + recipients > w.limit;
  const name = over(usage.daily) ? 'daily_quota_exceeded' : over(usage.monthly) ? 'monthly_quota_exceeded' : null;
  if (!name) return;
  // The service's text for each name (ERROR_NAMES, D:api-reference/errors).
  throw new ApiError(429, name, ERROR_NAMES[name].message, quotaHeaders(ctx, teamId));
}

/**
 * Refuses a broadcast when the team has more contacts than its plan allows:
 * 403 `validation_error` `You have reached your contacts quota. Please upgrade
 * your plan to send more emails.` (API-FACTS §2.1, D:api-reference/rate-limit).
 * Does nothing without a plan.
 */
export function checkContactsQuota(ctx: Emulator, teamId: string): void {
  const limit = planLimits(ctx).contacts;
  if (limit === null) return;
  if (countContacts(ctx, teamId) > limit) {
    throw errors.validation('You have reached your contacts quota. Please upgrade your plan to send more emails.', 403);
  }
}

/** The rate limit GET /usage reports when `--rate-limit` is off: the service's documented default, 10 a second (API-FACTS "Limit values"). */
export const DEFAULT_RATE_LIMIT = 10;

/**
 * The `limit` GET /usage reports, where the SDK types it `number` (never
 * null: `emails.monthly`, `contacts`, `automation_runs`, INBOXES-FACTS §8
 * "monthly is always a number"), for a limit the emulator does not have
 * (no `--plan`): 2,147,483,647, the largest 32-bit integer, so every
 * official SDK's integer type reads it (the Java SDK reads limits as `Integer`).
 * The limits the SDK types `number | null` stay `null` (no limit).
 */
export const NO_LIMIT = 2_147_483_647;

/** GET /usage: the SDK's `GetUsageResponseSuccess` (INBOXES-FACTS §8); limits the SDK types `number` are NO_LIMIT without a plan. */
export function usageOf(ctx: Emulator, teamId: string): ResponseBody<'usage/get'> {
  const limits = planLimits(ctx);
  const w = quotaWindows(ctx.clock.nowMs());
  const emails = emailUsage(ctx, teamId);
  return {
    object: 'usage',
    emails: { daily: emails.daily, monthly: { ...emails.monthly, limit: emails.monthly.limit ?? NO_LIMIT } },
    contacts: { used: countContacts(ctx, teamId), limit: limits.contacts ?? NO_LIMIT },
    segments: { used: countSegments(ctx, teamId), limit: limits.segments },
    broadcasts: { used: countBroadcasts(ctx, teamId), limit: null },
    ai_credits: { used: 0, limit: null, next_increase_at: null },
    automation_runs: { used: countRuns(ctx, teamId, w.monthStart), limit: limits.automationRuns ?? NO_LIMIT, resets_at: isoTime(w.monthEnd)! },
    domains: { used: countDomains(ctx, teamId), limit: limits.domains },
    rate_limit: { limit: ctx.config.rateLimit > 0 ? ctx.config.rateLimit : DEFAULT_RATE_LIMIT, duration: '1000ms' },
  };
}
