/**
 * The inbox page and what feeds it (docs/reference/design.md#admin-api; no auth):
 * | operationId | rule |
 * |---|---|
 * | admin/inbox | `GET /_emulator/`: the inbox page, web/inbox/index.html (no CDN, no build step; native ES modules), its `<base href>` the admin API's root under the app's mount path (`/_emulator/`, `/resend/_emulator/`) |
 * | admin/inbox-asset | `GET /_emulator/assets/{file}`: the page's ES modules and stylesheet (web/inbox/*.js, inbox.css; the entry module is inbox.js), served by `send` with their content types, `ETag`, `Last-Modified` and an hour of `Cache-Control`; another name 404 |
 * | admin/list-teams | `GET /_emulator/teams`: `{object: "list", data: [{id, name, owner_email, created_at}]}`, oldest first, for the team switcher |
 * | admin/events | `GET /_emulator/events`: a server-sent events stream of `ctx.bus`: `email` `{id}`, `delivery` `{id}`, `inbound` `{id}` (a received email), `change` `{team_id, operation}` (an API write answered with success: the dashboard views reload), `clock` `{now, mode}`, `reset` `{}`; first a `hello` `{now, mode}`; a `: ping` comment every 15 s (wall clock) keeps proxies from closing it |
 * The page reads `/_emulator/emails` (admin emails module),
 * `/_emulator/webhook-deliveries`, `/_emulator/clock`, the dashboard views
 * `/_emulator/teams/{id}/...` (src/admin/dashboard.ts), posts to
 * `/_emulator/clock/advance`, `.../webhook-deliveries/{id}/replay` and
 * `/_emulator/emails/{id}/release`, and deletes `/_emulator/emails/{id}` and
 * `/_emulator/emails?team_id=`.
 */
import fs from 'node:fs';
import type { Emulator } from '../context.js';
import type { BusEvent, BusListener } from '../bus.js';
import { listTeams as allTeams } from '../state/teams.js';
import type { ResponseInfo } from '../module.js';
import { HANDLED, Reply, type ResourceModule } from '../module.js';
import { isoTime } from '../http/format.js';
import type { Answer, OperationHandlers, Req } from '../http/document-types.js';
import { errors } from '../http/errors.js';
import { writeJson } from '../http/pipeline.js';
import { lazy, requirePackage } from '../lazy.js';
import { ADMIN_COOKIE } from './guard.js';
import { inboxAsset, inboxPage } from './inbox-page.js';

/** Wall-clock interval of the SSE keep-alive comment, ms. */
export const SSE_PING_MS = 15_000;

/** The page for a request: its `<base href>` is the admin API's root under the mount path (express's `req.baseUrl`). */
function page(_ctx: Emulator, req: Req<'admin/inbox'>): Answer<'admin/inbox'> {
  const mountPath = req.raw.baseUrl ?? '';
  const html = inboxPage().replace('%BASE%', `${mountPath}/_emulator/`).replace('%ADMIN_COOKIE%', ADMIN_COOKIE);
  return new Reply(200, html, { 'cache-control': 'no-store', 'x-frame-options': 'DENY' }, 'text/html; charset=utf-8');
}

/** The page's files that `GET /_emulator/assets/{file}` serves: the modules and the stylesheet of web/inbox/ (read once). */
const ASSETS = lazy((): Set<string> => new Set(fs.readdirSync(inboxAsset('')).filter((f) => /^[a-z][a-z0-9-]*\.(js|css)$/.test(f))));

/** Seconds a browser may keep an asset without asking again (then `If-None-Match`). */
const ASSET_MAX_AGE_S = 3600;

/** An asset of the page, streamed by `send` (conditional requests, ranges, content types); 404 `not_found` for any other name. */
function asset(_ctx: Emulator, req: Req<'admin/inbox-asset'>): Answer<'admin/inbox-asset'> {
  const file = req.params.file;
  if (!ASSETS().has(file)) throw errors.notFound('Asset');
  const send = requirePackage<typeof import('send')>('send');
  const res = req.response;
  send(req.raw, file, { root: inboxAsset(''), maxAge: ASSET_MAX_AGE_S * 1000, dotfiles: 'deny', index: false })
    .on('error', (err: { status?: number }) => {
      if (!res.headersSent) writeJson(req.raw, res, err.status ?? 404, {}, errors.notFound('Asset').toJSON());
    })
    .pipe(res);
  return HANDLED;
}

function listTeams(ctx: Emulator): Answer<'admin/list-teams'> {
  const rows = allTeams(ctx.db);
  return { object: 'list', data: rows.map((r) => ({ id: r.id, name: r.name, owner_email: r.owner_email, created_at: isoTime(r.created_at) })) };
}

/**
 * Streams bus notifications as server-sent events until the client goes
 * away or the server closes. Writes the response itself (returns `HANDLED`).
 */
function events(ctx: Emulator, req: Req<'admin/events'>): Answer<'admin/events'> {
  const res = req.response;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => {
    if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  res.write('retry: 2000\n\n');
  const clockData = () => ({ now: isoTime(ctx.clock.nowMs()), mode: ctx.clock.mode });
  send('hello', clockData());
  // Every event of the bus but `close` (which ends the stream), relayed under its own name.
  const listeners: { [K in Exclude<BusEvent, 'close'>]: BusListener<K> } = {
    email: (id) => send('email', { id }),
    delivery: (id) => send('delivery', { id }),
    inbound: (id) => send('inbound', { id }),
    change: (data) => send('change', data),
    clock: () => send('clock', clockData()),
    reset: () => send('reset', {}),
  };
  const names = Object.keys(listeners) as (keyof typeof listeners)[];
  for (const name of names) ctx.bus.on(name, listeners[name] as BusListener<typeof name>);
  const ping = setInterval(() => {
    if (!res.writableEnded) res.write(': ping\n\n');
  }, SSE_PING_MS);
  ping.unref();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    for (const name of names) ctx.bus.off(name, listeners[name] as BusListener<typeof name>);
    ctx.bus.off('close', close);
    if (!res.writableEnded) res.end();
  };
  req.raw.on('close', close);
  res.on('close', close);
  ctx.bus.once('close', close);
  return HANDLED;
}

export const inboxModule: ResourceModule = {
  name: 'admin-inbox',
  operations: {
    'admin/inbox': page,
    'admin/inbox-asset': asset,
    'admin/list-teams': listTeams,
    'admin/events': events,
  } satisfies OperationHandlers,
  /** A successful API write (not GET) → bus `change` `{team_id, operation}`, relayed to the page. */
  onResponse(ctx: Emulator, info: ResponseInfo) {
    if (info.method === 'GET' || info.status >= 400 || !info.auth) return;
    ctx.bus.emit('change', { team_id: info.auth.teamId, operation: info.operationId });
  },
};
