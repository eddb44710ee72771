/**
 * In-process interception of `https://api.resend.com` for Node 
 * (docs/https-and-interception.md#code-that-calls-apiresendcom-directly): code that hard-codes the URL (a
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
 * (no port, no certificate): a `node:http` server that never listens is
 * handed an in-memory connection (its documented `'connection'` event
 * takes any Duplex), and Node's own `ClientRequest` writes the request on
 * the other end, so the app sees a real `IncomingMessage` and
 * `ServerResponse`. (`light-my-request` was tried and left: on an express
 * app it rewrites express's shared request and response prototypes, which
 * breaks the same app's real HTTP listener.) With only `target.url`, a
 * request is forwarded there with `fetch`. Requests to any other host are
 * not touched.
 */
import http, { type IncomingMessage, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { lazy, requirePackage } from './lazy.js';
import { findContext } from './internals.js';

// Loaded on the first interception only (most users of the package never intercept; start-up speed).
const interceptors = lazy(() => ({
  BatchInterceptor: requirePackage<typeof import('@mswjs/interceptors')>('@mswjs/interceptors').BatchInterceptor,
  ClientRequestInterceptor: requirePackage<typeof import('@mswjs/interceptors/ClientRequest')>('@mswjs/interceptors/ClientRequest').ClientRequestInterceptor,
  FetchInterceptor: requirePackage<typeof import('@mswjs/interceptors/fetch')>('@mswjs/interceptors/fetch').FetchInterceptor,
}));

// Node's own client, kept before any interception replaces `http.ClientRequest`, writes requests into the app.
const { ClientRequest } = http;

/** The host whose requests are routed to the emulator. */
export const RESEND_API_HOST = 'api.resend.com';

/**
 * What `interceptResendApi` routes to: an emulator as `startServer()` or
 * `createApp()` gives it. `app` (a node request listener; an express app is
 * one) is called in-process; else requests are forwarded to `url`. When
 * the target is an emulator this process made (`startServer()`,
 * `createApp()`), its `close()` ends the interception.
 */
export interface InterceptTarget {
  app?: RequestListener;
  url?: string;
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

/**
 * Two connected in-memory Duplex streams: what one writes, the other reads
 * (`stream.duplexPair` is Node 22.6+; this package supports Node 20).
 */
function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  for (let i = 0; i < 2; i++) {
    ends.push(
      new Duplex({
        read() {},
        write(chunk, _encoding, callback) {
          ends[1 - i].push(chunk);
          callback();
        },
        final(callback) {
          ends[1 - i].push(null);
          callback();
        },
      }),
    );
  }
  // What the app may read of its connection: a local peer.
  Object.assign(ends[1], { remoteAddress: '127.0.0.1', remotePort: 0, remoteFamily: 'IPv4', localAddress: '127.0.0.1', localPort: 443, encrypted: true });
  return [ends[0], ends[1]];
}

/** A server that never listens: each call is one in-memory connection to `app`. */
function inProcess(app: RequestListener): (request: Request, url: URL) => Promise<Response> {
  const server = http.createServer(app);
  return async (request, url) => {
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : null;
    const headers: [string, string][] = [];
    request.headers.forEach((value, name) => {
      if (name !== 'host' && name !== 'connection' && name !== 'content-length' && name !== 'transfer-encoding') headers.push([name, value]);
    });
    headers.push(['host', RESEND_API_HOST], ['connection', 'close'], ['content-length', String(body?.length ?? 0)]);
    const [clientEnd, serverEnd] = duplexPair();
    server.emit('connection', serverEnd);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = new ClientRequest({ method: request.method, path: url.pathname + url.search, headers: headers.flat(), setHost: false, createConnection: () => clientEnd as never });
      req.on('response', resolve);
      req.on('error', reject);
      req.end(body ?? undefined);
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const out = new Headers();
    for (let k = 0; k < res.rawHeaders.length; k += 2) {
      const name = res.rawHeaders[k].toLowerCase();
      if (name !== 'connection' && name !== 'transfer-encoding' && name !== 'keep-alive') out.append(name, res.rawHeaders[k + 1]);
    }
    const status = res.statusCode ?? 500;
    return new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: out });
  };
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
  const viaApp = typeof app === 'function' ? inProcess(app) : null;
  const { BatchInterceptor, ClientRequestInterceptor, FetchInterceptor } = interceptors();
  const interceptor = new BatchInterceptor({
    name: 'resend-emulator',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  });
  interceptor.on('request', async ({ request, controller }) => {
    const url = new URL(request.url);
    if (!isResendApi(url)) return; // not ours: the request goes out as it would have
    try {
      controller.respondWith(viaApp ? await viaApp(request, url) : await viaUrl(base!, request, url));
    } catch {
      controller.respondWith(Response.error());
    }
  });
  interceptor.apply();
  let restored = false;
  // An emulator of this process ends the interception when it closes (its bus's `close` event, src/internals.ts).
  const bus = findContext(target)?.bus;
  const restore = () => {
    if (restored) return;
    restored = true;
    bus?.off('close', restore);
    interceptor.dispose();
  };
  bus?.once('close', restore);
  return { restore };
}
