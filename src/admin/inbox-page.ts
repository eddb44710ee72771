/**
 * The inbox page served at `GET /_emulator/` (src/admin/inbox.ts): one
 * self-contained HTML document, inline CSS and JS, no CDN, no build step.
 *
 * What it shows: sent emails newest first with search (from, to, subject),
 * an email's HTML in a sandboxed iframe (`sandbox=""`, `srcdoc`) beside its
 * text, its headers, attachments (download links), tags and event timeline;
 * webhook deliveries with payload, headers, attempts and a Replay button;
 * the emulated clock with an advance control; a team switcher. Updates come
 * over server-sent events (`/_emulator/events`) without reload.
 *
 * Data: `GET /_emulator/emails?team_id=` (admin emails module; the page
 * says so when that API is absent), `GET /_emulator/webhook-deliveries`,
 * `GET /_emulator/teams`, `GET /_emulator/clock`. Every value from the
 * store is put in the page as text (never as markup); only the email's own
 * HTML is rendered, inside the sandboxed iframe, which runs no script.
 * The inline script uses no template literals, so this file can hold it in
 * one.
 */
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
  iframe#email-html { width: 100%; height: 380px; border: 0; background: #fff; border-radius: 0 0 10px 10px; }
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
  .toast { position: fixed; bottom: 16px; right: 16px; background: var(--ink); color: #fff; padding: 9px 14px; border-radius: 8px; font-size: 13px; opacity: 0; transition: opacity .2s; pointer-events: none; }
  .toast.show { opacity: .95; }
</style>
</head>
<body>
<header>
  <div class="brand"><span class="logo">R</span> resend-emulator <span style="color:#9ca3af;font-weight:500">· inbox</span></div>
  <span class="live" id="live" title="live updates"></span>
  <div class="spacer"></div>
  <div class="team"><label for="team-select">Team</label><select id="team-select" data-testid="team-select"></select></div>
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
<main>
  <aside>
    <div class="tabs">
      <button data-tab="emails" class="active">Emails <span class="count" id="count-emails">0</span></button>
      <button data-tab="deliveries">Webhooks <span class="count" id="count-deliveries">0</span></button>
    </div>
    <div class="search">
      <div class="row" id="search-emails"><input id="search" data-testid="search" type="search" placeholder="Search from, to, subject…"></div>
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
<script>
(function () {
  'use strict';
  var state = { team: null, teams: [], tab: 'emails', emails: [], emailsError: null, deliveries: [], selected: null, clock: null };

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
  function api(path, opts) {
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (t) {
        var body = null; try { body = t ? JSON.parse(t) : null; } catch (e) { body = t; }
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
    if (/^(scheduled|queued|recorded)$/.test(s)) return 'info';
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
    return api('/_emulator/emails' + teamQuery()).then(function (r) {
      // Newest first, whatever order the API uses.
      state.emails = ((r && r.data) || []).slice().sort(function (a, b) { return String(b.created_at).localeCompare(String(a.created_at)); });
      state.emailsError = null;
    }, function (e) {
      state.emails = []; state.emailsError = e.status === 404 || e.status === 501 ? 'The emails admin API is not available in this build.' : e.message;
    });
  }
  function loadDeliveries() {
    return api('/_emulator/webhook-deliveries' + teamQuery()).then(function (r) { state.deliveries = r.data.slice().reverse(); });
  }
  function loadClock() { return api('/_emulator/clock').then(function (c) { state.clock = c; renderClock(); }); }
  function refresh() { return Promise.all([loadEmails(), loadDeliveries()]).then(render); }

  // --- rendering ----------------------------------------------------------
  function renderClock() {
    if (!state.clock) return;
    $('#clock-now').textContent = fmtTime(state.clock.now);
    $('#clock-mode').textContent = state.clock.mode;
  }
  function visibleEmails() {
    var q = $('#search').value.trim().toLowerCase();
    if (!q) return state.emails;
    return state.emails.filter(function (e) {
      return [e.from, list(e.to).join(' '), list(e.cc).join(' '), e.subject, e.id].join(' ').toLowerCase().indexOf(q) !== -1;
    });
  }
  function visibleDeliveries() {
    var type = $('#search-type').value.trim().toLowerCase(), status = $('#search-status').value;
    return state.deliveries.filter(function (d) {
      return (!type || d.event_type.toLowerCase().indexOf(type) !== -1) && (!status || d.status === status);
    });
  }
  function render() {
    $('#count-emails').textContent = state.emails.length;
    $('#count-deliveries').textContent = state.deliveries.length;
    document.querySelectorAll('.tabs button').forEach(function (b) { b.classList.toggle('active', b.getAttribute('data-tab') === state.tab); });
    $('#search-emails').hidden = state.tab !== 'emails';
    $('#search-deliveries').hidden = state.tab !== 'deliveries';
    var box = $('#list'); box.textContent = '';
    if (state.tab === 'emails') {
      if (state.emailsError) add(box, h('div', { className: 'empty' }, state.emailsError));
      var emails = visibleEmails();
      if (!emails.length && !state.emailsError) add(box, h('div', { className: 'empty' }, state.emails.length ? 'No email matches.' : 'No email sent yet.'));
      emails.forEach(function (e) {
        var sel = state.selected && state.selected.kind === 'email' && state.selected.id === e.id;
        add(box, h('div', { className: 'item' + (sel ? ' selected' : ''), 'data-id': e.id, 'data-kind': 'email', 'data-testid': 'email-item', onclick: function () { select('email', e.id); } },
          h('div', { className: 'top' }, h('span', { className: 'who' }, list(e.to).join(', ') || '(no recipient)'), h('span', { className: 'when' }, shortTime(e.created_at))),
          h('div', { className: 'subject' }, e.subject || '(no subject)'),
          h('div', { className: 'meta' }, badge(e.last_event), h('span', null, 'from ' + (e.from || '')))));
      });
    } else {
      var ds = visibleDeliveries();
      if (!ds.length) add(box, h('div', { className: 'empty' }, state.deliveries.length ? 'No delivery matches.' : 'No webhook delivery yet. Register a webhook with POST /webhooks.'));
      ds.forEach(function (d) {
        var sel = state.selected && state.selected.kind === 'delivery' && state.selected.id === d.id;
        var last = d.attempts[d.attempts.length - 1];
        add(box, h('div', { className: 'item' + (sel ? ' selected' : ''), 'data-id': d.id, 'data-kind': 'delivery', 'data-testid': 'delivery-item', onclick: function () { select('delivery', d.id); } },
          h('div', { className: 'top' }, h('span', { className: 'who mono' }, d.event_type), h('span', { className: 'when' }, shortTime(d.created_at))),
          h('div', { className: 'meta' }, badge(d.status), h('span', null, d.attempts.length + (d.attempts.length === 1 ? ' attempt' : ' attempts')),
            last ? h('span', null, '· ' + (last.status_code !== null ? last.status_code : (last.error || ''))) : null,
            h('span', { className: 'mono' }, '· ' + d.id))));
      });
    }
    renderDetail();
  }
  function renderDetail() {
    var box = $('#detail');
    var sel = state.selected;
    var item = sel && (sel.kind === 'email' ? state.emails : state.deliveries).filter(function (x) { return x.id === sel.id; })[0];
    if (!item) { box.removeAttribute('data-key'); box.textContent = ''; add(box, h('div', { className: 'placeholder' }, 'Select an email or a webhook delivery.')); return; }
    var key = sel.kind + ':' + item.id + ':' + JSON.stringify(item).length + ':' + (item.attempts ? item.attempts.length : '') + ':' + (item.last_event || item.status);
    if (box.getAttribute('data-key') === key) return;
    box.setAttribute('data-key', key);
    box.textContent = '';
    add(box, sel.kind === 'email' ? emailView(item) : deliveryView(item));
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
      h('h2', null, 'Content'),
      h('div', { className: 'split' },
        h('div', { className: 'card pane' }, h('div', { className: 'label' }, h('span', null, 'HTML'), h('span', null, html ? (html.length + ' chars') : 'none')),
          h('iframe', { id: 'email-html', 'data-testid': 'email-html', sandbox: '', srcdoc: html || '<p style="font:14px system-ui;color:#667085;padding:8px">No HTML part.</p>', title: 'email HTML' })),
        h('div', { className: 'card pane' }, h('div', { className: 'label' }, h('span', null, 'Text'), h('span', null, e.text ? (e.text.length + ' chars') : 'none')),
          h('pre', { id: 'email-text', 'data-testid': 'email-text' }, e.text || '(no text part)'))),
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
  function select(kind, id) {
    state.selected = { kind: kind, id: id };
    location.hash = kind + '/' + id;
    if (kind === 'email') {
      var e = state.emails.filter(function (x) { return x.id === id; })[0];
      if (e && e.html === undefined) api('/_emulator/emails/' + encodeURIComponent(id)).then(function (full) {
        state.emails = state.emails.map(function (x) { return x.id === id ? full : x; }); render();
      });
    }
    render();
  }

  // --- controls -----------------------------------------------------------
  document.querySelectorAll('.tabs button').forEach(function (b) {
    b.addEventListener('click', function () { state.tab = b.getAttribute('data-tab'); render(); });
  });
  $('#search').addEventListener('input', render);
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
  function soon(name, fn) { if (pending[name]) return; pending[name] = setTimeout(function () { pending[name] = null; fn().then(render); }, 60); }
  function connect() {
    var es = new EventSource('/_emulator/events');
    es.addEventListener('open', function () { $('#live').classList.add('on'); });
    es.addEventListener('error', function () { $('#live').classList.remove('on'); });
    es.addEventListener('hello', function (m) { state.clock = JSON.parse(m.data); renderClock(); });
    // Jobs ran: email statuses and deliveries may have moved on.
    es.addEventListener('clock', function (m) { state.clock = JSON.parse(m.data); renderClock(); soon('emails', loadEmails); soon('deliveries', loadDeliveries); });
    es.addEventListener('email', function () { soon('emails', loadEmails); });
    es.addEventListener('delivery', function () { soon('deliveries', loadDeliveries); });
    es.addEventListener('reset', function () { state.selected = null; loadTeams().then(refresh); });
  }

  var m = /^#(email|delivery)\/(.+)$/.exec(location.hash);
  if (m) { state.selected = { kind: m[1], id: decodeURIComponent(m[2]) }; state.tab = m[1] === 'email' ? 'emails' : 'deliveries'; }
  Promise.all([loadTeams(), loadClock()]).then(refresh).then(function () { document.body.setAttribute('data-ready', '1'); connect(); });
})();
</script>
</body>
</html>
`;
