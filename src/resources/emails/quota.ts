/**
 * The email quotas of `--plan` (src/state/plans.ts; docs/reference/errors.md#error-names-and-statuses quota
 * rows and "Quota headers"), where sending lives: `sendEmail` (send.ts) is
 * the one place a send is checked (the sources the usage ledger counts,
 * `countsTowardQuota`), against the usage read once per request: the
 * ledger's `emailUsage` (src/resources/usage/service.ts), one query over at
 * most the month's days, whatever the number of emails.
 */
import type { Emulator } from '../../context.js';
import { ApiError, ERROR_NAMES } from '../../http/errors.js';
import { emailUsage } from '../usage/service.js';

/**
 * The quota one request's sends draw on: the team's usage read once
 * (`EmailQuota.read`), and the emails this request has sent since. A batch
 * reads it once for all its items; `sendEmail` takes each send from it.
 */
export class EmailQuota {
  /** Emails sent by this request since `daily`/`monthly` were read. */
  private taken = 0;

  private constructor(
    private readonly daily: { used: number; limit: number | null },
    private readonly monthly: { used: number; limit: number | null },
  ) {}

  /** The team's quota now (the ledger's `emailUsage`, one read), or null without a plan (nothing is limited, no header is sent). */
  static read(ctx: Emulator, teamId: string): EmailQuota | null {
    if (!ctx.config.plan) return null;
    const usage = emailUsage(ctx, teamId);
    return new EmailQuota(usage.daily, usage.monthly);
  }

  /**
   * Counts a send of `recipients` emails, or refuses it when it would go
   * over the daily or monthly quota: throws 429 `daily_quota_exceeded`
   * (checked first) or `monthly_quota_exceeded` (docs/reference/errors.md#error-names-and-statuses, the
   * service's text from ERROR_NAMES), with the quota headers.
   */
  take(recipients: number): void {
    const over = (w: { used: number; limit: number | null }) => w.limit !== null && w.used + this.taken + recipients > w.limit;
    const name = over(this.daily) ? 'daily_quota_exceeded' : over(this.monthly) ? 'monthly_quota_exceeded' : null;
    if (name) throw new ApiError(429, name, ERROR_NAMES[name].message, this.headers());
    this.taken += recipients;
  }

  /** Gives back what `take` counted for a send that then failed (nothing was stored). */
  giveBack(recipients: number): void {
    this.taken -= recipients;
  }

  /** The quota headers of a send's reply (`quotaHeadersOf`), this request's sends included. */
  headers(): Record<string, string> {
    return quotaHeadersOf({ used: this.daily.used + this.taken, limit: this.daily.limit }, { used: this.monthly.used + this.taken });
  }
}

/**
 * The quota headers of a reply under a plan (docs/reference/formats.md#quotas,
 * D:api-reference/rate-limit): `x-resend-daily-quota` (plans with a daily
 * quota only, i.e. free) and `x-resend-monthly-quota`, each the emails used
 * so far in its window (sent and received). Sends and GET /usage send them.
 */
export function quotaHeadersOf(daily: { used: number; limit: number | null }, monthly: { used: number }): Record<string, string> {
  return {
    ...(daily.limit !== null ? { 'x-resend-daily-quota': String(daily.used) } : {}),
    'x-resend-monthly-quota': String(monthly.used),
  };
}
