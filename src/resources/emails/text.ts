/**
 * The plain-text part made from html when a send gives no `text`
 * (API-FACTS §5.1), by html-to-text with its options compiled once.
 */
import { compile } from 'html-to-text';

/** html → text, no word wrapping. */
export const htmlToText: (html: string) => string = compile({ wordwrap: false });
