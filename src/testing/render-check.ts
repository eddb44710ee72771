/**
 * The HTML check in tests (a test fails before Outlook breaks the email): `checkEmailHtml(email)` returns the
 * check of an email (src/admin/html-check.ts, the same as
 * `GET /_emulator/emails/{id}/html-check`), and `toRenderIn(clients)`, the
 * matcher of every test-framework entry, fails when the email uses an HTML
 * or CSS feature one of the named clients does not support (caniemail data),
 * or when Gmail is named and the HTML is over Gmail's clipping threshold.
 * The failure lists each finding with the clients that lack it. No test
 * framework is imported here; each entry registers `renderMatchers` with its
 * own `expect.extend`. Both are async (caniemail is loaded on first use):
 * `await expect(email).toRenderIn(['outlook', 'gmail'])`.
 */
import { htmlCheck, type HtmlCheck } from '../admin/html-check.js';
import type { MatcherResult } from './matchers.js';

/** What the check reads of an email: a `SentEmail` (`emu.emails()`, `waitForEmail()`) has all of it. */
export interface CheckableEmail {
  id: string;
  html: string | null;
  text?: string | null;
  headers?: Record<string, string>;
  broadcast_id?: string | null;
}

/** Options of `toRenderIn`. */
export interface RenderOptions {
  /** Fail on partial support too (default false: only features a client does not support at all fail). */
  strict?: boolean;
}

/** The matcher's types, for each framework's `Assertion` / `Matchers`. */
export interface RenderMatchers<R = unknown> {
  /**
   * Fails when the email uses an HTML or CSS feature that one of `clients`
   * does not support (caniemail data; with `{ strict: true }`, partly
   * supports), or when a Gmail client is named and the HTML is over 102 KB
   * (clipped), or when its HTML cannot be read (a malformed `<style>`). A client is a family (`outlook`, `gmail`, `apple-mail`,
   * `yahoo`, `samsung-email`, `thunderbird`, …: all its platforms), a client
   * id (`outlook.windows`, `gmail.android`) or `*` (every client). Async:
   * `await expect(email).toRenderIn(['outlook'])`.
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

/** The result of `toRenderIn` (see `RenderMatchers`). Rejects with a TypeError for a bad email or an empty or unknown client list. */
export async function renderResult(received: unknown, clients: string[], options: RenderOptions = {}): Promise<MatcherResult> {
  if (!Array.isArray(clients) || clients.length === 0 || clients.some((c) => typeof c !== 'string')) {
    throw new TypeError("toRenderIn expects a non-empty list of clients, e.g. ['outlook', 'gmail'] or ['outlook.windows']");
  }
  const check = await checkEmailHtml(received as CheckableEmail);
  const known = check.families.flatMap((f) => f.clients);
  const unknown = clients.filter((c) => !known.some((id) => names(c, id)));
  if (unknown.length) {
    throw new TypeError(`toRenderIn: unknown client ${unknown.map((c) => JSON.stringify(c)).join(', ')}; families: ${check.families.map((f) => f.family).join(', ')}; or a client id such as ${known.slice(0, 3).join(', ')}`);
  }
  const lines: string[] = [];
  if (check.parse_error) lines.push(`  - the HTML could not be read (${check.parse_error}): a malformed <style> block, which clients may drop whole`);
  for (const f of check.findings) {
    const lacking = f.clients.filter((c) => clients.some((n) => names(n, c.client)) && (c.support === 'none' || options.strict));
    if (!lacking.length) continue;
    const notes = [...new Set(lacking.flatMap((c) => c.notes))];
    lines.push(`  - ${f.feature} (${f.category ?? 'feature'}${f.url ? `, ${f.url}` : ''}): ${lacking.map((c) => `${c.name} (${c.support === 'none' ? 'not supported' : 'partial'})`).join(', ')}${notes.length ? `\n      notes: ${notes.join(' | ')}` : ''}`);
  }
  const gmail = known.some((id) => id.startsWith('gmail.') && clients.some((n) => names(n, id)));
  if (gmail && check.size.gmail_clipped) {
    lines.push(`  - size: the HTML is ${(check.size.html_bytes / 1024).toFixed(1)} KB; Gmail clips HTML over ${check.size.gmail_clip_bytes / 1024} KB ("[Message clipped]"; ${check.size.source})`);
  }
  const who = clients.map((c) => JSON.stringify(c)).join(', ');
  const subject = `email ${check.email_id}`;
  return lines.length
    ? { pass: false, message: () => `expected ${subject} to render in ${who}, but it uses what they do not support${options.strict ? ' in full' : ''}:\n${lines.join('\n')}` }
    : { pass: true, message: () => `expected ${subject} not to render in ${who}, but every feature it uses is supported there` };
}

/** The matchers of this file, for `expect.extend` (Vitest, Jest, Playwright). */
export const renderMatchers = {
  toRenderIn(received: unknown, clients: string[], options?: RenderOptions): Promise<MatcherResult> {
    return renderResult(received, clients, options);
  },
};
