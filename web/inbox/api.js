// @ts-check
/**
 * Calls of the admin API, and the admin token (`--admin-token`): asked once,
 * kept for the browser session in sessionStorage (sent as `Authorization` on
 * fetches) and in a session cookie on the admin path, SameSite=Strict (sent
 * by the EventSource, the Source tab and the download links, which cannot
 * set headers). Every path is relative to the page's `<base href>`
 * (`/_emulator/`, or `/PREFIX/_emulator/` when the app is mounted).
 */
import { $, input } from './dom.js';

/** The cookie's name (src/admin/guard.ts ADMIN_COOKIE, put in the page by the server). */
const TOKEN_COOKIE = document.querySelector('meta[name="admin-cookie"]')?.getAttribute('content') ?? '';
/** The admin API's root, from <base href>, without its final slash. */
const ADMIN_PATH = new URL('.', document.baseURI).pathname.replace(/\/$/, '');

/** The token of this session, if one was entered. */
function adminToken() { try { return sessionStorage.getItem('inbox.adminToken'); } catch { return null; } }
/** @param {string} token */
function keepToken(token) {
  try { sessionStorage.setItem('inbox.adminToken', token); } catch { /* storage off: the cookie still works */ }
  document.cookie = TOKEN_COOKIE + '=' + encodeURIComponent(token) + '; path=' + ADMIN_PATH + '; SameSite=Strict' + (location.protocol === 'https:' ? '; Secure' : '');
}
const saved = adminToken();
if (saved) keepToken(saved);

/** @type {Promise<void> | null} */
let asking = null;
/**
 * Shows the token form (once for all the requests that were refused); resolves when a token was entered.
 * @param {boolean} refused a token was given and refused
 */
function askToken(refused) {
  if (asking) return asking;
  asking = new Promise((resolve) => {
    $('#token-error').hidden = !refused;
    $('#token-gate').hidden = false;
    input('#token-input').focus();
    $('#token-form').onsubmit = (ev) => {
      ev.preventDefault();
      keepToken(input('#token-input').value.trim());
      $('#token-gate').hidden = true;
      asking = null;
      resolve();
    };
  });
  return asking;
}

/** An error answer of the API: its message, and the HTTP status. @typedef {Error & { status: number }} ApiError */

/**
 * A JSON call of the admin API (`path` relative to the page's base); asks
 * for the admin token on a 401 `*_admin_token` and tries again. The caller
 * names the answer's type (a type of types.js) with a JSDoc cast.
 * @param {string} path
 * @param {{ method?: string, json?: unknown }} [opts] `json`: a body sent as application/json
 * @returns {Promise<any>} the parsed body; rejects with an ApiError
 */
export async function api(path, opts = {}) {
  const token = adminToken();
  /** @type {Record<string, string>} */
  const headers = {};
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = 'Bearer ' + token;
  const r = await fetch(path, { method: opts.method, body: opts.json === undefined ? undefined : JSON.stringify(opts.json), headers });
  const t = await r.text();
  /** @type {any} */
  let body = null;
  try { body = t ? JSON.parse(t) : null; } catch { body = t; }
  if (r.status === 401 && body && (body.name === 'missing_admin_token' || body.name === 'invalid_admin_token')) {
    await askToken(body.name === 'invalid_admin_token');
    return api(path, opts);
  }
  if (!r.ok) throw Object.assign(new Error((body && body.message) || ('HTTP ' + r.status)), { status: r.status });
  return body;
}

/** The status of an error of `api()` (0 for another error). @param {unknown} e */
export function statusOf(e) { return e && typeof e === 'object' && 'status' in e && typeof e.status === 'number' ? e.status : 0; }
/** The message of an error. @param {unknown} e */
export function messageOf(e) { return e instanceof Error ? e.message : String(e); }
