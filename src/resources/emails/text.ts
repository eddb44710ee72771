/**
 * The plain-text part made from html when a send gives no `text`
 * (API-FACTS §5.1), by html-to-text with its options compiled once.
 */
import { lazy, requirePackage } from '../../lazy.js';

const compiled = lazy(() => requirePackage<typeof import('html-to-text')>('html-to-text').compile({ wordwrap: false }));

/** html → text, no word wrapping (html-to-text is loaded on the first call). */
export function htmlToText(html: string): string {
  return compiled()(html);
}
