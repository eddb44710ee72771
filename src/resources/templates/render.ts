/**
 * CONTRACT between modules (owned by the templates module; emails and
 * automations call it): resolving and rendering a published template
 * (docs/reference/resources.md#templates: placeholders `{{{KEY}}}` / `{{{KEY|fallback}}}`), and
 * the emulator's one placeholder engine, `fillPlaceholders` (broadcasts call
 * it for their per-contact rendering, docs/reference/resources.md#broadcasts).
 */
import type { Emulator } from '../../context.js';
import { templateMessages } from './messages.js';
import { getVersion, replyToString, templateOr404, type StoredVariable } from './store.js';

/** The published version of a template, ready to render. */
export interface PublishedTemplate {
  id: string;
  alias: string | null;
  from: string | null;
  subject: string | null;
  reply_to: string | null;
  html: string;
  text: string | null;
  variables: { key: string; type: string; fallback_value: string | number | boolean | null }[];
}

/**
 * The team's template by id or alias, in its published version. Throws
 * `ApiError` 404 if there is none, 422 `validation_error` if it was never published.
 * Draft edits made after publishing are not included (docs/reference/resources.md#templates).
 */
export function resolvePublishedTemplate(ctx: Emulator, teamId: string, idOrAlias: string): PublishedTemplate {
  const row = templateOr404(ctx, teamId, idOrAlias);
  if (!row.published_version_id) {
    throw templateMessages.notPublished(idOrAlias);
  }
  const v = getVersion(ctx, row.published_version_id);
  const vars = JSON.parse(v.variables) as StoredVariable[];
  return {
    id: row.id,
    alias: row.alias,
    from: v.from_addr,
    subject: v.subject,
    reply_to: replyToString(v.reply_to),
    html: v.html,
    text: v.text,
    variables: vars.map((x) => ({ key: x.key, type: x.type, fallback_value: (x.fallback_value ?? null) as string | number | boolean | null })),
  };
}

/**
 * The one placeholder grammar of the emulator (templates, broadcasts):
 * `{{{ KEY }}}` or `{{{ KEY | fallback }}}`, spaces around the key and the
 * fallback ignored. A key is `[A-Za-z0-9_]` — the documented key of a template
 * variable and of a contact property (docs/reference/resources.md#templates, contact-properties) —
 * optionally dotted (`contact.first_name`, a path into nested values). The
 * fallback runs to the closing braces and holds no `{` or `}`, so an unclosed
 * placeholder never swallows the next one. Anything else is plain text.
 */
const PLACEHOLDER = /\{\{\{\s*([A-Za-z0-9_.]+)\s*(?:\|([^{}]*))?\}\}\}/g;

/** A fresh global regex of the placeholder grammar above (its own `lastIndex`), for callers that split a text by placeholders. */
export function placeholderPattern(): RegExp {
  return new RegExp(PLACEHOLDER.source, 'g');
}

/** What `lookup` returns for a name the caller does not know: the placeholder stays as written. */
export const UNKNOWN_PLACEHOLDER: unique symbol = Symbol('unknown placeholder');

/**
 * How `fillPlaceholders` finds values. `lookup(key)` gives the value of a
 * key; `null` and `undefined` mean "no value", `UNKNOWN_PLACEHOLDER` means
 * "not a name of mine" (the placeholder is left untouched). `otherwise(key)`
 * gives the text for a key with no value and no inline fallback, or throws;
 * default: the empty string.
 */
export interface PlaceholderValues {
  lookup(key: string): unknown;
  otherwise?(key: string): string;
}

/**
 * Fills every placeholder of `source` (grammar above), unescaped (triple
 * braces). Per placeholder: the value from `values.lookup` (strings as they
 * are, numbers and booleans as `String()`, other values as JSON); without
 * one, the placeholder's own `|fallback` (trimmed); without that,
 * `values.otherwise(key)` (which may throw, e.g. 422 for a template variable
 * without a fallback). Used by template sends (`renderTemplate`) and
 * broadcasts (`renderForContact`); docs/reference/resources.md#templates; docs/reference/resources.md#broadcasts.
 */
