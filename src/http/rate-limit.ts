/**
 * Optional per-team rate limiting (`config.rateLimit` requests per second;
 * CLI `--rate-limit N`, `startServer({ rateLimit })`; 0 = off, the default).
 *
 * Rules (docs/reference/formats.md#rate-limits; docs/reference/errors.md#error-names-and-statuses
 * `rate_limit_exceeded`; D:api-reference/rate-limit):
 * - counts authenticated API requests per team, all of its keys together;
 *   the admin API (`/_emulator`, no auth) is never counted or limited;
 * - a fixed 1-second window on WALL time (not the emulated clock: the limit
 *   is about how fast a client calls, which the emulated clock does not see);
 * - every authenticated reply, errors included, carries `ratelimit-limit: N`,
 *   `ratelimit-policy: N;w=1`, `ratelimit-remaining` (N minus the requests
 *   of this window, never below 0) and `ratelimit-reset` (seconds to the
 *   window's end, rounded up: always `1`, as recorded);
 * - request N+1 of a window → 429 `rate_limit_exceeded` with `retry-after`
 *   (seconds, `1`); rejected requests count too;
 * - when the limit is off (0), no rate-limit header is sent at all (the
 *   emulator then has no limit to report; headers claiming one would mislead).
 */
import type { ServerResponse } from 'node:http';
import type { Emulator } from '../context.js';
import { errors } from './errors.js';
import { rateLimitHeaders, WINDOW_MS } from './rate-limit-headers.js';
import type { Auth } from '../module.js';

/** The wall clock the limiter reads (ms); tests may replace `now` to pin the window. */
export const wallClock = { now: (): number => Date.now() };


/** The outcome of counting one request. */
export interface RateLimitResult {
  limited: boolean;
  headers: Record<string, string>;
}

/** Fixed-window counters, one per team. */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  /**
   * Counts one request of `teamId` at wall time `nowMs` against `limit`
   * requests per window; returns whether it is over the limit and the
   * headers to send. Counters of past windows are dropped as they are met.
   */
  hit(teamId: string, limit: number, nowMs: number): RateLimitResult {
    const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
    let w = this.windows.get(teamId);
    if (!w || w.start !== start) {
      if (this.windows.size > 1000) for (const [k, v] of this.windows) if (v.start !== start) this.windows.delete(k);
      w = { start, count: 0 };
      this.windows.set(teamId, w);
    }
    w.count += 1;
    const reset = Math.max(1, Math.ceil((start + WINDOW_MS - nowMs) / 1000));
    const headers = rateLimitHeaders(limit, limit - w.count, reset);
    if (w.count > limit) return { limited: true, headers: { ...headers, 'retry-after': String(reset) } };
    return { limited: false, headers };
  }
}

/**
 * The step the app builder runs right after authentication: with
 * `ctx.config.rateLimit > 0`, counts the request, sets the rate-limit
 * headers on `res` and throws the 429 `ApiError` when over the limit;
 * with 0, does nothing. One limiter per app (per emulator).
 */
export function createRateLimit(ctx: Emulator): (auth: Auth, res: ServerResponse) => void {
  const limiter = new RateLimiter();
  return (auth, res) => {
    const limit = ctx.config.rateLimit;
    if (!(limit > 0)) return;
    const r = limiter.hit(auth.teamId, limit, wallClock.now());
    const { 'retry-after': retryAfter, ...headers } = r.headers;
    for (const name in headers) res.setHeader(name, headers[name]);
    // `retry-after` reaches the response through the 429 error only (one place).
    if (r.limited) throw errors.rateLimitExceeded(limit, retryAfter!);
  };
}
