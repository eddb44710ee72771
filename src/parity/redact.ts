/**
 * What a HAR must never carry before it is written or shared: the API key
 * and any other secret. docs/parity.md "Sending a difference" tells users
 * what is removed and what to check by hand.
 */
import type { ParityEntry } from './har.js';

/** Request and response headers dropped from a HAR (the key travels in `authorization`; `_auth` keeps only how the call was authorised). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** JSON keys whose string values are secrets: an API key's `token`, a webhook's `signing_secret`, passwords. */
const SECRET_KEY = /token|secret|password|api_?key/i;

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Texts that are secrets wherever they appear: the service's API keys (`re_…`) and webhook signing secrets (`whsec_…`). */
const SECRET_TEXT = /\b(?:re|whsec)_[A-Za-z0-9_+/=-]{6,}/g;

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && typeof v === 'string' ? REDACTED : redactJson(v)]),
    );
  }
  return value;
}

/** A body with its secrets replaced: JSON keys named like secrets, then every `re_…` / `whsec_…` text and every one of `secrets`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  try {
    out = JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    // Not JSON: the text sweeps below still apply.
  }
  for (const s of secrets) if (s) out = out.split(s).join(REDACTED);
  return out.replace(SECRET_TEXT, REDACTED);
}

/**
 * A copy of `entry` safe to write: no `authorization` (nor cookie) header,
 * secrets replaced in the URL, the headers left and both bodies
 * (`redactText`), and every one of `secrets` (the keys of the run) wherever
 * it appears.
 */
export function redactEntry(entry: ParityEntry, secrets: readonly string[] = []): ParityEntry {
  const headers = (list: { name: string; value: string }[]) =>
    list.filter((h) => !SECRET_HEADERS.has(h.name.toLowerCase())).map((h) => ({ ...h, value: redactText(h.value, secrets) }));
  const copy: ParityEntry = structuredClone(entry);
  copy.request.url = redactText(copy.request.url, secrets);
  copy.request.headers = headers(copy.request.headers);
  copy.request.queryString = copy.request.queryString.map((q) => ({ ...q, value: redactText(q.value, secrets) }));
  if (copy.request.postData?.text !== undefined) copy.request.postData.text = redactText(copy.request.postData.text, secrets);
  copy.response.headers = headers(copy.response.headers);
  if (copy.response.content.text !== undefined) copy.response.content.text = redactText(copy.response.content.text, secrets);
  return copy;
}
