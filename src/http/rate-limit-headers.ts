/**
 * The headers of the service's rate limit, in a file of their own (no
 * imports), so the limiter (`rate-limit.ts`) and injected 429s
 * (`src/faults/rules.ts`, below the context) share them without a cycle.
 */

/** Window length in ms (the service's policy `w=1`). */
export const WINDOW_MS = 1000;

/**
 * The rate-limit headers of an answer (docs/reference/formats.md#rate-limits): `ratelimit-limit`,
 * `ratelimit-policy` (`N;w=1`), `ratelimit-remaining` (never below 0),
 * `ratelimit-reset` (seconds). Used by the limiter and by injected 429s
 * (src/faults/rules.ts), so both send the same set.
 */
export function rateLimitHeaders(limit: number, remaining: number, resetS: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-policy': `${limit};w=${WINDOW_MS / 1000}`,
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetS),
  };
}
