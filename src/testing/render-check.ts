/**
 * The HTML check in tests (a test fails before Outlook breaks the email): `checkEmailHtml(email)` returns the
 * check of an email (src/admin/html-check.ts, the same as
 * `GET /_emulator/emails/{id}/html-check`), and `toRenderIn(clients)`, the
 * matcher of every test-framework entry, fails when the email uses an HTML
 * or CSS feature that breaks it in one of the named clients (not supported
 * there and not harmless: docs/reference/design.md#the-html-check-what-breaks-rendering),
 * or when Gmail is named and the HTML is over Gmail's clipping threshold.
 * The failure lists each finding with the clients that lack it. No test
 * framework is imported here; each entry registers `renderMatchers` with its
 * own `expect.extend`. Both are async (caniemail is loaded on first use):
 * `await expect(email).toRenderIn(['outlook', 'gmail'])`.
 */
import { caniemailFeatures, htmlCheck, type HtmlCheck, type SupportLevel } from '../admin/html-check.js';
import type { MatcherResult } from './matchers.js';

/** What the check reads of an email: a `SentEmail` (`emu.emails()`, `waitForEmail()`) has all of it. */
export interface CheckableEmail {
  id: string;
  html: string | null;
  text?: string | null;
  headers?: Record<string, string>;
  broadcast_id?: string | null;
}

/** Options of `toRenderIn` (docs/vitest.md#checking-an-emails-html-against-email-clients). */
export interface RenderOptions {
  /**
   * The lowest support a client may give a feature for the email to pass
   * there: `'partial'` (the default: only a feature a client does not
   * support at all fails) or `'full'` (partial support fails too). Wins over
   * `strict` when both are given.
   */
  minSupport?: 'partial' | 'full';
  /** `minSupport: 'full'` (kept from before `minSupport`; default false). */
  strict?: boolean;
  /**
   * Features never to fail on, by caniemail slug (`css-display-flex`) or
   * title (`display:flex`), any case. A name caniemail's data does not
   * have is a TypeError (so a typo does not silently ignore nothing).
   */
  ignore?: string[];
  /**
   * Fail on the harmless features too (`HARMLESS` of src/admin/html-check.ts:
   * `<body>`, `role`, `target`, `lang`, decorations…), as the matcher did
   * before it told them apart. Default false.
   */
  includeHarmless?: boolean;
}

/** The matcher's types, for each framework's `Assertion` / `Matchers`. */
export interface RenderMatchers<R = unknown> {
  /**
   * Fails when the email uses a feature that breaks it in one of `clients`:
   * one the client does not support (caniemail data; with
   * `{ minSupport: 'full' }` or `{ strict: true }`, supports only partly)
   * and that is not harmless there (`<body>`, `role`, `target`, `lang`,
   * decorations such as `border-radius`: the list and why is
   * docs/reference/design.md#the-html-check-what-breaks-rendering), nor in
   * `ignore`; or when a Gmail client is named and the HTML is over 102 KB
   * (clipped); or when its HTML cannot be read (a malformed `<style>`). A
   * client is a family (`outlook`, `gmail`, `apple-mail`, `yahoo`,
   * `samsung-email`, `thunderbird`, …: all its platforms), a client id
   * (`outlook.windows`, `gmail.android`) or `*` (every client). The failure
   * names each feature, the clients, their support and caniemail's notes.
   * Async: `await expect(email).toRenderIn(['outlook'])`. Rejects with a
   * TypeError for an empty or unknown client, an unknown `ignore` name or
   * a bad `minSupport`.
   */
  toRenderIn(clients: string[], options?: RenderOptions): R extends void | Promise<void> ? Promise<void> : Promise<R>;
}

/**
 * The HTML check of `email` (findings, scores per client family, size,
 * List-Unsubscribe), worked out in this process. `size.message_bytes` is
 * the bytes of its HTML and text parts (the whole message, MIME structure
 * and attachments included, is `GET /_emulator/emails/{id}/html-check`'s).
 * Throws a TypeError when `email` has no `id` or `html` field.
 */
export async function checkEmailHtml(email: CheckableEmail): Promise<HtmlCheck> {
  if (email === null || typeof email !== 'object' || typeof email.id !== 'string' || !('html' in email)) {
    throw new TypeError('checkEmailHtml / toRenderIn expects an email (from emu.emails() or waitForEmail()) with `id` and `html`');
  }
  const bytes = Buffer.byteLength(email.html ?? '', 'utf8') + Buffer.byteLength(email.text ?? '', 'utf8');
  return htmlCheck({ id: email.id, html: email.html, headers: email.headers ?? {}, message_bytes: bytes, broadcast: !!email.broadcast_id });
}

/** `clients` entry → does it name client id `id` (`family.platform`)? */
function names(entry: string, id: string): boolean {
  const e = entry.trim().toLowerCase();
  if (e === '*') return true;
  return e.includes('.') ? e === id || (e.endsWith('.*') && id.startsWith(e.slice(0, -1))) : id.split('.')[0] === e;
}

