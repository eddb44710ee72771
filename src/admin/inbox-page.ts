/**
 * The inbox page served at `GET /_emulator/` (src/admin/inbox.ts): one
 * self-contained HTML document, inline CSS and JS, no CDN, no build step.
 *
 * What it shows, for the selected team (a dashboard, read-only but for
 * replay and the clock): sent emails newest first with the search language
 * (`q`), an email's HTML in a sandboxed iframe (`sandbox=""`, `srcdoc`) at
 * 375 / 768 px or full width beside its text, its one-time codes and links,
 * its raw source (Source tab, `.eml` download), headers, attachments, tags
 * and event timeline; received emails (content, attachments, source);
 * webhook deliveries with payload, headers, attempts and a Replay button;
 * domains (DNS records with statuses, claim); contacts (segments, topics,
 * properties); broadcasts (status, recipient counts); automation runs (each
 * step with status, times, output or error); the emulated clock with an
 * advance control; a team switcher. Updates come over server-sent events
 * (`/_emulator/events`: email, delivery, inbound, change, clock, reset)
 * without reload.
 *
 * Data: `GET /_emulator/emails?team_id=&q=` (admin emails module; the page
 * says so when that API is absent), `GET /_emulator/emails/{id}/raw`,
 * `GET /_emulator/webhook-deliveries`, `GET /_emulator/teams/{id}/{view}`
 * (src/admin/dashboard.ts), `GET /_emulator/teams`, `GET /_emulator/clock`. Every value from the
 * store is put in the page as text (never as markup); only the email's own
 * HTML is rendered, inside the sandboxed iframe, which runs no script.
 * The inline script uses no template literals, so this file can hold it in
 * one (its one substitution is the admin token cookie's name).
 * With `--admin-token`, the first refused request (401 `*_admin_token`)
 * shows a form asking for the token; it is kept in sessionStorage (sent as
 * `Authorization: Bearer`) and in a session cookie on `/_emulator`
 * (SameSite=Strict; what the EventSource and the links send).
 */
import { ADMIN_COOKIE } from './guard.js';

