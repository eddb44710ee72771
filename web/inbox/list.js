// @ts-check
/**
 * The list: the tabs with their counts, the search boxes, and the items of
 * the current tab (sent emails newest first, webhook deliveries, and the
 * dashboard views); selecting an item and switching tabs.
 */
import { isUnread, markRead, renderTitle } from './arrivals.js';
import { AUTO_CHECKS, checkMarker } from './checks.js';
import { $, add, badge, clip, h, input, list, shortTime } from './dom.js';
import { KIND, TAB, TABS, collection, render, state } from './store.js';

/** @typedef {import('./types.js').Kind} Kind */
/** @typedef {import('./types.js').Tab} Tab */
/** @typedef {import('./dom.js').Child} Child */

/**
 * Text a list item is filtered by (the filter box of the dashboard views).
 * @param {Kind} kind
 * @param {any} x an item of that kind
 */
function searchText(kind, x) {
  if (kind === 'received') return [x.from, list(x.to).join(' '), x.subject, x.id].join(' ');
  if (kind === 'domain') return [x.name, x.status, x.id].join(' ');
  if (kind === 'contact') return [x.email, x.first_name, x.last_name, x.id, list(x.segments).map((/** @type {{ name: string }} */ s) => s.name).join(' ')].join(' ');
  if (kind === 'broadcast') return [x.name, x.subject, x.status, x.id].join(' ');
  if (kind === 'run') return [x.automation_name, x.status, x.event_name, x.contact_email, x.id].join(' ');
  if (kind === 'inbox') return [x.email_address, x.name, x.id, x.threads.map((/** @type {{ subject: string }} */ t) => t.subject).join(' ')].join(' ');
  return JSON.stringify(x);
}
/** The deliveries matching the event type and status filters. */
function visibleDeliveries() {
  const type = input('#search-type').value.trim().toLowerCase(), status = input('#search-status').value;
  return state.deliveries.filter((d) => (!type || d.event_type.toLowerCase().indexOf(type) !== -1) && (!status || d.status === status));
}
/**
 * A list item.
 * @param {Kind} kind
 * @param {string} id
 * @param {Child} who
 * @param {string} when
 * @param {Child | null} subject null: no subject line
 * @param {Child} meta
 * @param {boolean} [mono]
 */
function row(kind, id, who, when, subject, meta, mono) {
  const sel = !!state.selected && state.selected.kind === kind && state.selected.id === id;
  const unread = (kind === 'email' || kind === 'received') && isUnread(id);
  return h('div', { className: 'item' + (sel ? ' selected' : '') + (unread ? ' unread' : ''), 'data-unread': unread ? '1' : null, 'data-id': id, 'data-kind': kind, 'data-testid': kind + '-item', tabindex: '0', role: 'option', 'aria-selected': sel ? 'true' : 'false', onclick: () => select(kind, id) },
    h('div', { className: 'top' }, h('span', { className: 'who' + (mono ? ' mono' : '') }, who), h('span', { className: 'when' }, when)),
    subject !== null ? h('div', { className: 'subject' }, subject) : null,
    h('div', { className: 'meta' }, meta));
}
/** What an empty view says. @type {Partial<Record<Kind, string>>} */
const EMPTY = {
  received: 'No email received yet. POST /_emulator/inbound or send to a receiving domain over SMTP.',
  domain: 'No domain yet. Add one with POST /domains.',
  contact: 'No contact yet. Add one with POST /contacts.',
  broadcast: 'No broadcast yet. Create one with POST /broadcasts.',
  run: 'No automation run yet. Send an event with POST /events/send.',
  inbox: 'No inbox yet. Create one with POST /inboxes.',
};
/**
 * An attachment marker (a paperclip and the count), or nothing.
 * @param {number} n
 */
function attachmentMarker(n) {
  return n ? h('span', { className: 'marker', 'data-testid': 'attachment-marker', title: n + (n === 1 ? ' attachment' : ' attachments') }, clip(), String(n)) : null;
}

