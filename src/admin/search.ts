/**
 * The search language of `GET /_emulator/emails?q=`, `emu.emails({ q })` and
 * the inbox page's search box (one search language for tests and people; Mailpit's terms).
 * Terms are separated by spaces and combined with AND:
 *
 * | term | matches an email whose |
 * |---|---|
 * | `from:x` | sender contains `x` |
 * | `to:x` | To, Cc or Bcc recipient contains `x` |
 * | `subject:x` | subject contains `x` |
 * | `tag:name`, `tag:name:value` | tags have `name` (with that `value`); exact, case-sensitive |
 * | `has:attachment` | attachments are not empty |
 * | `is:<event>` | `last_event` is `<event>` (`is:bounced`, `is:delivered`) |
 * | `before:D` | `created_at` is before D (excluded); D a date `2026-11-22` (that day's 00:00 UTC) or an ISO 8601 date-time, emulated time |
 * | `after:D` | `created_at` is at or after D (included) |
 * | `word`, `"a phrase"` | subject, from, to/cc/bcc or text contains it |
 * | `-term` | does not match `term` (any of the above) |
 *
 * "contains" is a case-insensitive substring test. A value may be quoted
 * (`subject:"your order"`). An unknown `key:` is a 422 `validation_error`
 * naming the allowed keys; so are `has:` with another value than
 * `attachment`, an empty value and an unreadable date. A word whose colon
 * starts a URL (`https://…`) or a time (`10:42`) is a free word.
 */
import { errors } from '../http/errors.js';

/** The keys a term may have, in the order error messages list them. */
export const SEARCH_KEYS = ['from', 'to', 'subject', 'tag', 'has', 'is', 'before', 'after'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** One parsed term. `key` null: a free word or phrase. `at`: ms, for before/after. */
export interface SearchTerm {
  key: SearchKey | null;
  value: string;
  negated: boolean;
  at?: number;
}

/** What a term is tested against; built by the caller from an email. */
export interface Searchable {
  from: string;
  to: string[];
  subject: string;
  text: string;
  tags: { name: string; value: string }[];
  /** Number of attachments (called only for `has:`). */
  attachments: () => number;
  last_event: string;
  /** Emulated ms. */
  created_at: number;
}

const TOKEN = /(-?)(?:([A-Za-z_]+):)?(?:"([^"]*)"?|(\S+))/g;

/** `2026-11-22` (that day's 00:00 UTC) or an ISO 8601 date-time; ms, or null when unreadable. */
function parseInstant(value: string): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(ms) ? null : ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i.test(value)) return null;
  // Without an offset, a date-time is UTC (the emulator's time zone).
  const ms = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Parses a query. Throws ApiError 422 `validation_error` for an unknown key
 * (the message names it and the allowed keys), an empty value, `has:` other
 * than `attachment`, or an unreadable `before:`/`after:` date.
 */
export function parseSearch(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const m of q.matchAll(TOKEN)) {
    const [whole, minus, rawKey, quoted, bare] = m;
    if (whole === '-' || whole === '' || bare === '-') continue;
    let key: string | null = rawKey ?? null;
    let value = quoted ?? bare ?? '';
    // `from:` with nothing after it.
    if (key === null && quoted === undefined && /^[A-Za-z_]+:$/.test(value)) {
      key = value.slice(0, -1);
      value = '';
    }
    // `https://x`, `10:42`: a free word, not a key.
    if (key !== null && quoted === undefined && (value.startsWith('//') || /^\d/.test(key))) {
      value = `${key}:${value}`;
      key = null;
    }
    if (key !== null) {
      key = key.toLowerCase();
      if (!(SEARCH_KEYS as readonly string[]).includes(key)) {
        throw errors.validation(`Unknown search key \`${key}:\` in \`q\`; allowed keys: ${SEARCH_KEYS.map((k) => `${k}:`).join(', ')}.`, 422);
      }
      if (value === '') throw errors.validation(`The search term \`${key}:\` in \`q\` needs a value.`, 422);
    }
    if (key === null && value === '') continue;
    const term: SearchTerm = { key: key as SearchKey | null, value, negated: minus === '-' };
    if (key === 'has' && value.toLowerCase() !== 'attachment') {
      throw errors.validation(`Unknown value \`has:${value}\` in \`q\`; allowed: \`has:attachment\`.`, 422);
    }
    if (key === 'before' || key === 'after') {
      const at = parseInstant(value);
      if (at === null) throw errors.validation(`The search term \`${key}:${value}\` in \`q\` needs a date (2026-11-22) or an ISO 8601 date-time.`, 422);
      term.at = at;
    }
    terms.push(term);
  }
  return terms;
}

const contains = (hay: string, needle: string) => hay.toLowerCase().includes(needle.toLowerCase());

function termMatches(t: SearchTerm, e: Searchable): boolean {
  switch (t.key) {
    case 'from':
      return contains(e.from, t.value);
    case 'to':
      return e.to.some((a) => contains(a, t.value));
    case 'subject':
      return contains(e.subject, t.value);
    case 'tag': {
      const i = t.value.indexOf(':');
      const name = i < 0 ? t.value : t.value.slice(0, i);
      const value = i < 0 ? undefined : t.value.slice(i + 1);
      return e.tags.some((g) => g.name === name && (value === undefined || g.value === value));
    }
    case 'has':
      return e.attachments() > 0;
    case 'is':
      return e.last_event.toLowerCase() === t.value.toLowerCase();
    case 'before':
      return e.created_at < t.at!;
    case 'after':
      return e.created_at >= t.at!;
    default:
      return [e.subject, e.from, ...e.to, e.text].some((s) => contains(s, t.value));
  }
}

/** Whether an email matches every term (a negated term: does not match it). */
export function matchesSearch(terms: SearchTerm[], e: Searchable): boolean {
  return terms.every((t) => termMatches(t, e) !== t.negated);
}
