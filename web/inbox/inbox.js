// @ts-check
/**
 * The inbox page's script (web/inbox/index.html; served by src/admin/inbox.ts
 * at `/_emulator/assets/inbox.js`). Plain ES5-style browser JavaScript, no
 * build step, checked by TypeScript (`// @ts-check`, web/tsconfig.json, part
 * of `npm test`). Every path it fetches is relative to the page's
 * `<base href>` (`/_emulator/`, or `/PREFIX/_emulator/` when the app is
 * mounted), so it works under any mount path.
 */
(function () {
  'use strict';
  var state = { team: null, teams: [], tab: 'emails', emails: [], emailsError: null, deliveries: [], selected: null, clock: null,
    received: [], domains: [], contacts: [], segments: [], topics: [], broadcasts: [], runs: [], inboxes: [],
    emailPane: 'preview', width: 'full', sources: {},
    // Each tab's own selection (a tab shows its own or none), whether a narrow window shows the detail rather than the list,
    // and when the clock was last read (wall ms: a real clock ticks on from there).
    picked: {}, showDetail: false, clockAt: 0,
    // HTML checks of emails (by email id; the HTML of a sent email never changes) and link checks asked for.
    checks: {}, linkChecks: {} };
  // Tab → the kind of its items, and the dashboard view (src/admin/dashboard.ts) that feeds it.
  var KIND = { emails: 'email', received: 'received', deliveries: 'delivery', domains: 'domain', contacts: 'contact', broadcasts: 'broadcast', runs: 'run', inboxes: 'inbox' };
  var TAB = {}; Object.keys(KIND).forEach(function (t) { TAB[KIND[t]] = t; });
  var VIEWS = { received: 'received-emails', domains: 'domains', contacts: 'contacts', broadcasts: 'broadcasts', runs: 'automation-runs', inboxes: 'inboxes' };

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
  var TOKEN_COOKIE = document.querySelector('meta[name="admin-cookie"]').getAttribute('content');
  // The admin API's root, from <base href> (`/_emulator/`, or `/PREFIX/_emulator/` when the app is mounted).
  var ADMIN_PATH = new URL('.', document.baseURI).pathname.replace(/\/$/, '');
  function adminToken() { try { return sessionStorage.getItem('inbox.adminToken'); } catch (e) { return null; } }
  function keepToken(token) {
    try { sessionStorage.setItem('inbox.adminToken', token); } catch (e) { /* storage off: the cookie still works */ }
    document.cookie = TOKEN_COOKIE + '=' + encodeURIComponent(token) + '; path=' + ADMIN_PATH + '; SameSite=Strict' + (location.protocol === 'https:' ? '; Secure' : '');
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
  /**
   * A JSON call of the admin API (`path` relative to the page's base);
   * asks for the admin token on a 401 `*_admin_token` and tries again.
   * @param {string} path
   * @param {{ method?: string, body?: string, headers?: Record<string, string> }} [opts]
   * @returns {Promise<any>} the parsed body; rejects with an Error carrying `status`
   */
  function api(path, opts) {
    opts = opts || {};
    var token = adminToken();
    /** @type {Record<string, string>} */
    var headers = {}; Object.keys(opts.headers || {}).forEach(function (k) { headers[k] = opts.headers[k]; });
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(path, { method: opts.method, body: opts.body, headers: headers }).then(function (r) {
      return r.text().then(function (t) {
        var body = null; try { body = t ? JSON.parse(t) : null; } catch (e) { body = t; }
        if (r.status === 401 && body && (body.name === 'missing_admin_token' || body.name === 'invalid_admin_token')) {
          return askToken(body.name === 'invalid_admin_token').then(function () { return api(path, opts); });
        }
        if (!r.ok) { var err = Object.assign(new Error((body && body.message) || ('HTTP ' + r.status)), { status: r.status }); throw err; }
        return body;
      });
    });
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var toastTimer;
  /** @param {string} msg */
  function toast(msg) { var t = $('#toast'); t.textContent = msg; t.classList.add('show'); clearTimeout(toastTimer); toastTimer = setTimeout(function () { t.classList.remove('show'); }, 2200); }
  function fmtTime(iso) {
    if (!iso) return '—';
    var d = new Date(iso); if (isNaN(d.getTime())) return String(iso);
    return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '').replace(/Z$/, '') + ' UTC';
  }
  function shortTime(iso) {
    if (!iso) return '';
    var d = new Date(iso); if (isNaN(d.getTime())) return '';
    var now = state.clock ? new Date(clockNowMs()) : new Date();
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
    return api('teams').then(function (r) {
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
    return api('emails' + query).then(function (r) {
      // Newest first, whatever order the API uses.
      state.emails = r.data.slice().sort(function (a, b) { return String(b.created_at).localeCompare(String(a.created_at)); });
      state.emailsError = null;
    }, function (e) {
      state.emails = []; state.emailsError = e.status === 404 || e.status === 501 ? 'The emails admin API is not available in this build.' : e.message;
    });
  }
  function loadView(name) {
    if (!state.team) return Promise.resolve();
    return api('teams/' + encodeURIComponent(state.team) + '/' + VIEWS[name]).then(function (r) {
      state[name] = r.data;
      if (name === 'contacts') { state.segments = r.segments; state.topics = r.topics; }
    }, function () { state[name] = []; });
  }
  function loadViews() { return Promise.all(Object.keys(VIEWS).map(loadView).concat([loadUsage()])); }
  function loadDeliveries() {
    return api('webhook-deliveries' + teamQuery()).then(function (r) { state.deliveries = r.data.slice().reverse(); });
  }
  function loadClock() { return api('clock').then(setClock); }
  /** @param {{ now: string, mode: string }} c the emulated clock as the admin API gives it */
  function setClock(c) { state.clock = { now: c.now, mode: c.mode }; state.clockAt = Date.now(); renderClock(); }
  /** The emulated now, ms: in real mode it moves with the wall clock since it was read. */
  function clockNowMs() {
    var at = Date.parse(state.clock.now);
    return state.clock.mode === 'real' ? at + (Date.now() - state.clockAt) : at;
  }
  // The header's usage line (GET /_emulator/teams/{id}/usage; a limit shows only with --plan: without one a limit is
  // null, or 2147483647 where the SDK types it `number`, src/resources/usage/service.ts NO_LIMIT), reloaded with the views.
  var NO_LIMIT = 2147483647;
  function loadUsage() {
    if (!state.team) return Promise.resolve();
    return api('teams/' + encodeURIComponent(state.team) + '/usage').then(function (u) {
      /** @param {{ used: number, limit: number | null }} x */
      function of(x) { return x.used.toLocaleString('en-US') + (x.limit === null || x.limit === NO_LIMIT ? '' : ' / ' + x.limit.toLocaleString('en-US')); }
      // Labelled by what it counts: the quota counts each recipient of a sent email and each received email (docs/quotas-and-rate-limits.md#usage-and-quotas), not the emails the Emails tab lists.
      $('#usage').textContent = 'Quota today ' + of(u.emails.daily) + ' · this month ' + of(u.emails.monthly) + ' (recipients sent + emails received) · contacts ' + of(u.contacts);
    }, function () { $('#usage').textContent = ''; });
  }
  function refresh() { return Promise.all([loadEmails(), loadDeliveries(), loadViews()]).then(render); }

  // --- rendering ----------------------------------------------------------
  function renderClock() {
    if (!state.clock) return;
    $('#clock-now').textContent = fmtTime(new Date(clockNowMs()).toISOString());
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
    if (kind === 'inbox') return [x.email_address, x.name, x.id, x.threads.map(function (t) { return t.subject; }).join(' ')].join(' ');
    return JSON.stringify(x);
  }
  function collection(kind) {
    return { email: state.emails, delivery: state.deliveries, received: state.received, domain: state.domains, contact: state.contacts, broadcast: state.broadcasts, run: state.runs, inbox: state.inboxes }[kind] || [];
  }
  function visibleDeliveries() {
    var type = $('#search-type').value.trim().toLowerCase(), status = $('#search-status').value;
    return state.deliveries.filter(function (d) {
      return (!type || d.event_type.toLowerCase().indexOf(type) !== -1) && (!status || d.status === status);
    });
  }
  function row(kind, id, who, when, subject, meta, mono) {
    var sel = state.selected && state.selected.kind === kind && state.selected.id === id;
    return h('div', { className: 'item' + (sel ? ' selected' : ''), 'data-id': id, 'data-kind': kind, 'data-testid': kind + '-item', tabindex: '0', role: 'option', 'aria-selected': sel ? 'true' : 'false', onclick: function () { select(kind, id); } },
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
    inbox: 'No inbox yet. Create one with POST /inboxes.',
  };
  function render() {
    Object.keys(KIND).forEach(function (t) { $('#count-' + t).textContent = t === 'emails' ? state.emails.length : collection(KIND[t]).length; });
    document.querySelectorAll('.tabs button').forEach(function (b) { b.classList.toggle('active', b.getAttribute('data-tab') === state.tab); });
    $('#search-emails').hidden = state.tab !== 'emails';
    $('#search-deliveries').hidden = state.tab !== 'deliveries';
    $('#search-other').hidden = state.tab === 'emails' || state.tab === 'deliveries';
    var box = $('#list');
    // The list is rebuilt: the item that had the keyboard focus gets it back.
    var focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest('#list .item') : null;
    var focusedId = focused ? focused.getAttribute('data-id') : null;
    box.textContent = '';
    document.body.classList.toggle('detail-open', !!(state.showDetail && state.selected));
    var kind = KIND[state.tab];
    if (state.tab === 'emails') {
      if (state.emailsError) add(box, h('div', { className: 'empty' }, state.emailsError));
      var emails = visibleEmails();
      if (!emails.length && !state.emailsError) add(box, h('div', { className: 'empty' }, $('#search').value.trim() ? 'No email matches.' : 'No email sent yet.'));
      emails.forEach(function (e, i) {
        var atts = list(e.attachments).length;
        add(box, row('email', e.id, list(e.to).join(', ') || '(no recipient)', shortTime(e.created_at), e.subject || '(no subject)',
          [badge(e.last_event), h('span', { className: 'from' }, 'from ' + (e.from || '')),
            atts ? h('span', { className: 'marker', 'data-testid': 'attachment-marker', title: atts + (atts === 1 ? ' attachment' : ' attachments') }, clip(), String(atts)) : null,
            checkMarker(e, i < AUTO_CHECKS),
            list(e.codes).length ? h('span', { className: 'chip', 'data-testid': 'code-chip' }, e.codes[0]) : null]));
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
        if (kind === 'received') add(box, row(kind, x.id, x.from, shortTime(x.created_at), x.subject || '(no subject)', [h('span', null, 'to ' + list(x.to).join(', ')), x.attachments.length ? h('span', { className: 'marker', 'data-testid': 'attachment-marker', title: x.attachments.length + ' attachment' + (x.attachments.length === 1 ? '' : 's') }, clip(), String(x.attachments.length)) : null, checkMarker(x, items.indexOf(x) < AUTO_CHECKS)]));
        if (kind === 'domain') add(box, row(kind, x.id, x.name, shortTime(x.created_at), null, [badge(x.status), h('span', null, x.region), x.claim ? h('span', null, '· claim ' + x.claim.status) : null]));
        if (kind === 'contact') add(box, row(kind, x.id, x.email, shortTime(x.created_at), [x.first_name, x.last_name].filter(Boolean).join(' ') || null,
          [badge(x.unsubscribed ? 'unsubscribed' : 'subscribed'), h('span', null, x.segments.map(function (s) { return s.name; }).join(', ') || 'no segment')]));
        if (kind === 'broadcast') add(box, row(kind, x.id, x.name || '(unnamed)', shortTime(x.sent_at || x.created_at), x.subject || '', [badge(x.status), h('span', null, x.stats.recipients + ' recipients · ' + x.stats.opened + ' opened · ' + x.stats.clicked + ' clicked')]));
        if (kind === 'inbox') add(box, row(kind, x.id, x.email_address, shortTime(x.last_received || x.created_at), x.name || null,
          [h('span', null, x.threads.length + (x.threads.length === 1 ? ' thread' : ' threads') + ' · ' + x.unread + ' unread · ' + x.drafts + (x.drafts === 1 ? ' draft' : ' drafts'))]));
        if (kind === 'run') add(box, row(kind, x.id, x.automation_name || x.automation_id, shortTime(x.created_at), x.contact_email || '', [badge(x.status), h('span', { className: 'mono' }, x.event_name), h('span', null, '· ' + x.steps.length + ' steps')]));
      });
    }
    if (focusedId) {
      var again = box.querySelector('.item[data-id="' + (window.CSS && CSS.escape ? CSS.escape(focusedId) : focusedId) + '"]');
      if (again) /** @type {HTMLElement} */ (again).focus({ preventScroll: true });
    }
    renderDetail();
  }
  var VIEW_OF = { email: function (x) { return emailView(x); }, delivery: function (x) { return deliveryView(x); }, received: function (x) { return receivedView(x); },
    domain: function (x) { return domainView(x); }, contact: function (x) { return contactView(x); }, broadcast: function (x) { return broadcastView(x); }, run: function (x) { return runView(x); }, inbox: function (x) { return inboxView(x); } };
  function renderDetail() {
    var box = $('#detail');
    var sel = state.selected && TAB[state.selected.kind] === state.tab ? state.selected : null;
    var item = sel && collection(sel.kind).filter(function (x) { return x.id === sel.id; })[0];
    if (!item) { box.removeAttribute('data-key'); box.textContent = ''; add(box, h('div', { className: 'placeholder', 'data-testid': 'placeholder' }, 'Select an item in the list.')); return; }
    var check = sel.kind === 'email' || sel.kind === 'received' ? state.checks[sel.kind + ':' + item.id] : null;
    var key = sel.kind + ':' + JSON.stringify(item) + ':' + state.emailPane + ':' + state.width + ':' + (check ? JSON.stringify(check) + JSON.stringify(state.linkChecks[sel.kind + ':' + item.id] || null) : '');
    if (box.getAttribute('data-key') === key) return;
    box.setAttribute('data-key', key);
    box.textContent = '';
    add(box, h('button', { className: 'back', 'data-testid': 'back', onclick: function () { state.showDetail = false; render(); } }, '\u2190 Back to the list'));
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
      state.emailPane === 'source' ? sourceBox(rawUrl, sourceKey) : !html && x.text ? [
        // A text-only email: its text where the HTML would be.
        h('div', { className: 'card pane' }, h('div', { className: 'label' }, h('span', null, 'Text (no HTML part)'), h('span', null, x.text.length + ' chars')),
          h('pre', { id: 'email-text', 'data-testid': 'email-text', className: 'text-body' }, x.text))] : [
        h('div', { className: 'card pane' }, h('div', { className: 'label' }, h('span', null, 'HTML' + (state.width === 'full' ? '' : ' · ' + state.width + ' px')), h('span', null, html ? (html.length + ' chars') : 'none')),
          h('div', { className: 'frame-box' }, h('iframe', { id: 'email-html', className: 'html', 'data-testid': 'email-html', sandbox: '', srcdoc: html || '<p style="font:14px system-ui;color:#667085;padding:8px">No HTML part.</p>', title: 'email HTML', style: 'width:' + (state.width === 'full' ? '100%' : state.width + 'px') }))),
        h('div', { className: 'card pane', style: 'margin-top:14px' }, h('div', { className: 'label' }, h('span', null, 'Text'), h('span', null, x.text ? (x.text.length + ' chars') : 'none')),
          h('pre', { id: 'email-text', 'data-testid': 'email-text', style: 'height:auto;max-height:300px' }, x.text || '(no text part)'))],
      h('h2', null, 'One-time codes and links'),
      h('div', { className: 'card' },
        codes.length ? h('div', { className: 'chips', 'data-testid': 'email-codes' }, codes.map(function (c) { return h('span', { className: 'chip' }, c); })) : h('div', { className: 'empty', 'data-testid': 'email-codes' }, 'No one-time code.'),
        links.length ? h('ol', { className: 'links', 'data-testid': 'email-links' }, links.map(function (l) { return h('li', null, l); })) : h('div', { className: 'empty' }, 'No link.')),
      checksView(x),
    ];
  }
  /** A paperclip icon (inline SVG), for the attachment marker. */
  function clip() {
    var ns = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24'); svg.setAttribute('width', '13'); svg.setAttribute('height', '13'); svg.setAttribute('aria-hidden', 'true');
    var path = document.createElementNS(ns, 'path');
    path.setAttribute('d', 'M21 11.5l-8.5 8.5a5.5 5.5 0 0 1-7.8-7.8l9-9a3.7 3.7 0 0 1 5.2 5.2l-9 9a1.8 1.8 0 0 1-2.6-2.6l8.3-8.3');
    path.setAttribute('fill', 'none'); path.setAttribute('stroke', 'currentColor'); path.setAttribute('stroke-width', '2'); path.setAttribute('stroke-linecap', 'round');
    svg.appendChild(path);
    return svg;
  }

  // --- checks of an email (GET emails/{id}/html-check, link-check; src/admin/checks.ts) --------------
  /** The admin path of an email's checks: sent (`emails/…`) or received (`inbound/emails/…`). */
  function checkPath(x) { return (x.raw_url && /inbound/.test(x.raw_url) ? 'inbound/emails/' : 'emails/') + encodeURIComponent(x.id); }
  function checkKey(x) { return (x.raw_url && /inbound/.test(x.raw_url) ? 'received:' : 'email:') + x.id; }
  var checkQueue = [], checking = false;
  /** Asks for an email's HTML check once (one request at a time); the page renders again when it comes. */
  function wantCheck(x) {
    var key = checkKey(x);
    if (state.checks[key] !== undefined) return;
    state.checks[key] = null;
    checkQueue.push(function () {
      return api(checkPath(x) + '/html-check').then(function (c) { state.checks[key] = c; }, function () { state.checks[key] = { failed: true }; });
    });
    pump();
  }
  function pump() {
    if (checking || !checkQueue.length) return;
    checking = true;
    checkQueue.shift()().then(function () { checking = false; render(); pump(); });
  }
  /** Findings of a check worth a marker: features that break the email in some client (`breaks`: not supported there and not harmless; partial support and harmless features are not), Gmail clipping, List-Unsubscribe problems. */
  function problemsOf(c) {
    if (!c || c.failed) return 0;
    var none = c.findings.filter(function (f) { return f.breaks; }).length;
    return none + (c.parse_error ? 1 : 0) + (c.size.gmail_clipped ? 1 : 0) + c.list_unsubscribe.problems.length;
  }
  /** The newest emails of a list whose checks are asked for as soon as they are listed (an older one's when it is opened): each check is a second of the server's time on a large email. */
  var AUTO_CHECKS = 30;
  /** The list's marker of an email whose check found something; `ask`: ask for its check now. */
  function checkMarker(e, ask) {
    if (ask) wantCheck(e);
    var n = problemsOf(state.checks[checkKey(e)]);
    return n ? h('span', { className: 'marker warn', 'data-testid': 'check-marker', title: n + (n === 1 ? ' finding' : ' findings') + ': features that break the email in some client, Gmail clipping, List-Unsubscribe (see Checks)' }, '\u26A0 ' + n) : null;
  }
  /**
   * A list of findings: each feature with its caniemail page, and a badge per
   * client lacking it: red where it breaks the email, amber where it is
   * partly supported, grey where it is missing but harmless (the reason is
   * shown under the feature).
   */
  function findingList(testid, findings) {
    return h('ul', { className: 'findings' + (testid === 'check-findings-minor' ? ' minor' : ''), 'data-testid': testid }, findings.map(function (f) {
      return h('li', { 'data-feature': f.feature },
        h('div', null, f.url ? h('a', { href: f.url, target: '_blank', rel: 'noopener' }, f.feature) : h('b', null, f.feature), ' ', h('span', { className: 'note' }, f.category || '')),
        f.harmless ? h('div', { className: 'note', 'data-testid': 'harmless-reason' }, 'Harmless: ' + f.harmless + '.') : null,
        h('div', { className: 'clients' }, f.clients.map(function (cl) {
          var kind = cl.breaks ? 'bad' : cl.support === 'partial' ? 'warn' : '';
          return h('span', { className: 'badge ' + kind, title: (cl.support === 'none' ? 'not supported' : 'partly supported') + (cl.support === 'none' && !cl.breaks ? ' (harmless)' : '') + (cl.notes.length ? ': ' + cl.notes.join(' ') : '') }, cl.name);
        })));
    }));
  }
  function pctText(x) { return (Math.round(x * 10) / 10) + '%'; }
  /** The Checks section of an email: score per client family, each finding with its clients, size, List-Unsubscribe, links. */
  function checksView(x) {
    wantCheck(x);
    var key = checkKey(x);
    var c = state.checks[key];
    var lc = state.linkChecks[key];
    var linkButton = h('button', { className: 'btn small', 'data-testid': 'check-links', disabled: lc === null, onclick: function () {
      state.linkChecks[key] = null; renderDetail();
      api(checkPath(x) + '/link-check').then(function (r) { state.linkChecks[key] = r; renderDetail(); }, function (e) { state.linkChecks[key] = undefined; toast('Link check failed: ' + e.message); renderDetail(); });
    } }, lc === null ? 'Checking links\u2026' : 'Check links');
    var body;
    var breaking = c && !c.failed ? c.findings.filter(function (f) { return f.breaks; }) : [];
    var minor = c && !c.failed ? c.findings.filter(function (f) { return !f.breaks; }) : [];
    if (!c) body = h('div', { className: 'empty' }, 'Checking\u2026');
    else if (c.failed) body = h('div', { className: 'empty' }, 'The check could not be made.');
    else body = [
      h('div', { className: 'sub' }, 'HTML support by client family ', h('span', { className: 'note' }, '(caniemail.com data of ' + String(c.data_date).slice(0, 10) + '; supported / partial / not supported)')),
      h('div', { className: 'scores', 'data-testid': 'check-scores' }, c.families.map(function (f) {
        return h('div', { className: 'score', 'data-family': f.family, title: f.clients.join(', ') },
          h('div', { className: 'fam' }, f.name),
          h('div', { className: 'bar' }, h('span', { className: 'ok', style: 'width:' + f.supported + '%' }), h('span', { className: 'part', style: 'width:' + f.partial + '%' }), h('span', { className: 'no', style: 'width:' + f.unsupported + '%' })),
          h('div', { className: 'note' }, pctText(f.supported) + ' \u00b7 ' + pctText(f.partial) + ' \u00b7 ' + pctText(f.unsupported)));
      })),
      c.parse_error ? h('div', { className: 'empty', 'data-testid': 'check-parse-error' }, 'The HTML could not be read (' + c.parse_error + '): a malformed <style> block, which clients may drop whole.') : null,
      h('div', { className: 'sub' }, 'Features that break the email in some clients'),
      breaking.length ? findingList('check-findings', breaking) : h('div', { className: 'empty', 'data-testid': 'check-findings' }, !c.has_html ? 'No HTML part.' : minor.length ? 'Nothing it uses breaks in any client.' : 'Every feature it uses is supported by every client.'),
      minor.length ? [
        h('div', { className: 'sub' }, 'Partly supported or harmless ', h('span', { className: 'note' }, '(the email still shows as meant; toRenderIn passes them by default)')),
        findingList('check-findings-minor', minor),
      ] : null,
      h('div', { className: 'sub' }, 'Size and headers'),
      h('ul', { className: 'facts', 'data-testid': 'check-size' },
        h('li', null, c.size.gmail_clipped ? h('span', { className: 'badge bad', 'data-testid': 'gmail-clip' }, 'clipped') : h('span', { className: 'badge ok', 'data-testid': 'gmail-clip' }, 'not clipped'), ' HTML ' + fmtSize(c.size.html_bytes) + ' (Gmail clips over ' + fmtSize(c.size.gmail_clip_bytes) + ', ', h('a', { href: c.size.source, target: '_blank', rel: 'noopener' }, 'source'), '); message ' + fmtSize(c.size.message_bytes)),
        h('li', null, c.list_unsubscribe.problems.length ? h('span', { className: 'badge bad' }, 'List-Unsubscribe') : h('span', { className: 'badge ' + (c.list_unsubscribe.one_click ? 'ok' : '') }, c.list_unsubscribe.one_click ? 'one-click unsubscribe' : 'no List-Unsubscribe'),
          ' ', c.list_unsubscribe.problems.length ? c.list_unsubscribe.problems.join(' ') : (c.list_unsubscribe.list_unsubscribe || (c.list_unsubscribe.required ? '' : 'not required (not a broadcast)')))),
    ];
    return [
      h('div', { className: 'toolbar' }, h('h2', null, 'Checks'), linkButton),
      h('div', { className: 'card checks', 'data-testid': 'checks' }, body,
        lc ? [h('div', { className: 'sub' }, 'Links (' + lc.links.length + ', ' + lc.errors + ' not ok)'),
          lc.links.length ? table('link-results', ['Status', 'URL'], lc.links.map(function (l) {
            return h('tr', null, h('td', null, h('span', { className: 'badge ' + (l.ok ? 'ok' : 'bad') }, l.status !== null ? String(l.status) : 'error'), l.kind === 'image' ? h('span', { className: 'note' }, ' image') : null),
              h('td', { className: 'value' }, l.url, l.error ? h('div', { className: 'note' }, l.error) : null));
          })) : h('div', { className: 'empty' }, 'No link or image.')] : null),
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
      content(e, 'emails/' + encodeURIComponent(e.id) + '/raw', e.id + ':' + e.last_event),
      h('h2', null, 'Attachments'),
      h('div', { className: 'card' }, atts.length ? h('table', { 'data-testid': 'attachments' }, h('thead', null, h('tr', null, h('th', null, 'File'), h('th', null, 'Type'), h('th', null, 'Size'), h('th', null, 'Content-ID'))),
        h('tbody', null, atts.map(function (a) {
          return h('tr', null, h('td', null, h('a', { href: 'emails/' + encodeURIComponent(e.id) + '/attachments/' + encodeURIComponent(a.id), download: a.filename || true }, a.filename || a.id)),
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
      api('webhook-deliveries/' + encodeURIComponent(d.id) + '/replay', { method: 'POST' }).then(function (nd) {
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
  /** The folders of an inbox, in the service's order (docs/reference/inboxes.md: inbox, archive, spam, sent, trash). */
  var FOLDERS = ['inbox', 'archive', 'spam', 'sent', 'trash'];
  /**
   * An inbox: its threads by folder (each with labels, assignee, read state
   * and its emails), its drafts, labels and agent settings.
   * @param {any} x an item of GET /_emulator/teams/{team_id}/inboxes
   */
  function inboxView(x) {
    var labelChip = function (l) { return h('span', { className: 'chip', style: l.color ? 'border-color:' + l.color : '' }, l.name); };
    return [
      h('h1', { 'data-testid': 'inbox-address' }, x.email_address),
      h('div', { className: 'actions' }, h('span', { className: 'note' }, x.unread + ' unread · ' + x.drafts + ' drafts'), h('span', { className: 'note mono' }, x.id)),
      h('h2', null, 'Threads'),
      h('div', { className: 'card', 'data-testid': 'inbox-threads' }, x.threads.length ? FOLDERS.filter(function (f) { return x.threads.some(function (t) { return t.folder === f; }); }).map(function (f) {
        return h('div', null, h('h3', { 'data-testid': 'folder-' + f }, f),
          table('inbox-threads-' + f, ['Subject', 'From', 'Emails', 'Labels', 'Assignee', 'Last'], x.threads.filter(function (t) { return t.folder === f; }).map(function (t) {
            return h('tr', { 'data-testid': 'thread-row', style: t.read ? '' : 'font-weight:600' },
              h('td', null, t.subject || '(no subject)'), h('td', null, t.from || ''), h('td', null, String(t.emails.length)),
              h('td', null, h('div', { className: 'chips' }, t.labels.map(labelChip))), h('td', null, t.assignee_email || '—'), h('td', null, fmtTime(t.received_at)));
          })));
      }) : h('div', { className: 'empty' }, 'No thread yet. Mail received for this address lands here.')),
      h('h2', null, 'Drafts'),
      h('div', { className: 'card' }, x.draft_list.length ? table('inbox-drafts', ['Type', 'To', 'Subject', 'Updated'], x.draft_list.map(function (d) {
        return h('tr', null, h('td', null, badge(d.type)), h('td', null, list(d.to).join(', ')), h('td', null, d.subject || ''), h('td', null, fmtTime(d.updated_at)));
      })) : h('div', { className: 'empty' }, 'No draft.')),
      h('h2', null, 'Labels'),
      h('div', { className: 'card' }, x.labels.length ? h('div', { className: 'chips', 'data-testid': 'inbox-labels' }, x.labels.map(labelChip)) : h('div', { className: 'empty' }, 'No label.')),
      h('h2', null, 'Agent'),
      h('div', { className: 'card' }, kv([['Tone', x.agent.tone], ['Instructions', x.agent.instructions], ['Allowed actions', x.agent.actions.join(', ') || null]])),
    ];
  }
  function select(kind, id) {
    state.selected = { kind: kind, id: id };
    state.picked[state.tab] = state.selected;
    state.showDetail = true;
    location.hash = kind + '/' + id;
    render();
    $('#detail').scrollTop = 0;
  }
  /** Shows a tab with its own selection (or none). */
  function showTab(tab) {
    state.picked[state.tab] = state.selected;
    state.tab = tab;
    state.selected = state.picked[tab] || null;
    state.showDetail = false;
    if (state.selected) location.hash = state.selected.kind + '/' + state.selected.id;
    else history.replaceState(null, '', location.pathname + location.search);
    render();
  }

  // --- controls -----------------------------------------------------------
  document.querySelectorAll('.tabs button').forEach(function (b) {
    b.addEventListener('click', function () { showTab(b.getAttribute('data-tab')); });
  });
  var searchTimer = null;
  $('#search').addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(function () { loadEmails().then(render); }, 150); });
  $('#search-other-input').addEventListener('input', render);
  $('#search-type').addEventListener('input', render);
  $('#search-status').addEventListener('change', render);
  $('#team-select').addEventListener('change', function (ev) {
    state.team = ev.target.value; localStorage.setItem('inbox.team', state.team); state.selected = null; state.picked = {}; refresh();
  });
  function advance(text) {
    var ms = parseDuration(text);
    if (ms === null) { toast('Cannot read duration "' + text + '" (use e.g. 5s, 10m, 1h30m)'); return; }
    api('clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: ms }) }).then(function (r) {
      setClock(r);
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
    var es = new EventSource('events');
    es.addEventListener('open', function () { $('#live').classList.add('on'); });
    es.addEventListener('error', function () { $('#live').classList.remove('on'); });
    es.addEventListener('hello', function (m) { setClock(JSON.parse(m.data)); });
    // Jobs ran: email statuses and deliveries may have moved on.
    es.addEventListener('clock', function (m) { setClock(JSON.parse(m.data)); soon('emails', loadEmails); soon('deliveries', loadDeliveries); soon('views', loadViews); });
    // Received mail: the received list, and the inboxes it may have landed in.
    es.addEventListener('inbound', function () { soon('received', function () { return Promise.all([loadView('received'), loadView('inboxes')]); }); soon('usage', loadUsage); });
    // An API write of the team shown: the dashboard views reload.
    es.addEventListener('change', function (m) { var d = JSON.parse(m.data); if (d.team_id === state.team) soon('views', loadViews); });
    es.addEventListener('email', function () { soon('emails', loadEmails); });
    es.addEventListener('delivery', function () { soon('deliveries', loadDeliveries); });
    es.addEventListener('reset', function () { state.selected = null; state.picked = {}; loadTeams().then(refresh).catch(offline); });
  }

  var m = /^#(email|delivery|received|domain|contact|broadcast|run|inbox)\/(.+)$/.exec(location.hash);
  if (m) { state.selected = { kind: m[1], id: decodeURIComponent(m[2]) }; state.tab = TAB[m[1]]; state.picked[state.tab] = state.selected; state.showDetail = true; }
  // A real clock ticks: the header shows the emulated now, moving with the wall clock between reads.
  setInterval(function () { if (state.clock && state.clock.mode === 'real') renderClock(); }, 1000);

  // --- keyboard: up/down or j/k move through the list, Enter opens, Escape goes back to the list --------
  document.addEventListener('keydown', function (ev) {
    var t = /** @type {HTMLElement} */ (ev.target);
    if (ev.ctrlKey || ev.metaKey || ev.altKey || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName) || !$('#token-gate').hidden) return;
    var items = Array.prototype.slice.call(document.querySelectorAll('#list .item'));
    if (!items.length) return;
    var step = ev.key === 'j' || ev.key === 'ArrowDown' ? 1 : ev.key === 'k' || ev.key === 'ArrowUp' ? -1 : 0;
    var at = items.indexOf(t.closest ? t.closest('#list .item') : null);
    if (step) {
      if (at < 0) at = items.findIndex(function (x) { return x.classList.contains('selected'); });
      var next = at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.max(0, Math.min(items.length - 1, at + step));
      ev.preventDefault();
      items[next].focus();
      items[next].scrollIntoView({ block: 'nearest' });
    } else if (ev.key === 'Enter' && at >= 0) {
      ev.preventDefault();
      select(items[at].getAttribute('data-kind'), items[at].getAttribute('data-id'));
    } else if (ev.key === 'Escape' && state.showDetail) {
      state.showDetail = false; render();
    }
  });
  Promise.all([loadTeams(), loadClock()]).then(refresh).then(function () { document.body.setAttribute('data-ready', '1'); connect(); });
})();