export function fillPlaceholders(source: string, values: PlaceholderValues): string {
  return source.replace(PLACEHOLDER, (whole, key: string, inline: string | undefined) => fillOne(whole, key, inline, values));
}

/** The text of one placeholder (`whole` as written, its `key` and `|fallback`): `fillPlaceholders`' rule. */
function fillOne(whole: string, key: string, inline: string | undefined, values: PlaceholderValues): string {
  const value = values.lookup(key);
  if (value === UNKNOWN_PLACEHOLDER) return whole;
  if (value !== undefined && value !== null) return asText(value);
  if (inline !== undefined) return inline.trim();
  return values.otherwise ? values.otherwise(key) : '';
}

/**
 * `fillPlaceholders` of one `source` made once for many fills: the source is
 * split by its placeholders here, and each call joins the text between them
 * with each placeholder's text (the same rule, in the same order, so the
 * result is `fillPlaceholders(source, values)`). For a text filled once per
 * recipient (a broadcast's subject and html), so a large broadcast scans
 * each text once, not once a contact (docs/benchmarks.md#figures-behind-the-code).
 */
export function compilePlaceholders(source: string): (values: PlaceholderValues) => string {
  const texts: string[] = [];
  const slots: [whole: string, key: string, inline: string | undefined][] = [];
  const pattern = placeholderPattern();
  let last = 0;
  for (let m = pattern.exec(source); m !== null; m = pattern.exec(source)) {
    texts.push(source.slice(last, m.index));
    slots.push([m[0], m[1], m[2]]);
    last = m.index + m[0].length;
  }
  texts.push(source.slice(last));
  if (slots.length === 0) return () => source;
  return (values) => {
    let out = texts[0];
    for (let i = 0; i < slots.length; i++) out += fillOne(slots[i][0], slots[i][1], slots[i][2], values) + texts[i + 1];
    return out;
  };
}

/** Largest string value of a variable (docs/reference/resources.md#templates). */
export const MAX_VARIABLE_STRING = 2000;

/** A value by key, also through a dotted path into nested objects. */
function lookup(variables: Record<string, unknown>, key: string): unknown {
  if (Object.prototype.hasOwnProperty.call(variables, key)) return variables[key];
  if (!key.includes('.')) return undefined;
  let cur: unknown = variables;
  for (const part of key.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Fills a template's placeholders with `variables`, then each variable's
 * fallback. Throws `ApiError` 422 `validation_error` naming a variable that
 * has neither a value nor a fallback.
 *
 * Order for each placeholder: the value in `variables` (`null`/`undefined`
 * count as absent), then the placeholder's own `|fallback`, then the declared
 * variable's `fallback_value`. Values are inserted unescaped (triple braces).
 * String values over 2000 characters and numbers beyond 2^53−1 are rejected
 * with 422 (docs/reference/resources.md#templates). Placeholders are filled in subject, html and text.
 */
export function renderTemplate(
  tpl: PublishedTemplate,
  variables: Record<string, unknown>,
): { from: string | null; subject: string | null; reply_to: string | null; html: string; text: string | null } {
  for (const [key, value] of Object.entries(variables ?? {})) {
    if (typeof value === 'string' && value.length > MAX_VARIABLE_STRING) {
      throw templateMessages.valueTooLong(key, MAX_VARIABLE_STRING);
    }
    if (typeof value === 'number' && (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)) {
      throw templateMessages.valueOutOfRange(key);
    }
  }
  const declared = new Map(tpl.variables.map((v) => [v.key, v]));
  const values: PlaceholderValues = {
    lookup: (key) => lookup(variables ?? {}, key),
    otherwise: (key) => {
      const fb = declared.get(key)?.fallback_value;
      if (fb !== undefined && fb !== null) return asText(fb);
      throw templateMessages.missingValue(key);
    },
  };
  const fill = (source: string): string => fillPlaceholders(source, values);
  return {
    from: tpl.from,
    subject: tpl.subject === null ? null : fill(tpl.subject),
    reply_to: tpl.reply_to,
    html: fill(tpl.html),
    text: tpl.text === null ? null : fill(tpl.text),
  };
}
