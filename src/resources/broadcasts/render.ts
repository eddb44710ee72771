/**
 * Per-contact rendering of a broadcast (docs/reference/resources.md#broadcasts; D:broadcasts):
 * triple-brace placeholders, filled without HTML escaping.
 * | placeholder | value |
 * |---|---|
 * | `{{{contact.first_name}}}`, `.last_name`, `.email`, `.id` | the contact's field |
 * | `{{{contact.<key>}}}` | the contact property `key` (team fallbacks applied by `contactPropertyValues`) |
 * | `{{{FIRST_NAME}}}`, `{{{LAST_NAME}}}`, `{{{EMAIL}}}` | the older spelling of the contact fields (OA example `{{{FIRST_NAME|there}}}`) |
 * | `{{{RESEND_UNSUBSCRIBE_URL}}}`, `{{{UNSUBSCRIBE_URL}}}` | the contact's unsubscribe link |
 * `{{{key|fallback}}}` gives the fallback when the value is null, absent or
 * empty; without one such a placeholder becomes empty. Placeholders of any
 * other name are left as written. The grammar and the filling are the
 * templates module's `fillPlaceholders` (`compilePlaceholders`); this file only says where a
 * contact's values come from.
 */
import type { Contact } from '../contacts/service.js';
import { compilePlaceholders, placeholderPattern, UNKNOWN_PLACEHOLDER } from '../templates/service.js';
import { htmlToText } from '../emails/service.js';

/** What a contact's placeholders are filled from. */
export interface RenderVars {
  contact: Contact;
  /** Contact property values by key (fallbacks applied). */
  properties: Record<string, string | number | boolean | null>;
  unsubscribeUrl: string;
}

const LEGACY: Record<string, keyof Contact> = { FIRST_NAME: 'first_name', LAST_NAME: 'last_name', EMAIL: 'email' };
const FIELDS = new Set(['id', 'email', 'first_name', 'last_name']);

/** The value of a placeholder key, `UNKNOWN_PLACEHOLDER` if it is not a known name. */
function lookup(key: string, v: RenderVars): unknown {
  if (key === 'RESEND_UNSUBSCRIBE_URL' || key === 'UNSUBSCRIBE_URL') return v.unsubscribeUrl;
  if (key in LEGACY) return v.contact[LEGACY[key]];
  if (key.startsWith('contact.')) {
    const field = key.slice('contact.'.length);
    if (FIELDS.has(field)) return (v.contact as unknown as Record<string, unknown>)[field];
    if (field in v.properties) return v.properties[field];
    const lower = Object.keys(v.properties).find((k) => k.toLowerCase() === field.toLowerCase());
    return lower === undefined ? undefined : v.properties[lower];
  }
  return UNKNOWN_PLACEHOLDER;
}

/** Fills the placeholders of `template` for one contact. `null` stays `null`. An empty value counts as none (the fallback applies). */
export function renderForContact(template: string | null, vars: RenderVars): string | null {
  if (template === null) return null;
  return compiled(template)({
    lookup: (key) => {
      const value = lookup(key, vars);
      return value === '' ? undefined : value;
    },
  });
}

/**
 * The texts a broadcast fills per contact (its subject, html, text and their
 * placeholders), split by their placeholders once (`compilePlaceholders`)
 * and kept, a few at a time: the broadcasts being sent at once.
 */
const compiledTexts = new Map<string, ReturnType<typeof compilePlaceholders>>();
const COMPILED_KEPT = 64;

function compiled(template: string): ReturnType<typeof compilePlaceholders> {
  let fill = compiledTexts.get(template);
  if (fill) return fill;
  fill = compilePlaceholders(template);
  if (compiledTexts.size >= COMPILED_KEPT) compiledTexts.delete(compiledTexts.keys().next().value!);
  compiledTexts.set(template, fill);
  return fill;
}

/** Escapes text for an HTML text node. */
function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Puts the preview text at the top of the HTML as a hidden block, where
 * mail clients take the inbox preview from (D:broadcasts create `preview_text`).
 * After `<body ...>` when there is one, else at the start.
 */
export function withPreviewText(html: string, previewText: string | null): string {
  if (!previewText) return html;
  const block = `<div style="display:none;overflow:hidden;line-height:1px;opacity:0;max-height:0;max-width:0">${escapeHtml(previewText)}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  if (!body) return block + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + block + html.slice(at);
}

/** The emulator's unsubscribe link of a contact for a broadcast (a URL string; token = base64url of the ids). */
export function unsubscribeUrl(baseUrl: string, broadcastId: string, contactId: string): string {
  const token = Buffer.from(JSON.stringify({ b: broadcastId, c: contactId })).toString('base64url');
  return `${baseUrl}/_emulator/unsubscribe/${token}`;
}

/**
 * A value that html-to-text would pass through a text node or an `href`
 * unchanged: starts with a letter or digit, no markup or entity characters
 * (`<>&"'`), no whitespace but single inner spaces, no `mailto:` (stripped
 * from an href). Anything else takes the slow path (the whole rendered html
 * converted).
 */
const PLAIN_VALUE = /^(?!mailto:)[A-Za-z0-9][\w@.+\-:/?=%,!~*()$;#]*(?: [\w@.+\-:/?=%,!~*()$;#]+)*$/i;

/**
 * The plain-text part of a broadcast's html (`html`: with its preview text)
 * derived once for all its contacts (html-to-text per email was
 * ~1/3 of handing a broadcast's emails to `sendEmail`): the html is converted
 * once with each placeholder replaced by an opaque token, and a contact's
 * text is that text with each token replaced by the placeholder's value.
 * Returns a function giving a contact's text, or `undefined` when this
 * contact's values are not plain (`PLAIN_VALUE`), in which case the caller
 * leaves the text to `sendEmail` (html-to-text of the rendered html, as
 * before); returns `null` when the html cannot be derived this way (a token
 * that html-to-text drops, repeats or changes, e.g. in a heading it upper-
 * cases, an entity, a comment). Either way the text is the one html-to-text
 * gives for the contact's rendered html.
 */
export function textDeriver(html: string): ((vars: RenderVars) => string | undefined) | null {
  const placeholders: string[] = [];
  const salt = `zq${Math.random().toString(36).slice(2, 8)}`;
  if (html.includes(salt)) return null;
  let inEntity = false;
  const tokenized = html.replace(placeholderPattern(), (match: string, _key: string, _fallback: string | undefined, offset: number) => {
    if (/&[#A-Za-z0-9]*$/.test(html.slice(Math.max(0, offset - 12), offset))) inEntity = true; // part of an entity's name
    placeholders.push(match);
    return `${salt}${placeholders.length - 1}x`;
  });
  if (inEntity || placeholders.length === 0) return null;
  const text = htmlToText(tokenized);
  if (text === '') return null;
  const token = new RegExp(`${salt}(\\d+)x`, 'g');
  const parts = text.split(token); // text, index, text, index, ..., text
  const seen = parts.filter((_, i) => i % 2 === 1).map(Number);
  if (seen.length !== placeholders.length || new Set(seen).size !== placeholders.length) return null;
  return (vars) => {
    const values = placeholders.map((p) => renderForContact(p, vars)!);
    if (!values.every((v) => PLAIN_VALUE.test(v))) return undefined;
    let out = parts[0];
    for (let i = 1; i < parts.length; i += 2) out += values[Number(parts[i])] + parts[i + 1];
    return out;
  };
}
