/**
 * Natural-language times for `scheduled_at` (emails and broadcasts). The
 * service documents `scheduled_at` as ISO 8601 "or natural language", with
 * these examples: "in 1 min", "in 1 hour", "tomorrow at 9am", "Friday at
 * 3pm ET", "next day at 9am PST" (D:api-reference/emails/send-email,
 * D:dashboard/emails/schedule-email, D:api-reference/broadcasts/send-broadcast).
 * They are read by chrono-node (a maintained parser of English date phrases
 * with time-zone abbreviations, ET/PST/CET..., and daylight saving) on the
 * emulated clock, so "tomorrow" is the emulated tomorrow.
 *
 * Rules (emulator choices where the service's docs are silent):
 * - the whole text must be read as one date: "tomorrow at 9am please" or
 *   "banana" are unreadable (null);
 * - without a zone, times are UTC (the service's timestamps are UTC);
 * - a weekday or a time of day without a date means the next one after now
 *   (chrono's `forwardDate`), so "Friday at 3pm" on a Friday evening is the
 *   next Friday.
 */
import { lazy, requirePackage } from '../lazy.js';
import { parseDuration } from './clock.js';

const chrono = lazy(() => requirePackage<typeof import('chrono-node')>('chrono-node'));

/**
 * Reads `text` as a time relative to `nowMs` (emulated ms since the epoch).
 * Returns ms since the epoch, or null when chrono-node cannot read the
 * whole text as one date.
 */
export function parseNaturalTime(text: string, nowMs: number): number | null {
  const input = text.trim();
  if (!input) return null;
  const results = chrono().parse(input, { instant: new Date(nowMs), timezone: 'UTC' }, { forwardDate: true });
  if (results.length !== 1) return null;
  const [r] = results;
  if (r.index !== 0 || r.text.length !== input.length) return null;
  const ms = r.date().getTime();
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Reads a `scheduled_at` of an email or a broadcast: an ISO 8601 date or
 * date-time (`2026-08-05T11:52:01.858Z`; a space also accepted for `T`), a
 * duration (`in 1 min`, `in 2 hours`: `parseDuration`), or natural language
 * (`tomorrow at 9am`, `Friday at 3pm ET`: `parseNaturalTime`), on the
 * emulated clock at `nowMs`. Returns ms since the epoch, or null when the
 * text is none of these. Each caller answers null with its own 422.
 */
export function readScheduledAt(input: string, nowMs: number): number | null {
  const text = input.trim();
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)?$/i.test(text)) {
    const at = Date.parse(text.replace(' ', 'T').replace(/\s+/g, ''));
    return Number.isNaN(at) ? null : at;
  }
  const ms = parseDuration(text);
  return ms !== null ? nowMs + ms : parseNaturalTime(text, nowMs);
}