export const INBOX_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inbox · resend-emulator</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%23111827'/%3E%3Ctext x='16' y='23' font-family='system-ui,sans-serif' font-size='20' font-weight='800' text-anchor='middle' fill='%23fff'%3ER%3C/text%3E%3C/svg%3E">
<style>
  :root {
    --bg: #f6f7f9; --panel: #ffffff; --ink: #16181d; --muted: #667085; --line: #e4e7ec;
    --accent: #111827; --sel: #eef2ff; --sel-line: #6366f1;
    --ok: #067647; --ok-bg: #ecfdf3; --warn: #b54708; --warn-bg: #fffaeb;
    --bad: #b42318; --bad-bg: #fef3f2; --info: #175cd3; --info-bg: #eff8ff; --grey-bg: #f2f4f7;
    --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
  }
  * { box-sizing: border-box; }
  [hidden] { display: none !important; }
  html, body { height: 100%; margin: 0; }
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); display: flex; flex-direction: column; }
  /* The header is one row of 56px when it fits (1280px and up) and wraps into more rows when it does not. */
  header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding: 10px 20px; min-height: 56px; background: var(--accent); color: #fff; flex: none; }
  header > div { display: flex; align-items: center; white-space: nowrap; min-width: 0; }
  header .brand { font-weight: 650; letter-spacing: .2px; font-size: 15px; display: flex; align-items: center; gap: 8px; }
  header .brand .logo { width: 22px; height: 22px; border-radius: 6px; background: #fff; color: var(--accent); display: grid; place-items: center; font-weight: 800; font-size: 13px; }
  header .spacer { flex: 1; }
  header label { font-size: 12px; color: #c7cbd3; margin-right: 6px; }
  header select { width: clamp(160px, 19vw, 300px); text-overflow: ellipsis; }
  header select, header input { font: inherit; font-size: 13px; border-radius: 6px; border: 1px solid #374151; background: #1f2937; color: #fff; padding: 5px 8px; }
  header input { width: 90px; }
  header button { font: inherit; font-size: 13px; border-radius: 6px; border: 1px solid #4b5563; background: #374151; color: #fff; padding: 5px 10px; cursor: pointer; }
  header button:hover { background: #4b5563; }
  .clock { display: flex; flex-wrap: wrap; justify-content: flex-end; align-items: center; gap: 6px; margin-left: auto; }
  .clock .now { font-family: var(--mono); font-size: 13px; background: #1f2937; padding: 5px 8px; border-radius: 6px; }
  .live { flex: none; width: 8px; height: 8px; border-radius: 50%; background: #9ca3af; display: inline-block; }
  .live.on { background: #22c55e; box-shadow: 0 0 0 3px rgba(34,197,94,.25); }
  main { flex: 1; display: flex; min-height: 0; }
  aside { width: 380px; flex: none; background: var(--panel); border-right: 1px solid var(--line); display: flex; flex-direction: column; min-height: 0; }
  .tabs { display: flex; border-bottom: 1px solid var(--line); padding: 0 12px; }
  .tabs button { font: inherit; border: 0; background: none; padding: 12px 10px; color: var(--muted); cursor: pointer; border-bottom: 2px solid transparent; margin-bottom: -1px; font-weight: 550; }
  .tabs button.active { color: var(--ink); border-bottom-color: var(--ink); }
  .tabs .count { font-size: 11px; background: var(--grey-bg); color: var(--muted); border-radius: 10px; padding: 1px 7px; margin-left: 4px; }
  .search { padding: 10px 12px; border-bottom: 1px solid var(--line); }
  .search input, .search select { width: 100%; font: inherit; padding: 7px 10px; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); }
  .search .row { display: flex; gap: 8px; }
  .list { overflow: auto; flex: 1; }
  .item { padding: 11px 14px; border-bottom: 1px solid var(--line); cursor: pointer; border-left: 3px solid transparent; }
  .item:hover { background: #fafbfc; }
  .item.selected { background: var(--sel); border-left-color: var(--sel-line); }
  .item .top { display: flex; justify-content: space-between; gap: 8px; align-items: baseline; }
  .item .who { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .item .when { color: var(--muted); font-size: 12px; white-space: nowrap; }
  .item .subject { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .item .meta { display: flex; gap: 6px; align-items: center; color: var(--muted); font-size: 12px; margin-top: 2px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .empty { color: var(--muted); padding: 28px 18px; text-align: center; }
  .badge { display: inline-block; font-size: 11px; font-weight: 600; border-radius: 10px; padding: 1px 8px; background: var(--grey-bg); color: var(--muted); white-space: nowrap; }
  .badge.ok { background: var(--ok-bg); color: var(--ok); }
  .badge.warn { background: var(--warn-bg); color: var(--warn); }
  .badge.bad { background: var(--bad-bg); color: var(--bad); }
  .badge.info { background: var(--info-bg); color: var(--info); }
  section#detail { flex: 1; overflow: auto; padding: 22px 26px; min-width: 0; }
  .placeholder { color: var(--muted); display: grid; place-items: center; height: 100%; text-align: center; }
  h1 { font-size: 20px; margin: 0 0 6px; font-weight: 650; }
  h1.mono { font-size: 18px; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .6px; color: var(--muted); margin: 24px 0 8px; font-weight: 650; }
  .card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; }
  .kv { display: grid; grid-template-columns: 100px 1fr; gap: 3px 14px; padding: 12px 16px; margin: 0; }
  .kv dt { color: var(--muted); }
  .kv dd { margin: 0; word-break: break-word; }
  .mono { font-family: var(--mono); font-size: 12.5px; }
  .split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 14px; }
  .pane { display: flex; flex-direction: column; min-width: 0; }
  .pane .label { font-size: 12px; color: var(--muted); padding: 8px 12px; border-bottom: 1px solid var(--line); display: flex; justify-content: space-between; }
  iframe#email-html, iframe.html { width: 100%; height: 380px; border: 0; background: #fff; }
  pre { margin: 0; padding: 12px 14px; white-space: pre-wrap; word-break: break-word; font-family: var(--mono); font-size: 12.5px; line-height: 1.5; }
  pre#email-text { height: 380px; overflow: auto; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: 8px 14px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-size: 12px; color: var(--muted); font-weight: 600; background: #fafbfc; }
  tr:last-child td { border-bottom: 0; }
  table.pairs td:first-child { width: 32%; color: var(--muted); }
  .timeline { list-style: none; margin: 0; padding: 12px 16px; }
  .timeline li { display: flex; gap: 12px; align-items: center; padding: 5px 0; }
  .timeline .dot { width: 9px; height: 9px; border-radius: 50%; background: var(--sel-line); flex: none; }
  .actions { display: flex; gap: 8px; align-items: center; margin-top: 10px; }
  .btn { font: inherit; font-weight: 600; border-radius: 8px; border: 1px solid var(--ink); background: var(--ink); color: #fff; padding: 7px 14px; cursor: pointer; }
  .btn:disabled { opacity: .5; cursor: default; }
  .note { color: var(--muted); font-size: 12px; }
  a { color: var(--info); }
  nav.views { display: flex; flex-wrap: wrap; gap: 2px; padding: 0 16px; background: var(--panel); border-bottom: 1px solid var(--line); flex: none; }
  nav.views button { font: inherit; border: 0; background: none; padding: 11px 10px; color: var(--muted); cursor: pointer; border-bottom: 2px solid transparent; margin-bottom: -1px; font-weight: 550; }
  nav.views button.active { color: var(--ink); border-bottom-color: var(--ink); }
  nav.views .count { font-size: 11px; background: var(--grey-bg); color: var(--muted); border-radius: 10px; padding: 1px 7px; margin-left: 4px; }
  .seg { display: inline-flex; border: 1px solid var(--line); border-radius: 7px; overflow: hidden; }
  .seg button { font: inherit; font-size: 12px; border: 0; background: var(--panel); color: var(--muted); padding: 3px 9px; cursor: pointer; }
  .seg button + button { border-left: 1px solid var(--line); }
  .seg button.active { background: var(--ink); color: #fff; }
  .toolbar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin: 24px 0 8px; }
  .toolbar h2 { margin: 0; }
  .frame-box { overflow: auto; background: #eef0f3; border-radius: 0 0 10px 10px; }
  .frame-box iframe { display: block; margin: 0 auto; }
  pre.source { max-height: 520px; overflow: auto; }
  .chips { display: flex; flex-wrap: wrap; gap: 6px; padding: 12px 16px; }
  .chip { font-family: var(--mono); font-size: 13px; background: var(--info-bg); color: var(--info); border-radius: 6px; padding: 3px 9px; font-weight: 600; }
  .links { margin: 0; padding: 10px 16px 10px 34px; font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
  .stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 10px; }
  .stat { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
  .stat .n { font-size: 22px; font-weight: 650; }
  .stat .l { color: var(--muted); font-size: 12px; }
  td.value { font-family: var(--mono); font-size: 12px; word-break: break-all; }
  .toast { position: fixed; bottom: 16px; right: 16px; background: var(--ink); color: #fff; padding: 9px 14px; border-radius: 8px; font-size: 13px; opacity: 0; transition: opacity .2s; pointer-events: none; }
  .toast.show { opacity: .95; }
  .usage { color: var(--muted); font-size: 12px; white-space: nowrap; }
  .gate { position: fixed; inset: 0; background: rgba(17, 24, 39, .55); display: flex; align-items: center; justify-content: center; z-index: 10; }
  .gate[hidden] { display: none; }
  .gate form { background: var(--panel); border-radius: 12px; padding: 22px 24px; width: min(420px, 92vw); box-shadow: 0 12px 40px rgba(0, 0, 0, .25); }
  .gate h2 { margin: 0 0 8px; font-size: 17px; }
  .gate p { color: var(--muted); font-size: 13px; margin: 0 0 14px; }
  .gate input { width: 100%; box-sizing: border-box; margin-bottom: 12px; }
  .gate .error { color: var(--bad); margin: 0 0 10px; }
</style>
</head>
<body>
<header>
  <div class="brand"><span class="logo">R</span> resend-emulator <span style="color:#9ca3af;font-weight:500">· inbox</span></div>
  <span class="live" id="live" title="live updates"></span>
  <div class="spacer"></div>
  <div class="team"><label for="team-select">Team</label><select id="team-select" data-testid="team-select"></select></div>
  <span class="usage" id="usage" data-testid="usage" title="Emails used today and this month, contacts (GET /usage; limits of --plan)"></span>
  <div class="clock">
    <label>Clock</label>
    <span class="now" id="clock-now" data-testid="clock-now">…</span>
    <span class="badge" id="clock-mode"></span>
    <button data-advance="5s">+5s</button>
    <button data-advance="1m">+1m</button>
    <button data-advance="1h">+1h</button>
    <input id="advance-input" data-testid="advance-input" placeholder="e.g. 10m" aria-label="advance by">
    <button id="advance-button" data-testid="advance-button">Advance</button>
  </div>
</header>
<nav class="views tabs" data-testid="views">
  <button data-tab="emails" class="active">Emails <span class="count" id="count-emails">0</span></button>
  <button data-tab="received">Received <span class="count" id="count-received">0</span></button>
  <button data-tab="deliveries">Webhooks <span class="count" id="count-deliveries">0</span></button>
  <button data-tab="domains">Domains <span class="count" id="count-domains">0</span></button>
  <button data-tab="contacts">Contacts <span class="count" id="count-contacts">0</span></button>
  <button data-tab="broadcasts">Broadcasts <span class="count" id="count-broadcasts">0</span></button>
  <button data-tab="runs">Automation runs <span class="count" id="count-runs">0</span></button>
</nav>
<main>
  <aside>
    <div class="search">
      <div class="row" id="search-emails"><input id="search" data-testid="search" type="search" placeholder="Search: from:ada subject:&quot;reset&quot; is:bounced -tag:x…" title="from: to: subject: tag:name[:value] has:attachment is:event before:/after:2026-11-22, &quot;phrases&quot;, -term"></div>
      <div class="row" id="search-other" hidden><input id="search-other-input" data-testid="search-other" type="search" placeholder="Filter…"></div>
      <div class="row" id="search-deliveries" hidden>
        <input id="search-type" type="search" placeholder="Event type…">
        <select id="search-status" aria-label="status">
          <option value="">Any status</option><option>pending</option><option>succeeded</option><option>failed</option><option>recorded</option><option>cancelled</option>
        </select>
      </div>
    </div>
    <div class="list" id="list" data-testid="list"></div>
  </aside>
  <section id="detail" data-testid="detail"><div class="placeholder">Select an email or a webhook delivery.</div></section>
</main>
<div class="toast" id="toast"></div>
<div class="gate" id="token-gate" data-testid="token-gate" hidden>
  <form id="token-form">
    <h2>Admin token</h2>
    <p>This emulator was started with <code>--admin-token</code>. Enter it once: it is kept for this browser session.</p>
    <p class="error" id="token-error" data-testid="token-error" hidden>That token was refused.</p>
    <input id="token-input" data-testid="token-input" type="password" autocomplete="off" aria-label="admin token" required>
    <button type="submit" data-testid="token-submit">Open the inbox</button>
  </form>
</div>
<script>
(function () {
  'use strict';
  var state = { team: null, teams: [], tab: 'emails', emails: [], emailsError: null, deliveries: [], selected: null, clock: null,
    received: [], domains: [], contacts: [], segments: [], topics: [], broadcasts: [], runs: [],
    emailPane: 'preview', width: 'full', sources: {} };
  // Tab → the kind of its items, and the dashboard view (src/admin/dashboard.ts) that feeds it.
  var KIND = { emails: 'email', received: 'received', deliveries: 'delivery', domains: 'domain', contacts: 'contact', broadcasts: 'broadcast', runs: 'run' };
  var TAB = {}; Object.keys(KIND).forEach(function (t) { TAB[KIND[t]] = t; });
  var VIEWS = { received: 'received-emails', domains: 'domains', contacts: 'contacts', broadcasts: 'broadcasts', runs: 'automation-runs' };

  function $(sel) { return document.querySelector(sel); }
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === 'text') el.textContent = String(v);
      else if (k === 'className') el.className = v;
      else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(el, x); }); return; }
    el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
  // --- the admin token (--admin-token): asked once, kept for the session ----
  // In sessionStorage (sent as Authorization on fetches) and in a session
  // cookie on /_emulator, SameSite=Strict (sent by the EventSource, the
  // Source tab and the download links, which cannot set headers).
  var TOKEN_COOKIE = '${ADMIN_COOKIE}';
  function adminToken() { try { return sessionStorage.getItem('inbox.adminToken'); } catch (e) { return null; } }
  function keepToken(token) {
    try { sessionStorage.setItem('inbox.adminToken', token); } catch (e) { /* storage off: the cookie still works */ }
    document.cookie = TOKEN_COOKIE + '=' + encodeURIComponent(token) + '; path=/_emulator; SameSite=Strict' + (location.protocol === 'https:' ? '; Secure' : '');
  }
  if (adminToken()) keepToken(adminToken());
  var asking = null;
  // Shows the token form (once for all the requests that were refused); resolves when a token was entered.
  function askToken(refused) {
    if (asking) return asking;
    asking = new Promise(function (resolve) {
      $('#token-error').hidden = !refused;
      $('#token-gate').hidden = false;
      $('#token-input').focus();
      $('#token-form').onsubmit = function (ev) {
        ev.preventDefault();
        keepToken($('#token-input').value.trim());
        $('#token-gate').hidden = true;
        asking = null;
        resolve();
      };
    });
    return asking;
  }
  function api(path, opts) {
    opts = opts || {};
    var token = adminToken();
    var headers = {}; Object.keys(opts.headers || {}).forEach(function (k) { headers[k] = opts.headers[k]; });
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(path, { method: opts.method, body: opts.body, headers: headers }).then(function (r) {
      return r.text().then(function (t) {
        var body = null; try { body = t ? JSON.parse(t) : null; } catch (e) { body = t; }
        if (r.status === 401 && body && (body.name === 'missing_admin_token' || body.name === 'invalid_admin_token')) {
          return askToken(body.name === 'invalid_admin_token').then(function () { return api(path, opts); });
        }
        if (!r.ok) { var err = new Error((body && body.message) || ('HTTP ' + r.status)); err.status = r.status; throw err; }
        return body;
      });
    });
  }
  function toast(msg) { var t = $('#toast'); t.textContent = msg; t.classList.add('show'); clearTimeout(toast.timer); toast.timer = setTimeout(function () { t.classList.remove('show'); }, 2200); }
  function fmtTime(iso) {
    if (!iso) return '—';
    var d = new Date(iso); if (isNaN(d)) return String(iso);
    return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '').replace(/Z$/, '') + ' UTC';
  }
  function shortTime(iso) {
    if (!iso) return '';
    var d = new Date(iso); if (isNaN(d)) return '';
    var now = state.clock ? new Date(state.clock.now) : new Date();
    var s = d.toISOString();
    return s.slice(0, 10) === now.toISOString().slice(0, 10) ? s.slice(11, 19) : s.slice(0, 10);
  }
  function fmtSize(n) { return n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB'; }
  function list(v) { return Array.isArray(v) ? v : (v ? [v] : []); }
  function statusClass(s) {
    if (/^(delivered|succeeded|opened|clicked|sent)$/.test(s)) return 'ok';
    if (/^(bounced|failed|complained|canceled|cancelled|suppressed)$/.test(s)) return 'bad';
    if (/^(delivery_delayed|pending|attempting)$/.test(s)) return 'warn';
    if (/^(verified|completed|opt_in|subscribed)$/.test(s)) return 'ok';
    if (/^(expired|temporary_failure|unsubscribed)$/.test(s)) return 'bad';
    if (/^(scheduled|queued|recorded|running|waiting|not_started|draft)$/.test(s)) return 'info';
    return '';
  }
  function badge(s, testid) { return h('span', { className: 'badge ' + statusClass(s), 'data-testid': testid }, s || '—'); }
  function parseDuration(text) {
    text = String(text || '').trim().toLowerCase();
    if (/^\d+$/.test(text)) return Number(text);
    var units = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000, w: 604800000 };
    var re = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/g, m, total = 0, seen = '';
    while ((m = re.exec(text))) { total += Number(m[1]) * units[m[2]]; seen += m[0]; }
    return seen && seen.replace(/\s+/g, '') === text.replace(/\s+/g, '') ? Math.round(total) : null;
  }

  // --- data ---------------------------------------------------------------
  function teamQuery() { return state.team ? ('?team_id=' + encodeURIComponent(state.team)) : ''; }
  function loadTeams() {
    return api('/_emulator/teams').then(function (r) {
      state.teams = r.data;
      var saved = localStorage.getItem('inbox.team');
      if (!state.team) state.team = (state.teams.some(function (t) { return t.id === saved; }) ? saved : (state.teams[0] && state.teams[0].id)) || null;
      var sel = $('#team-select'); sel.textContent = '';
      state.teams.forEach(function (t) { add(sel, h('option', { value: t.id, selected: t.id === state.team }, t.name + ' — ' + t.owner_email)); });
    });
  }
  function loadEmails() {
    var q = $('#search').value.trim();
    var query = teamQuery() + (q ? (teamQuery() ? '&' : '?') + 'q=' + encodeURIComponent(q) : '');
    return api('/_emulator/emails' + query).then(function (r) {
      // Newest first, whatever order the API uses.
      state.emails = r.data.slice().sort(function (a, b) { return String(b.created_at).localeCompare(String(a.created_at)); });
      state.emailsError = null;
    }, function (e) {
      state.emails = []; state.emailsError = e.status === 404 || e.status === 501 ? 'The emails admin API is not available in this build.' : e.message;
    });
  }
  function loadView(name) {
    if (!state.team) return Promise.resolve();
    return api('/_emulator/teams/' + encodeURIComponent(state.team) + '/' + VIEWS[name]).then(function (r) {
      state[name] = r.data;
      if (name === 'contacts') { state.segments = r.segments; state.topics = r.topics; }
    }, function () { state[name] = []; });
  }
  function loadViews() { return Promise.all(Object.keys(VIEWS).map(loadView).concat([loadUsage()])); }
  function loadDeliveries() {
    return api('/_emulator/webhook-deliveries' + teamQuery()).then(function (r) { state.deliveries = r.data.slice().reverse(); });
  }
  function loadClock() { return api('/_emulator/clock').then(function (c) { state.clock = c; renderClock(); }); }
  // The header's usage line (GET /_emulator/teams/{id}/usage; a limit shows only with --plan), reloaded with the views.
  function loadUsage() {
    if (!state.team) return Promise.resolve();
    return api('/_emulator/teams/' + encodeURIComponent(state.team) + '/usage').then(function (u) {
      function of(x) { return x.used.toLocaleString('en-US') + (x.limit === null ? '' : ' / ' + x.limit.toLocaleString('en-US')); }
      $('#usage').textContent = 'Emails today ' + of(u.emails.daily) + ' · this month ' + of(u.emails.monthly) + ' · contacts ' + of(u.contacts);
    }, function () { $('#usage').textContent = ''; });
  }
  function refresh() { return Promise.all([loadEmails(), loadDeliveries(), loadViews()]).then(render); }

  // --- rendering ----------------------------------------------------------
  function renderClock() {
    if (!state.clock) return;
    $('#clock-now').textContent = fmtTime(state.clock.now);
    $('#clock-mode').textContent = state.clock.mode;
  }
  function visibleEmails() { return state.emails; }
  // Text a list item is filtered by (the filter box of the dashboard views).
  function searchText(kind, x) {
    if (kind === 'received') return [x.from, list(x.to).join(' '), x.subject, x.id].join(' ');
    if (kind === 'domain') return [x.name, x.status, x.id].join(' ');
    if (kind === 'contact') return [x.email, x.first_name, x.last_name, x.id, list(x.segments).map(function (s) { return s.name; }).join(' ')].join(' ');
    if (kind === 'broadcast') return [x.name, x.subject, x.status, x.id].join(' ');
    if (kind === 'run') return [x.automation_name, x.status, x.event_name, x.contact_email, x.id].join(' ');
    return JSON.stringify(x);
  }
  function collection(kind) {
    return { email: state.emails, delivery: state.deliveries, received: state.received, domain: state.domains, contact: state.contacts, broadcast: state.broadcasts, run: state.runs }[kind] || [];
  }
  function visibleDeliveries() {
    var type = $('#search-type').value.trim().toLowerCase(), status = $('#search-status').value;
    return state.deliveries.filter(function (d) {
      return (!type || d.event_type.toLowerCase().indexOf(type) !== -1) && (!status || d.status === status);
    });
  }
  function row(kind, id, who, when, subject, meta, mono) {
    var sel = state.selected && state.selected.kind === kind && state.selected.id === id;
    return h('div', { className: 'item' + (sel ? ' selected' : ''), 'data-id': id, 'data-kind': kind, 'data-testid': kind + '-item', onclick: function () { select(kind, id); } },
      h('div', { className: 'top' }, h('span', { className: 'who' + (mono ? ' mono' : '') }, who), h('span', { className: 'when' }, when)),
      subject !== null ? h('div', { className: 'subject' }, subject) : null,
      h('div', { className: 'meta' }, meta));
  }
  var EMPTY = {
    received: 'No email received yet. POST /_emulator/inbound or send to a receiving domain over SMTP.',
    domain: 'No domain yet. Add one with POST /domains.',
    contact: 'No contact yet. Add one with POST /contacts.',
    broadcast: 'No broadcast yet. Create one with POST /broadcasts.',
    run: 'No automation run yet. Send an event with POST /events/send.',
  };
  function render() {
    Object.keys(KIND).forEach(function (t) { $('#count-' + t).textContent = t === 'emails' ? state.emails.length : collection(KIND[t]).length; });
    document.querySelectorAll('.tabs button').forEach(function (b) { b.classList.toggle('active', b.getAttribute('data-tab') === state.tab); });
    $('#search-emails').hidden = state.tab !== 'emails';
    $('#search-deliveries').hidden = state.tab !== 'deliveries';
    $('#search-other').hidden = state.tab === 'emails' || state.tab === 'deliveries';
    var box = $('#list'); box.textContent = '';
    var kind = KIND[state.tab];
    if (state.tab === 'emails') {
      if (state.emailsError) add(box, h('div', { className: 'empty' }, state.emailsError));
      var emails = visibleEmails();
      if (!emails.length && !state.emailsError) add(box, h('div', { className: 'empty' }, $('#search').value.trim() ? 'No email matches.' : 'No email sent yet.'));
      emails.forEach(function (e) {
        add(box, row('email', e.id, list(e.to).join(', ') || '(no recipient)', shortTime(e.created_at), e.subject || '(no subject)',
          [badge(e.last_event), h('span', null, 'from ' + (e.from || '')), list(e.codes).length ? h('span', { className: 'chip' }, e.codes[0]) : null]));
      });
    } else if (state.tab === 'deliveries') {
      var ds = visibleDeliveries();
      if (!ds.length) add(box, h('div', { className: 'empty' }, state.deliveries.length ? 'No delivery matches.' : 'No webhook delivery yet. Register a webhook with POST /webhooks.'));
      ds.forEach(function (d) {
        var last = d.attempts[d.attempts.length - 1];
        add(box, row('delivery', d.id, d.event_type, shortTime(d.created_at), null,
          [badge(d.status), h('span', null, d.attempts.length + (d.attempts.length === 1 ? ' attempt' : ' attempts')),
            last ? h('span', null, '· ' + (last.status_code !== null ? last.status_code : (last.error || ''))) : null,
            h('span', { className: 'mono' }, '· ' + d.id)], true));
      });
    } else {
      var f = $('#search-other-input').value.trim().toLowerCase();
      var all = collection(kind);
      var items = all.filter(function (x) { return !f || searchText(kind, x).toLowerCase().indexOf(f) !== -1; });
      if (!items.length) add(box, h('div', { className: 'empty' }, all.length ? 'Nothing matches.' : EMPTY[kind]));
      items.forEach(function (x) {
        if (kind === 'received') add(box, row(kind, x.id, x.from, shortTime(x.created_at), x.subject || '(no subject)', [h('span', null, 'to ' + list(x.to).join(', ')), x.attachments.length ? h('span', null, '· ' + x.attachments.length + ' attachment' + (x.attachments.length === 1 ? '' : 's')) : null]));
        if (kind === 'domain') add(box, row(kind, x.id, x.name, shortTime(x.created_at), null, [badge(x.status), h('span', null, x.region), x.claim ? h('span', null, '· claim ' + x.claim.status) : null]));
        if (kind === 'contact') add(box, row(kind, x.id, x.email, shortTime(x.created_at), [x.first_name, x.last_name].filter(Boolean).join(' ') || null,
          [badge(x.unsubscribed ? 'unsubscribed' : 'subscribed'), h('span', null, x.segments.map(function (s) { return s.name; }).join(', ') || 'no segment')]));
        if (kind === 'broadcast') add(box, row(kind, x.id, x.name || '(unnamed)', shortTime(x.sent_at || x.created_at), x.subject || '', [badge(x.status), h('span', null, x.stats.recipients + ' recipients · ' + x.stats.opened + ' opened · ' + x.stats.clicked + ' clicked')]));
        if (kind === 'run') add(box, row(kind, x.id, x.automation_name || x.automation_id, shortTime(x.created_at), x.contact_email || '', [badge(x.status), h('span', { className: 'mono' }, x.event_name), h('span', null, '· ' + x.steps.length + ' steps')]));
      });
    }
    renderDetail();
  }
  var VIEW_OF = { email: function (x) { return emailView(x); }, delivery: function (x) { return deliveryView(x); }, received: function (x) { return receivedView(x); },
    domain: function (x) { return domainView(x); }, contact: function (x) { return contactView(x); }, broadcast: function (x) { return broadcastView(x); }, run: function (x) { return runView(x); } };
  function renderDetail() {
    var box = $('#detail');
    var sel = state.selected;
    var item = sel && collection(sel.kind).filter(function (x) { return x.id === sel.id; })[0];
    if (!item) { box.removeAttribute('data-key'); box.textContent = ''; add(box, h('div', { className: 'placeholder' }, 'Select an item in the list.')); return; }
    var key = sel.kind + ':' + JSON.stringify(item) + ':' + state.emailPane + ':' + state.width;
    if (box.getAttribute('data-key') === key) return;
    box.setAttribute('data-key', key);
    box.textContent = '';
    add(box, VIEW_OF[sel.kind](item));
  }
  function table(testid, head, rows) {
    return h('table', { 'data-testid': testid }, h('thead', null, h('tr', null, head.map(function (x) { return h('th', null, x); }))), h('tbody', null, rows));
  }
  function json(v) { return v === null || v === undefined ? '' : JSON.stringify(v, null, 2); }
  // A segmented control: state[name] takes one of options ([value, label]).
  function seg(name, options, testid) {
    return h('div', { className: 'seg', 'data-testid': testid }, options.map(function (o) {
      return h('button', { className: state[name] === o[0] ? 'active' : '', 'data-value': o[0], onclick: function () { state[name] = o[0]; renderDetail(); } }, o[1]);
    }));
  }
  // The raw source at url, fetched once per key and shown as text.
  function sourceBox(url, key) {
    var pre = h('pre', { className: 'source', 'data-testid': 'email-source' }, state.sources[key] !== undefined ? state.sources[key] : 'Loading…');
    if (state.sources[key] === undefined) fetch(url).then(function (r) { return r.text(); }).then(function (t) { state.sources[key] = t; pre.textContent = t; }, function (e) { pre.textContent = 'Could not load the source: ' + e.message; });
    return h('div', { className: 'card' }, pre);
  }
  // HTML (sandboxed iframe at the chosen width) and text, or the raw source; codes and links.
  function content(x, rawUrl, sourceKey) {
    var html = x.html || '';
    var links = list(x.links), codes = list(x.codes);
    return [
      h('div', { className: 'toolbar' }, h('h2', null, 'Content'),
        seg('emailPane', [['preview', 'Preview'], ['source', 'Source']], 'pane'),
        state.emailPane === 'preview' ? seg('width', [['375', '375'], ['768', '768'], ['full', 'Full']], 'widths') : null,
        h('a', { href: rawUrl, download: x.id + '.eml', 'data-testid': 'download-eml' }, 'Download .eml')),
      state.emailPane === 'source' ? sourceBox(rawUrl, sourceKey) : [
        h('div', { className: 'card pane' }, h('div', { className: 'label' }, h('span', null, 'HTML' + (state.width === 'full' ? '' : ' · ' + state.width + ' px')), h('span', null, html ? (html.length + ' chars') : 'none')),
          h('div', { className: 'frame-box' }, h('iframe', { id: 'email-html', className: 'html', 'data-testid': 'email-html', sandbox: '', srcdoc: html || '<p style="font:14px system-ui;color:#667085;padding:8px">No HTML part.</p>', title: 'email HTML', style: 'width:' + (state.width === 'full' ? '100%' : state.width + 'px') }))),
        h('div', { className: 'card pane', style: 'margin-top:14px' }, h('div', { className: 'label' }, h('span', null, 'Text'), h('span', null, x.text ? (x.text.length + ' chars') : 'none')),
          h('pre', { id: 'email-text', 'data-testid': 'email-text', style: 'height:auto;max-height:300px' }, x.text || '(no text part)'))],
      h('h2', null, 'One-time codes and links'),
      h('div', { className: 'card' },
        codes.length ? h('div', { className: 'chips', 'data-testid': 'email-codes' }, codes.map(function (c) { return h('span', { className: 'chip' }, c); })) : h('div', { className: 'empty', 'data-testid': 'email-codes' }, 'No one-time code.'),
        links.length ? h('ol', { className: 'links', 'data-testid': 'email-links' }, links.map(function (l) { return h('li', null, l); })) : h('div', { className: 'empty' }, 'No link.')),
    ];
  }
  function kv(rows) {
    return h('dl', { className: 'kv' }, rows.filter(function (r) { return r[1] !== null && r[1] !== undefined && r[1] !== ''; }).map(function (r) { return [h('dt', null, r[0]), h('dd', { className: r[2] || '' }, r[1])]; }));
  }
  function emailView(e) {
    var headers = e.headers || {};
    var headerRows = Object.keys(headers).map(function (k) { return h('tr', null, h('td', { className: 'mono' }, k), h('td', { className: 'mono' }, headers[k])); });
    var atts = list(e.attachments);
    var events = list(e.events);
    var html = e.html || '';
    return [
      h('h1', { 'data-testid': 'email-subject' }, e.subject || '(no subject)'),
      h('div', { className: 'actions' }, badge(e.last_event, 'email-status'), h('span', { className: 'note mono' }, e.id)),
      h('div', { className: 'split' },
        h('div', null, h('h2', null, 'Envelope'), h('div', { className: 'card' }, kv([
          ['From', e.from], ['To', list(e.to).join(', ')], ['Cc', list(e.cc).join(', ')], ['Bcc', list(e.bcc).join(', ')],
          ['Reply-To', list(e.reply_to).join(', ')], ['Created', fmtTime(e.created_at)], ['Scheduled', e.scheduled_at ? fmtTime(e.scheduled_at) : null],
          ['Message-ID', e.message_id, 'mono'], ['Tags', list(e.tags).map(function (t) { return t.name + '=' + t.value; }).join(', ')],
          ['Broadcast', e.broadcast_id, 'mono'], ['Template', e.template_id, 'mono'],
        ]))),
        h('div', null, h('h2', null, 'Events'), h('div', { className: 'card' }, events.length ? h('ul', { className: 'timeline', 'data-testid': 'email-events' }, events.map(function (ev) {
          return h('li', null, h('span', { className: 'dot' }), badge(ev.type), h('span', { className: 'note' }, fmtTime(ev.at)));
        })) : h('div', { className: 'empty' }, 'No event yet.')))),
      content(e, '/_emulator/emails/' + encodeURIComponent(e.id) + '/raw', e.id + ':' + e.last_event),
      h('h2', null, 'Attachments'),
      h('div', { className: 'card' }, atts.length ? h('table', { 'data-testid': 'attachments' }, h('thead', null, h('tr', null, h('th', null, 'File'), h('th', null, 'Type'), h('th', null, 'Size'), h('th', null, 'Content-ID'))),
        h('tbody', null, atts.map(function (a) {
          return h('tr', null, h('td', null, h('a', { href: '/_emulator/emails/' + encodeURIComponent(e.id) + '/attachments/' + encodeURIComponent(a.id), download: a.filename || true }, a.filename || a.id)),
            h('td', { className: 'mono' }, a.content_type || ''), h('td', null, a.size !== undefined && a.size !== null ? fmtSize(a.size) : ''), h('td', { className: 'mono' }, a.content_id || ''));
        }))) : h('div', { className: 'empty' }, 'No attachment.')),
      h('h2', null, 'Headers'),
      h('div', { className: 'card' }, headerRows.length ? h('table', { className: 'pairs' }, h('tbody', null, headerRows)) : h('div', { className: 'empty' }, 'No custom header.')),
    ];
  }
  function deliveryView(d) {
    var headers = d.headers || {};
    var pretty; try { pretty = JSON.stringify(JSON.parse(d.body), null, 2); } catch (e) { pretty = d.body; }
    var replay = h('button', { className: 'btn', id: 'replay', 'data-testid': 'replay', onclick: function () {
      replay.disabled = true;
      api('/_emulator/webhook-deliveries/' + encodeURIComponent(d.id) + '/replay', { method: 'POST' }).then(function (nd) {
        state.deliveries = state.deliveries.map(function (x) { return x.id === nd.id ? nd : x; });
        toast('Replayed: ' + (nd.attempts[nd.attempts.length - 1].status_code || nd.attempts[nd.attempts.length - 1].error));
        render();
      }, function (e) { toast('Replay failed: ' + e.message); replay.disabled = false; });
    } }, 'Replay');
    return [
      h('h1', { className: 'mono' }, d.event_type),
      h('div', { className: 'actions' }, badge(d.status, 'delivery-status'), replay, h('span', { className: 'note' }, 'Sends it again now: same svix-id, fresh signature.')),
      h('h2', null, 'Delivery'),
      h('div', { className: 'card' }, kv([
        ['svix-id', d.id, 'mono'], ['Webhook', d.webhook_id, 'mono'], ['Created', fmtTime(d.created_at)],
        ['Next attempt', d.next_attempt_at ? fmtTime(d.next_attempt_at) : null], ['Attempts', String(d.attempts.length)],
      ])),
      h('h2', null, 'Attempts'),
      h('div', { className: 'card' }, d.attempts.length ? h('table', { id: 'attempts', 'data-testid': 'attempts' },
        h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'When (emulated)'), h('th', null, 'Result'), h('th', null, 'Duration'), h('th', null, 'Endpoint'))),
        h('tbody', null, d.attempts.map(function (a, i) {
          var ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
          return h('tr', null, h('td', null, String(i + 1) + (a.replay ? ' (replay)' : '')), h('td', null, fmtTime(a.at)),
            h('td', null, h('span', { className: 'badge ' + (ok ? 'ok' : (a.status_code === null && /record/.test(a.error || '') ? 'info' : 'bad')) }, a.status_code !== null ? String(a.status_code) : 'no response'),
              a.error && !ok ? h('div', { className: 'note' }, a.error) : null),
            h('td', null, a.duration_ms + ' ms'), h('td', { className: 'mono' }, a.endpoint || ''));
        }))) : h('div', { className: 'empty' }, 'Not attempted yet: the first attempt runs at the next clock advance (manual clock) or at once (real clock).')),
      h('h2', null, 'Payload'),
      h('div', { className: 'card' }, h('pre', { 'data-testid': 'payload' }, pretty)),
      h('h2', null, 'Headers (latest attempt)'),
      h('div', { className: 'card' }, Object.keys(headers).length ? h('table', { className: 'pairs' }, h('tbody', null, Object.keys(headers).map(function (k) {
        return h('tr', null, h('td', { className: 'mono' }, k), h('td', { className: 'mono', style: 'word-break:break-all' }, headers[k]));
      }))) : h('div', { className: 'empty' }, 'No attempt yet.')),
    ];
  }
  function receivedView(r) {
    return [
      h('h1', { 'data-testid': 'received-subject' }, r.subject || '(no subject)'),
      h('div', { className: 'actions' }, badge('received'), h('span', { className: 'note mono' }, r.id)),
      h('h2', null, 'Envelope'),
      h('div', { className: 'card' }, kv([['From', r.from], ['To', list(r.to).join(', ')], ['Cc', list(r.cc).join(', ')], ['Received for', list(r.received_for).join(', ')],
        ['Received', fmtTime(r.created_at)], ['Message-ID', r.message_id, 'mono']])),
      content(r, r.raw_url, 'received:' + r.id),
      h('h2', null, 'Attachments'),
      h('div', { className: 'card' }, r.attachments.length ? table('received-attachments', ['File', 'Type', 'Size', 'Content-ID'], r.attachments.map(function (a) {
        return h('tr', null, h('td', null, h('a', { href: a.download_url, download: a.filename || true }, a.filename || a.id)), h('td', { className: 'mono' }, a.content_type), h('td', null, fmtSize(a.size)), h('td', { className: 'mono' }, a.content_id || ''));
      })) : h('div', { className: 'empty' }, 'No attachment.')),
    ];
  }
  function domainView(d) {
    var c = d.claim;
    return [
      h('h1', { 'data-testid': 'domain-name' }, d.name),
      h('div', { className: 'actions' }, badge(d.status, 'domain-status'), h('span', { className: 'note mono' }, d.id)),
      h('h2', null, 'Domain'),
      h('div', { className: 'card' }, kv([['Status', d.status], ['Region', d.region], ['Sending', d.capabilities.sending], ['Receiving', d.capabilities.receiving], ['Created', fmtTime(d.created_at)]])),
      h('h2', null, 'DNS records'),
      h('div', { className: 'card' }, table('domain-records', ['Record', 'Type', 'Name', 'Value', 'Status'], d.records.map(function (r) {
        return h('tr', null, h('td', null, r.record), h('td', { className: 'mono', style: 'white-space:nowrap' }, r.type + (r.priority !== undefined ? ' ' + r.priority : '')), h('td', { className: 'mono' }, r.name), h('td', { className: 'value' }, r.value), h('td', null, badge(r.status)));
      }))),
      h('h2', null, 'Claim'),
      h('div', { className: 'card', 'data-testid': 'domain-claim' }, c ? kv([['Status', c.status], ['Record', c.record.type + ' ' + c.record.name + ' = ' + c.record.value, 'mono'], ['Created', c.created_at], ['Expires', c.expires_at], ['Failure', c.failure_reason], ['Blocked', c.blocked_reason]])
        : h('div', { className: 'empty' }, 'No claim.')),
    ];
  }
  function contactView(c) {
    var props = Object.keys(c.properties || {});
    return [
      h('h1', { 'data-testid': 'contact-email' }, c.email),
      h('div', { className: 'actions' }, badge(c.unsubscribed ? 'unsubscribed' : 'subscribed', 'contact-status'), h('span', { className: 'note mono' }, c.id)),
      h('h2', null, 'Contact'),
      h('div', { className: 'card' }, kv([['First name', c.first_name], ['Last name', c.last_name], ['Created', fmtTime(c.created_at)]])),
      h('h2', null, 'Segments'),
      h('div', { className: 'card' }, c.segments.length ? h('div', { className: 'chips', 'data-testid': 'contact-segments' }, c.segments.map(function (s) { return h('span', { className: 'chip' }, s.name); })) : h('div', { className: 'empty', 'data-testid': 'contact-segments' }, 'In no segment.')),
      h('h2', null, 'Topics'),
      h('div', { className: 'card' }, c.topics.length ? table('contact-topics', ['Topic', 'Subscription'], c.topics.map(function (t) { return h('tr', null, h('td', null, t.name), h('td', null, badge(t.subscription))); })) : h('div', { className: 'empty' }, 'The team has no topic.')),
      h('h2', null, 'Properties'),
      h('div', { className: 'card' }, props.length ? h('table', { className: 'pairs', 'data-testid': 'contact-properties' }, h('tbody', null, props.map(function (k) { return h('tr', null, h('td', { className: 'mono' }, k), h('td', null, c.properties[k] === null ? '—' : String(c.properties[k]))); }))) : h('div', { className: 'empty' }, 'The team has no contact property.')),
    ];
  }
  function broadcastView(b) {
    var st = b.stats;
    return [
      h('h1', { 'data-testid': 'broadcast-name' }, b.name || '(unnamed)'),
      h('div', { className: 'actions' }, badge(b.status, 'broadcast-status'), h('span', { className: 'note mono' }, b.id)),
      h('h2', null, 'Recipients'),
      h('div', { className: 'stats', 'data-testid': 'broadcast-stats' }, ['recipients', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'].map(function (k) {
        return h('div', { className: 'stat', 'data-testid': 'stat-' + k }, h('div', { className: 'n' }, String(st[k])), h('div', { className: 'l' }, k));
      })),
      h('h2', null, 'Broadcast'),
      h('div', { className: 'card' }, kv([['From', b.from], ['Subject', b.subject], ['Segment', b.segment_name || b.segment_id], ['Created', fmtTime(b.created_at)], ['Scheduled', b.scheduled_at ? fmtTime(b.scheduled_at) : null], ['Sent', b.sent_at ? fmtTime(b.sent_at) : null]])),
    ];
  }
  function runView(r) {
    return [
      h('h1', { 'data-testid': 'run-name' }, r.automation_name || r.automation_id),
      h('div', { className: 'actions' }, badge(r.status, 'run-status'), h('span', { className: 'note mono' }, r.id)),
      h('h2', null, 'Run'),
      h('div', { className: 'card' }, kv([['Event', r.event_name, 'mono'], ['Contact', r.contact_email], ['Created', fmtTime(r.created_at)], ['Started', r.started_at ? fmtTime(r.started_at) : null], ['Completed', r.completed_at ? fmtTime(r.completed_at) : null]])),
      h('h2', null, 'Steps'),
      h('div', { className: 'card' }, r.steps.length ? table('run-steps', ['Step', 'Type', 'Status', 'Started', 'Completed', 'Output / error'], r.steps.map(function (s) {
        return h('tr', null, h('td', { className: 'mono' }, s.key), h('td', { className: 'mono' }, s.type), h('td', null, badge(s.status)), h('td', null, s.started_at ? fmtTime(s.started_at) : '—'), h('td', null, s.completed_at ? fmtTime(s.completed_at) : '—'),
          h('td', null, s.error ? h('pre', { style: 'padding:0;color:var(--bad)' }, json(s.error)) : s.output ? h('pre', { style: 'padding:0' }, json(s.output)) : ''));
      })) : h('div', { className: 'empty' }, 'No step yet.')),
    ];
  }
  function select(kind, id) {
    state.selected = { kind: kind, id: id };
    location.hash = kind + '/' + id;
    render();
  }

  // --- controls -----------------------------------------------------------
  document.querySelectorAll('.tabs button').forEach(function (b) {
    b.addEventListener('click', function () { state.tab = b.getAttribute('data-tab'); render(); });
  });
  var searchTimer = null;
  $('#search').addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(function () { loadEmails().then(render); }, 150); });
  $('#search-other-input').addEventListener('input', render);
  $('#search-type').addEventListener('input', render);
  $('#search-status').addEventListener('change', render);
  $('#team-select').addEventListener('change', function (ev) {
    state.team = ev.target.value; localStorage.setItem('inbox.team', state.team); state.selected = null; refresh();
  });
  function advance(text) {
    var ms = parseDuration(text);
    if (ms === null) { toast('Cannot read duration "' + text + '" (use e.g. 5s, 10m, 1h30m)'); return; }
    api('/_emulator/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: ms }) }).then(function (r) {
      state.clock = { now: r.now, mode: r.mode }; renderClock();
      toast('Clock advanced; ' + r.fired.length + (r.fired.length === 1 ? ' job ran' : ' jobs ran'));
      return refresh();
    }, function (e) { toast('Advance failed: ' + e.message); });
  }
  document.querySelectorAll('[data-advance]').forEach(function (b) { b.addEventListener('click', function () { advance(b.getAttribute('data-advance')); }); });
  $('#advance-button').addEventListener('click', function () { advance($('#advance-input').value); });
  $('#advance-input').addEventListener('keydown', function (ev) { if (ev.key === 'Enter') advance($('#advance-input').value); });

  // --- live updates (server-sent events) -------------------------------------
  var pending = {};
  // A live refresh that cannot reach the server (it stopped, or restarts) marks the page offline; the next event tries again.
  function offline() { $('#live').classList.remove('on'); }
  function soon(name, fn) { if (pending[name]) return; pending[name] = setTimeout(function () { pending[name] = null; fn().then(render, offline); }, 60); }
  function connect() {
    var es = new EventSource('/_emulator/events');
    es.addEventListener('open', function () { $('#live').classList.add('on'); });
    es.addEventListener('error', function () { $('#live').classList.remove('on'); });
    es.addEventListener('hello', function (m) { state.clock = JSON.parse(m.data); renderClock(); });
    // Jobs ran: email statuses and deliveries may have moved on.
    es.addEventListener('clock', function (m) { state.clock = JSON.parse(m.data); renderClock(); soon('emails', loadEmails); soon('deliveries', loadDeliveries); soon('views', loadViews); });
    es.addEventListener('inbound', function () { soon('received', function () { return loadView('received'); }); soon('usage', loadUsage); });
    // An API write of the team shown: the dashboard views reload.
    es.addEventListener('change', function (m) { var d = JSON.parse(m.data); if (d.team_id === state.team) soon('views', loadViews); });
    es.addEventListener('email', function () { soon('emails', loadEmails); });
    es.addEventListener('delivery', function () { soon('deliveries', loadDeliveries); });
    es.addEventListener('reset', function () { state.selected = null; loadTeams().then(refresh).catch(offline); });
  }

  var m = /^#(email|delivery|received|domain|contact|broadcast|run)\/(.+)$/.exec(location.hash);
  if (m) { state.selected = { kind: m[1], id: decodeURIComponent(m[2]) }; state.tab = TAB[m[1]]; }
  Promise.all([loadTeams(), loadClock()]).then(refresh).then(function () { document.body.setAttribute('data-ready', '1'); connect(); });
})();
</script>
</body>
</html>
`;
