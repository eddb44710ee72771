/**
 * The plans an emulator can count usage against (`--plan`, `startServer({ plan })`,
 * env `EMULATOR_PLAN`): their published quotas, and what the emulator
 * enforces. Without a plan (the default) nothing is limited and no quota
 * header is sent: a test suite that never asks about quotas never meets one.
 *
 * | limit | free | pro | scale | source |
 * |---|---|---|---|---|
 * | emails a day (sent + received; each To/CC/BCC one email) | 100 | none | none | the service's knowledge base "What are Resend account quotas and limits?" (free 100/day, 3,000/month; paid plans no daily quota) |
 * | emails a month | 3,000 | 50,000 | 100,000 | the same page (free); the pricing page (Transactional Pro 50,000, Scale 100,000) |
 * | marketing contacts | 1,000 | 5,000 | 5,000 | the same page (free: 1,000 contacts); the pricing page (Marketing Pro from 5,000) |
 * | domains | 1 | 10 | 1,000 | the pricing page (reported, not enforced) |
 * | segments | none | none | none | not published (reported as `null`) |
 * | automation runs a month | 3,000 | 50,000 | 100,000 | emulator choice, not published (reported, not enforced) |
 * Enforced: the daily and monthly email quotas on API, batch and SMTP sends
 * (429 `daily_quota_exceeded` / `monthly_quota_exceeded`), and the contacts
 * quota when a broadcast is sent (403 `validation_error`, docs/reference/errors.md#error-names-and-statuses).
 * Paid plans' pay-as-you-go overages are not emulated: a paid plan is
 * refused at its monthly quota (emulator choice, docs/quotas-and-rate-limits.md#usage-and-quotas).
 */
import type { Emulator, PlanName } from '../context.js';

export type { PlanName } from '../context.js';

/** Every plan name `--plan` accepts. */
export const PLAN_NAMES: readonly PlanName[] = ['free', 'pro', 'scale'];

/** A plan's limits; null: no limit. Counts are emails, contacts, domains, runs. */
export interface PlanLimits {
  emailsDaily: number | null;
  emailsMonthly: number | null;
  contacts: number | null;
  segments: number | null;
  domains: number | null;
  automationRuns: number | null;
}

/** The limits of each plan (table above). */
export const PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  free: { emailsDaily: 100, emailsMonthly: 3_000, contacts: 1_000, segments: null, domains: 1, automationRuns: 3_000 },
  pro: { emailsDaily: null, emailsMonthly: 50_000, contacts: 5_000, segments: null, domains: 10, automationRuns: 50_000 },
  scale: { emailsDaily: null, emailsMonthly: 100_000, contacts: 5_000, segments: null, domains: 1_000, automationRuns: 100_000 },
};

/** No plan: nothing is limited. */
export const UNLIMITED: PlanLimits = { emailsDaily: null, emailsMonthly: null, contacts: null, segments: null, domains: null, automationRuns: null };

/** The limits of the emulator's plan (`config.plan`), or `UNLIMITED` without one. */
export function planLimits(ctx: Emulator): PlanLimits {
  return ctx.config.plan ? PLANS[ctx.config.plan] : UNLIMITED;
}
