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
 * templates module's `fillPlaceholders`; this file only says where a
 * contact's values come from.
 */
import type { Contact } from '../contacts/service.js';
import { fillPlaceholders, UNKNOWN_PLACEHOLDER } from '../templates/service.js';

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
  return fillPlaceholders(template, {
    lookup: (key) => {
      const value = lookup(key, vars);
      return value === '' ? undefined : value;
    },
  });
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