/** `options.ignore` as a set of lower-case slugs and titles; a TypeError for a name caniemail's data does not have. */
async function ignoredNames(ignore: unknown): Promise<Set<string>> {
  if (ignore === undefined) return new Set();
  if (!Array.isArray(ignore) || ignore.some((n) => typeof n !== 'string')) {
    throw new TypeError("toRenderIn: `ignore` is a list of caniemail features, by slug or title, e.g. ['css-display-flex', '<style> element']");
  }
  const features = await caniemailFeatures();
  const known = new Set(features.flatMap((f) => [f.slug.toLowerCase(), f.title.toLowerCase()]));
  const unknown = ignore.filter((n) => !known.has(n.trim().toLowerCase()));
  if (unknown.length) {
    throw new TypeError(`toRenderIn: unknown feature in \`ignore\`: ${unknown.map((n) => JSON.stringify(n)).join(', ')}; name a caniemail slug (e.g. css-display-flex) or title (e.g. display:flex)`);
  }
  return new Set(ignore.map((n) => n.trim().toLowerCase()));
}

/** The support level that fails: `none` only, or `partial` too (`minSupport`, else `strict`). */
function failingLevels(options: RenderOptions): Set<SupportLevel> {
  const min = options.minSupport ?? (options.strict ? 'full' : 'partial');
  if (min !== 'partial' && min !== 'full') throw new TypeError(`toRenderIn: \`minSupport\` is 'partial' or 'full', not ${JSON.stringify(min)}`);
  return new Set<SupportLevel>(min === 'full' ? ['none', 'partial'] : ['none']);
}

/** The result of `toRenderIn` (see `RenderMatchers`). Rejects with a TypeError for a bad email, an empty or unknown client list, or bad options. */
export async function renderResult(received: unknown, clients: string[], options: RenderOptions = {}): Promise<MatcherResult> {
  if (!Array.isArray(clients) || clients.length === 0 || clients.some((c) => typeof c !== 'string')) {
    throw new TypeError("toRenderIn expects a non-empty list of clients, e.g. ['outlook', 'gmail'] or ['outlook.windows']");
  }
  const opts = options ?? {};
  const failing = failingLevels(opts);
  const ignored = await ignoredNames(opts.ignore);
  const check = await checkEmailHtml(received as CheckableEmail);
  const known = check.families.flatMap((f) => f.clients);
  const unknown = clients.filter((c) => !known.some((id) => names(c, id)));
  if (unknown.length) {
    throw new TypeError(`toRenderIn: unknown client ${unknown.map((c) => JSON.stringify(c)).join(', ')}; families: ${check.families.map((f) => f.family).join(', ')}; or a client id such as ${known.slice(0, 3).join(', ')}`);
  }
  const lines: string[] = [];
  const passedAsHarmless: string[] = [];
  if (check.parse_error) lines.push(`  - the HTML could not be read (${check.parse_error}): a malformed <style> block, which clients may drop whole`);
  for (const f of check.findings) {
    if (ignored.has(f.feature.toLowerCase()) || (f.slug !== null && ignored.has(f.slug.toLowerCase()))) continue;
    const lacking = f.clients.filter((c) => clients.some((n) => names(n, c.client)) && failing.has(c.support));
    if (!lacking.length) continue;
    if (f.harmless !== null && !opts.includeHarmless) {
      passedAsHarmless.push(f.feature);
      continue;
    }
    const notes = [...new Set(lacking.flatMap((c) => c.notes))];
    lines.push(`  - ${f.feature} (${f.category ?? 'feature'}${f.url ? `, ${f.url}` : ''}): ${lacking.map((c) => `${c.name} (${c.support === 'none' ? 'not supported' : 'partial'})`).join(', ')}${notes.length ? `\n      notes: ${notes.join(' | ')}` : ''}`);
  }
  const gmail = known.some((id) => id.startsWith('gmail.') && clients.some((n) => names(n, id)));
  if (gmail && check.size.gmail_clipped) {
    lines.push(`  - size: the HTML is ${(check.size.html_bytes / 1024).toFixed(1)} KB; Gmail clips HTML over ${check.size.gmail_clip_bytes / 1024} KB ("[Message clipped]"; ${check.size.source})`);
  }
  const who = clients.map((c) => JSON.stringify(c)).join(', ');
  const subject = `email ${check.email_id}`;
  const level = failing.has('partial') ? ' in full' : '';
  const harmlessNote = passedAsHarmless.length ? `\n  (not counted, harmless there: ${passedAsHarmless.join(', ')}; { includeHarmless: true } counts them)` : '';
  return lines.length
    ? { pass: false, message: () => `expected ${subject} to render in ${who}, but it uses what they do not support${level}:\n${lines.join('\n')}${harmlessNote}` }
    : { pass: true, message: () => `expected ${subject} not to render in ${who}, but nothing it uses breaks there${level ? ' (partial support counted)' : ''}${harmlessNote}` };
}

/** The matchers of this file, for `expect.extend` (Vitest, Jest, Playwright). */
export const renderMatchers = {
  toRenderIn(received: unknown, clients: string[], options?: RenderOptions): Promise<MatcherResult> {
    return renderResult(received, clients, options);
  },
};