/** The items of the current tab. @param {HTMLElement} box */
function renderItems(box) {
  if (state.tab === 'emails') {
    if (state.emailsError) add(box, h('div', { className: 'empty' }, state.emailsError));
    if (!state.emails.length && !state.emailsError) add(box, h('div', { className: 'empty' }, input('#search').value.trim() ? 'No email matches.' : 'No email sent yet.'));
    state.emails.forEach((e, i) => {
      add(box, row('email', e.id, list(e.to).join(', ') || '(no recipient)', shortTime(e.created_at), e.subject || '(no subject)',
        [badge(e.last_event), h('span', { className: 'from' }, 'from ' + (e.from || '')),
          attachmentMarker(list(e.attachments).length),
          checkMarker(e, i < AUTO_CHECKS),
          list(e.codes).length ? h('span', { className: 'chip', 'data-testid': 'code-chip' }, e.codes[0]) : null]));
    });
    return;
  }
  if (state.tab === 'deliveries') {
    const ds = visibleDeliveries();
    if (!ds.length) add(box, h('div', { className: 'empty' }, state.deliveries.length ? 'No delivery matches.' : 'No webhook delivery yet. Register a webhook with POST /webhooks.'));
    ds.forEach((d) => {
      const last = d.attempts[d.attempts.length - 1];
      add(box, row('delivery', d.id, d.event_type, shortTime(d.created_at), null,
        [badge(d.status), h('span', null, d.attempts.length + (d.attempts.length === 1 ? ' attempt' : ' attempts')),
          last ? h('span', null, '· ' + (last.status_code !== null ? last.status_code : (last.error || ''))) : null,
          h('span', { className: 'mono' }, '· ' + d.id)], true));
    });
    return;
  }
  const kind = KIND[state.tab];
  const f = input('#search-other-input').value.trim().toLowerCase();
  /** @type {any[]} */
  const all = collection(kind);
  const shown = all.filter((x) => !f || searchText(kind, x).toLowerCase().indexOf(f) !== -1);
  if (!shown.length) add(box, h('div', { className: 'empty' }, all.length ? 'Nothing matches.' : EMPTY[kind]));
  switch (kind) {
    case 'received': state.received.filter((x) => shown.includes(x)).forEach((x, i) => add(box, row(kind, x.id, x.from, shortTime(x.created_at), x.subject || '(no subject)',
      [h('span', null, 'to ' + list(x.to).join(', ')), attachmentMarker(x.attachments.length), checkMarker(x, i < AUTO_CHECKS)]))); break;
    case 'domain': state.domains.filter((x) => shown.includes(x)).forEach((x) => add(box, row(kind, x.id, x.name, shortTime(x.created_at), null,
      [badge(x.status), h('span', null, x.region), x.claim ? h('span', null, '· claim ' + x.claim.status) : null]))); break;
    case 'contact': state.contacts.filter((x) => shown.includes(x)).forEach((x) => add(box, row(kind, x.id, x.email, shortTime(x.created_at), [x.first_name, x.last_name].filter(Boolean).join(' ') || null,
      [badge(x.unsubscribed ? 'unsubscribed' : 'subscribed'), h('span', null, x.segments.map((s) => s.name).join(', ') || 'no segment')]))); break;
    case 'broadcast': state.broadcasts.filter((x) => shown.includes(x)).forEach((x) => add(box, row(kind, x.id, x.name || '(unnamed)', shortTime(x.sent_at || x.created_at), x.subject || '',
      [badge(x.status), h('span', null, x.stats.recipients + ' recipients · ' + x.stats.opened + ' opened · ' + x.stats.clicked + ' clicked')]))); break;
    case 'inbox': state.inboxes.filter((x) => shown.includes(x)).forEach((x) => add(box, row(kind, x.id, x.email_address, shortTime(x.last_received || x.created_at), x.name || null,
      [h('span', null, x.threads.length + (x.threads.length === 1 ? ' thread' : ' threads') + ' · ' + x.unread + ' unread · ' + x.drafts + (x.drafts === 1 ? ' draft' : ' drafts'))]))); break;
    case 'run': state.runs.filter((x) => shown.includes(x)).forEach((x) => add(box, row(kind, x.id, x.automation_name || x.automation_id, shortTime(x.created_at), x.contact_email || '',
      [badge(x.status), h('span', { className: 'mono' }, x.event_name), h('span', null, '· ' + x.steps.length + ' steps')]))); break;
  }
}

/** The tabs, their counts, the search boxes and the list (the detail is rendered after, by the caller). */
export function renderList() {
  TABS.forEach((t) => { $('#count-' + t).textContent = String(collection(KIND[t]).length); });
  document.querySelectorAll('.tabs button').forEach((b) => b.classList.toggle('active', b.getAttribute('data-tab') === state.tab));
  $('#search-emails').hidden = state.tab !== 'emails';
  $('#email-actions').hidden = state.tab !== 'emails';
  renderTitle();
  $('#search-deliveries').hidden = state.tab !== 'deliveries';
  $('#search-other').hidden = state.tab === 'emails' || state.tab === 'deliveries';
  const box = $('#list');
  // The list is rebuilt: the item that had the keyboard focus gets it back.
  const active = document.activeElement;
  const focused = active && active.closest ? active.closest('#list .item') : null;
  const focusedId = focused ? focused.getAttribute('data-id') : null;
  box.textContent = '';
  document.body.classList.toggle('detail-open', !!(state.showDetail && state.selected));
  renderItems(box);
  if (focusedId) {
    const again = box.querySelector('.item[data-id="' + CSS.escape(focusedId) + '"]');
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }
}

/** Opens an item in the detail (and in the address: `#kind/id`). @param {Kind} kind @param {string} id */
export function select(kind, id) {
  if (kind === 'email' || kind === 'received') markRead(id);
  state.selected = { kind, id };
  state.picked[state.tab] = state.selected;
  state.showDetail = true;
  location.hash = kind + '/' + id;
  render();
  $('#detail').scrollTop = 0;
}
/** Shows a tab with its own selection (or none). @param {Tab} tab */
export function showTab(tab) {
  state.picked[state.tab] = state.selected;
  state.tab = tab;
  state.selected = state.picked[tab] || null;
  state.showDetail = false;
  if (state.selected) location.hash = state.selected.kind + '/' + state.selected.id;
  else history.replaceState(null, '', location.pathname + location.search);
  render();
}
/** Is this a kind of item? @param {string} s @returns {s is Kind} */
export function isKind(s) { return Object.prototype.hasOwnProperty.call(TAB, s); }
/** Is this a tab? @param {string | null} s @returns {s is Tab} */
export function isTab(s) { return s !== null && Object.prototype.hasOwnProperty.call(KIND, s); }
