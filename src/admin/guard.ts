/**
 * Who may use the admin API (`/_emulator/*`: DNS rebinding, cross-site
 * requests and `--admin-token`). Runs before any body is read; a refusal is an
 * `ApiError` in the service's error shape.
 *
 * Every `/_emulator` path except `GET /_emulator/health`:
 * 1. **Host** (DNS rebinding): the `Host` header's name must be a loopback
 *    name (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`), the bound
 *    address (`--host`), `--public-url`'s host, or an IP address (a page
 *    cannot rebind a name it does not use: an IP host is the page's own
 *    origin). Otherwise 403 `forbidden_host`. A request without `Host`
 *    (not a browser) passes.
 * 2. **Origin** (cross-site requests): an `Origin` header, when present,
 *    must be the emulator's own origin: `http(s)://` + the request's `Host`,
 *    or `--public-url`'s origin. Otherwise (another site, `null`) 403
 *    `forbidden_origin`. Browsers send it on every cross-origin request
 *    and on same-origin POSTs; curl, the SDK and test clients send none.
 * 3. **Token** (`config.adminToken`, `--admin-token`): when set, the request
 *    must carry it as `Authorization: Bearer TOKEN` or as the cookie
 *    `ADMIN_COOKIE` (which the inbox page sets once asked): else 401
 *    `missing_admin_token` / `invalid_admin_token`. Exempt, besides
 *    health: the inbox page itself and its script and stylesheet
 *    (`GET /_emulator/`, `/_emulator/assets/*`: they hold no data, and the
 *    page asks for the token), and the links the API hands out to others, each
 *    naming an unguessable id or token: attachment downloads
 *    (`download_url` of `GET /emails/{id}/attachments`, of received emails),
 *    a received email's `raw` download, and the unsubscribe link of a
 *    broadcast email.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Emulator } from '../context.js';
import { ApiError } from '../http/errors.js';

/** The cookie the inbox page keeps the admin token in (path `/_emulator`, SameSite=Strict). */
export const ADMIN_COOKIE = 'resend_emulator_admin_token';

/** Paths (of `GET`/`POST`) that need no admin token: the inbox page and the links handed out to others. */
const TOKEN_EXEMPT: { methods: string[]; path: RegExp }[] = [
  { methods: ['GET', 'HEAD'], path: /^\/_emulator\/?$/ },
  { methods: ['GET', 'HEAD'], path: /^\/_emulator\/assets\/[^/]+$/ },
  { methods: ['GET', 'HEAD'], path: /^\/_emulator\/emails\/[^/]+\/attachments\/[^/]+$/ },
  { methods: ['GET', 'HEAD'], path: /^\/_emulator\/inbound\/attachments\/[^/]+$/ },
  { methods: ['GET', 'HEAD'], path: /^\/_emulator\/inbound\/emails\/[^/]+\/raw$/ },
  { methods: ['GET', 'HEAD', 'POST'], path: /^\/_emulator\/unsubscribe\/[^/]+$/ },
];

/** The host name of a `Host` header or URL authority, lower-cased, without port or IPv6 brackets. */
function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith('[')) return a.slice(1, a.indexOf(']') > 0 ? a.indexOf(']') : undefined);
  const colon = a.lastIndexOf(':');
  return colon >= 0 && a.indexOf(':') === colon ? a.slice(0, colon) : a;
}

/** Whether `name` (from `hostName`) is a name the admin API answers to (rule 1). */
function hostAllowed(ctx: Emulator, name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0) return true;
  const bound = ctx.config.bindHost ? hostName(ctx.config.bindHost.includes(':') && !ctx.config.bindHost.startsWith('[') ? `[${ctx.config.bindHost}]` : ctx.config.bindHost) : '';
  if (bound && name === bound) return true;
  const pub = publicOrigin(ctx);
  return pub !== null && name === hostName(new URL(pub).host);
}

/** `--public-url`'s origin (`http://resend:4400`), or null when unset or unreadable. */
function publicOrigin(ctx: Emulator): string | null {
  if (!ctx.config.publicUrl) return null;
  try {
    return new URL(ctx.config.publicUrl).origin;
  } catch {
    return null;
  }
}

/** Whether `origin` is the emulator's own (rule 2). */
function originAllowed(ctx: Emulator, origin: string, host: string | undefined): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false; // `null` and anything unreadable
  }
  if (o.protocol !== 'http:' && o.protocol !== 'https:') return false;
  if (host !== undefined && o.host === host.trim().toLowerCase()) return true;
  return o.origin === publicOrigin(ctx);
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Compares two tokens in constant time (by their sha256). */
function sameToken(given: string, expected: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(given), h(expected));
}

/**
 * Checks one admin request against the rules above; throws the `ApiError`
 * of the first it breaks. `path` is the request path (`/_emulator/...`).
 */
function checkAdminRequest(ctx: Emulator, req: Pick<IncomingMessage, 'method' | 'headers'>, path: string): void {
  if (path === '/_emulator/health') return;
  const host = req.headers.host;
  if (host !== undefined && !hostAllowed(ctx, hostName(host))) {
    throw new ApiError(403, 'forbidden_host', `The admin API does not answer to the host \`${host}\`: use localhost, an IP address, the --host address or the --public-url host.`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(ctx, origin, host)) {
    throw new ApiError(403, 'forbidden_origin', `Cross-origin requests to the admin API are refused (Origin \`${origin}\`).`);
  }
  const token = ctx.config.adminToken;
  if (!token) return;
  if (TOKEN_EXEMPT.some((e) => e.methods.includes(req.method ?? '') && e.path.test(path))) return;
  const auth = req.headers.authorization;
  const bearer = auth !== undefined ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  const given = [bearer, cookie(req.headers.cookie, ADMIN_COOKIE)].filter((t): t is string => t !== undefined && t !== '');
  if (given.length === 0) {
    throw new ApiError(401, 'missing_admin_token', 'The admin API needs the admin token (--admin-token): send `Authorization: Bearer TOKEN`.');
  }
  if (!given.some((t) => sameToken(t, token))) throw new ApiError(401, 'invalid_admin_token', 'The admin token is invalid.');
}

/** `/_emulator` and the paths under it, in any case. */
const ADMIN_PATH = /^\/_emulator(\/|$)/i;

/**
 * The admin guard of the request pipeline (src/app.ts), before any body is
 * read: for a `/_emulator` path (`path` without query string; routing
 * ignores case, so does this check), throws the `ApiError` of the first
 * rule above the request breaks; other paths pass.
 */
export function adminGuard(ctx: Emulator): (req: Pick<IncomingMessage, 'method' | 'headers'>, path: string) => void {
  return (req, rawPath) => {
    // Every request passes here: only an admin path is lowercased.
    if (!ADMIN_PATH.test(rawPath)) return;
    checkAdminRequest(ctx, req, rawPath.toLowerCase());
  };
}
