/**
 * In-process interception of `https://api.resend.com` for Node (README "Code
 * that calls api.resend.com directly"): code that hard-codes the URL (a
 * `fetch` in Auth.js's Resend provider, `node:https` in older clients)
 * reaches the emulator with its own code unchanged.
 *
 * ```ts
 * import { startServer, interceptResendApi } from 'resend-emulator';
 * const emu = await startServer();
 * const interception = interceptResendApi(emu);   // global fetch and node:http(s)
 * // ... code that POSTs to https://api.resend.com/emails ...
 * interception.restore();                          // or emu.close()
 * ```
 *
 * Requests are caught by `@mswjs/interceptors` (its `FetchInterceptor`
 * replaces global `fetch`, its `ClientRequestInterceptor` covers
 * `node:http`/`node:https`, and both are undone by `dispose()`): one
 * well-kept library for both ways Node code sends, where undici's
 * `MockAgent` would cover `fetch` only. With the emulator in the same
 * process (`target.app`), a request goes straight into its request listener
 * through `light-my-request` (no port, no certificate); with only
 * `target.url`, it is forwarded there with `fetch`. Requests to any other
 * host are not touched.
 */
import type { RequestListener } from 'node:http';
import type { EventEmitter } from 'node:events';
import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import inject from 'light-my-request';

/** The host whose requests are routed to the emulator. */
export const RESEND_API_HOST = 'api.resend.com';

/**
 * What `interceptResendApi` routes to: an emulator as `startServer()` or
 * `createApp()` gives it. `app` (a node request listener; an express app is
 * one) is called in-process; else requests are forwarded to `url`. When
 * `ctx.bus` is there (a running emulator), its `close` event ends the
 * interception.
 */
export interface InterceptTarget {
  app?: RequestListener;
  url?: string;
  ctx?: { bus: EventEmitter };
}

/** A running interception. */
export interface ResendApiInterception {
  /** Puts global `fetch` and `node:http(s)` back as they were. Safe to call twice. */
  restore(): void;
}

/** Statuses whose response has no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function isResendApi(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === RESEND_API_HOST && (url.port === '' || url.port === '443');
}

/** Runs a caught request through `app` in-process and returns its response. */
async function viaApp(app: RequestListener, request: Request, url: URL): Promise<Response> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host = RESEND_API_HOST;
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const res = await inject(app as Parameters<typeof inject>[0], {
    method: request.method as 'GET',
    url: url.pathname + url.search,
    headers,
    ...(body && body.length ? { payload: body } : {}),
    remoteAddress: '127.0.0.1',
  });
  const out = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
  }
  return new Response(NULL_BODY.has(res.statusCode) ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, statusText: res.statusMessage, headers: out });
}

/** Forwards a caught request to `base` (same path and query) and returns its response. */
async function viaUrl(base: string, request: Request, url: URL): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete('host');
  const body = request.body ? await request.arrayBuffer() : undefined;
  const res = await fetch(base.replace(/\/+$/, '') + url.pathname + url.search, { method: request.method, headers, body, redirect: 'manual' });
  const out = new Headers(res.headers);
  // fetch has already decoded the body.
  out.delete('content-encoding');
  out.delete('content-length');
  return new Response(NULL_BODY.has(res.status) ? null : await res.arrayBuffer(), { status: res.status, statusText: res.statusText, headers: out });
}

/**
 * Routes every request this process makes to `https://api.resend.com`
 * (global `fetch`, `node:http`, `node:https`) to `target`: into
 * `target.app` in-process when it has one, else to `target.url`. Other hosts
 * pass through untouched. Ends with `restore()` or the emulator's
 * `close()`. Throws a TypeError when `target` has neither `app` nor `url`.
 * A request the emulator cannot answer (its app throws, `url` unreachable)
 * fails in the caller as a network error, as a failed connection would.
 */
export function interceptResendApi(target: InterceptTarget): ResendApiInterception {
  const app = target.app;
  const base = target.url;
  if (typeof app !== 'function' && typeof base !== 'string') {
    throw new TypeError('interceptResendApi: expected an emulator (what startServer() or createApp() returns), with an app or a url');
  }
  const interceptor = new BatchInterceptor({
    name: 'resend-emulator',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  });
  interceptor.on('request', async ({ request, controller }) => {
    const url = new URL(request.url);
    if (!isResendApi(url)) return; // not ours: the request goes out as it would have
    try {
      controller.respondWith(typeof app === 'function' ? await viaApp(app, request, url) : await viaUrl(base!, request, url));
    } catch {
      controller.respondWith(Response.error());
    }
  });
  interceptor.apply();
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    target.ctx?.bus.off('close', restore);
    interceptor.dispose();
  };
  target.ctx?.bus.once('close', restore);
  return { restore };
}
