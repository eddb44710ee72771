/**
 * The plain-text part made from html when a send gives no `text`
 * (docs/reference/resources.md#emails), by html-to-text with its options compiled once.
 */
import { lazy, requirePackage } from '../../lazy.js';

const compiled = lazy(() => requirePackage<typeof import('html-to-text')>('html-to-text').compile({ wordwrap: false }));

/** How many recent conversions are kept, and the largest html (characters) kept. */
const RECENT_MAX = 64;
const RECENT_MAX_HTML = 16 * 1024;

/**
 * Recent html → text conversions, oldest first (a Map keeps insertion
 * order). A test suite sends the same templates again and again, and
 * converting is a large share of a send's CPU (docs/benchmarks.md#figures-behind-the-code).
 */
const recent = new Map<string, string>();

/** html → text, no word wrapping (html-to-text is loaded on the first call). The same html gives the same text. */
export function htmlToText(html: string): string {
  const hit = recent.get(html);
  if (hit !== undefined) return hit;
  const text = compiled()(html);
  if (html.length <= RECENT_MAX_HTML) {
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
    recent.set(html, text);
  }
  return text;
}
