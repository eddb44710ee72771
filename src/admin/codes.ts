/**
 * One-time codes in an email (so a test reads a code the way a person would: `codes` beside
 * `links` on every inspected email). The rule, also in
 * docs/sending.md#one-time-codes-codes:
 *
 * - looked for in the subject, then the text, then the HTML's text
 *   (html-to-text, link targets, images and markup left out);
 * - a code is a standalone run of 4–8 digits, or of 6–8 upper-case letters
 *   and digits with at least one digit;
 * - standalone: not touching a letter, a digit or `_`, nor `#` `/` `\` `@`
 *   `$` `-` `+` on its left, nor `/` `\` `@` `-` `+` on its right, nor a `.`
 *   `,` or `:` followed by a digit on its right or preceded by one on its left
 *   (`#1042`, `v2.1.3`, `INV-202611` are not codes);
 * - not part of a URL (`http(s)://…`, `www.…`), an email address, a date
 *   (numeric: `2026-03-12`, `12/03/2026`, `12.03.26`; written: `March 12,
 *   2026`, `12 March 2026`, `Mar 2026`; and a 4-digit year from 1900 to 2099
 *   standing alone), a time (`10:42`, `10:42:07`), a price (`$1,249.00`,
 *   `49,99 €`, `USD 120`, `120 EUR`), an international phone number
 *   (`+1 555 010 1234`) or a longer number (`1,000,000`, `123456789`);
 * - each code once, in the order of first appearance.
 */
import { lazy, requirePackage } from '../lazy.js';

type HtmlToText = typeof import('html-to-text');

/** HTML → its visible text: no link targets, no images, case kept (headings are not upper-cased). Loaded on first use. */
const visibleText = lazy((): ((html: string) => string) => requirePackage<HtmlToText>('html-to-text').compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
}));

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const CURRENCY = '(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|INR|SEK|NOK|DKK|PLN|BRL|MXN|dollars?|euros?|pounds?)';
const AMOUNT = "\\d{1,3}(?:[ ,.']\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?";

/** Spans that are never codes, masked before codes are looked for. */
const EXCLUDED: RegExp[] = [
  /\b(?:https?|ftp):\/\/[^\s<>"']+/gi,
  /\bwww\.[^\s<>"']+/gi,
  /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  // Dates: ISO (with an optional time), d/m/y in any order and separator.
  /\b\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi,
  /\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b/g,
  new RegExp(`\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, 'gi'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?\\b`, 'gi'),
  new RegExp(`\\b${MONTH},?\\s+\\d{4}\\b`, 'gi'),
  // Times.
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?/gi,
  // Prices.
  new RegExp(`[$€£¥₹]\\s?(?:${AMOUNT})`, 'g'),
  new RegExp(`\\b${CURRENCY}\\s?(?:${AMOUNT})`, 'g'),
  new RegExp(`(?<!\\d)(?:${AMOUNT})\\s?(?:[$€£¥₹]|${CURRENCY}\\b)`, 'gi'),
  // International phone numbers; numbers with thousands or decimal separators.
  /\+\d[\d ().-]{6,}\d/g,
  /(?<!\d)\d+(?:[.,]\d+)+/g,
];

const CANDIDATE = /(?<![\p{L}\p{N}_#/\\@$+-])(?<![\d][.,:])(?:\d{4,8}|[A-Z0-9]{6,8})(?![\p{L}\p{N}_/\\@+-])(?![.,:]\d)/gu;

/** Codes of one piece of text, in order (repeats kept; `extractCodes` removes them). */
function codesIn(text: string): string[] {
  let masked = text;
  for (const re of EXCLUDED) masked = masked.replace(re, (m) => ' '.repeat(m.length));
  const out: string[] = [];
  for (const m of masked.matchAll(CANDIDATE)) {
    const code = m[0];
    if (!/\d/.test(code)) continue;
    if (/^\d+$/.test(code) && code.length > 8) continue;
    if (/^(?:19|20)\d{2}$/.test(code)) continue; // a year
    out.push(code);
  }
  return out;
}

/**
 * Verification codes of an email (the rule in the module comment), from its
 * subject, text and HTML. Returns each code once, in order of first appearance.
 */
export function extractCodes(subject: string | null, text: string | null, html: string | null): string[] {
  const found = [subject, text, html ? visibleText()(html) : null].flatMap((s) => (s ? codesIn(s) : []));
  return [...new Set(found)];
}
