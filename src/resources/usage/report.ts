/**
 * GET /usage's report (docs/reference/inboxes.md#usage): the ledger's email
 * counts (service.ts) and the other rooms' counts, read through their
 * `service.ts`:
 * | count | what | window |
 * |---|---|---|
 * | emails `sent` | To + CC + BCC recipients of API, batch, SMTP and inbox sends (the ledger's `recordSend`) | the UTC day / month so far |
 * | emails `received` | received emails, one each (the ledger's `recordReceive`) | the UTC day / month so far |
 * | emails `used` | `sent + received` (the knowledge base: both count) | |
 * | contacts, segments, broadcasts, domains | the team's rows now | |
 * | automation runs | runs started | the UTC month so far |
 * Only this room's handlers import this file: it reads rooms that send
 * email (automations, broadcasts), which import the ledger (service.ts), so
 * the ledger cannot import them.
 */
import type { Emulator } from '../../context.js';
import { isoTime } from '../../http/format.js';
import { planLimits } from '../../state/plans.js';
import { countContacts } from '../contacts/service.js';
import { countSegments } from '../segments/service.js';
import { countBroadcasts } from '../broadcasts/service.js';
import { countRuns } from '../automations/service.js';
import { countDomains } from '../domains/service.js';
import type { ResponseBody } from '../../http/document-types.js';
import { DEFAULT_RATE_LIMIT, emailUsage, NO_LIMIT, quotaWindows } from './service.js';

/**
 * GET /usage: the SDK's `GetUsageResponseSuccess` (docs/reference/inboxes.md#usage).
 * `emails` is `emailUsage`, the numbers a send's quota is checked against
 * (read once: the reply's quota headers come from it too); limits the SDK
 * types `number` are NO_LIMIT without a plan.
 */
export function usageOf(ctx: Emulator, teamId: string): ResponseBody<'usage/get'> {
  const limits = planLimits(ctx);
  const w = quotaWindows(ctx.clock.nowMs());
  const usage = emailUsage(ctx, teamId);
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
