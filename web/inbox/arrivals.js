// @ts-check
/**
 * Knowing mail arrived without looking: each sent and received email is
 * unread until opened in this browser (the read ids are kept in
 * localStorage, `inbox.read`, the newest 5,000), the count of unread ones
 * listed is in the tab's title (`(3) Inbox · resend-emulator`), and, once
 * the user turns it on with the Notify button (end of the tabs row) (the browser asks
 * for permission on that click, never before), a browser notification for
 * each email that arrives while the page is open.
 */
import { $, toast } from './dom.js';
import { keep, state, stored } from './store.js';

/** The page's own title, without the count. */
export const TITLE = 'Inbox · resend-emulator';
/** How many read ids are kept (the newest). */
const READ_KEPT = 5000;

/** @type {Set<string>} */
const read = new Set(parseIds(stored('read')));
/** @param {string | null} text @returns {string[]} */
function parseIds(text) {
  try {
    const v = JSON.parse(text || '[]');
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
  } catch { return []; }
}
function save() {
  const ids = [...read].slice(-READ_KEPT);
  keep('read', JSON.stringify(ids));
}
/** Whether an email (sent or received, by id) was not opened here yet. @param {string} id */
export function isUnread(id) { return !read.has(id); }
/** Marks an email read. @param {string} id */
export function markRead(id) {
  if (read.has(id)) return;
  read.add(id);
  save();
}
/** Marks every listed email (sent and received) read. */
export function markAllRead() {
  for (const e of state.emails) read.add(e.id);
  for (const r of state.received) read.add(r.id);
  save();
}
/** The unread emails listed (sent and received). */
function unreadCount() {
  return state.emails.filter((e) => !read.has(e.id)).length + state.received.filter((r) => !read.has(r.id)).length;
}
/** The tab's title: the unread count first, when there is one. */
export function renderTitle() {
  const n = unreadCount();
  document.title = (n ? '(' + n + ') ' : '') + TITLE;
}

// --- notifications -----------------------------------------------------------
/** Notifications are on: chosen here (`inbox.notify`) and allowed by the browser. */
function notifying() {
  return stored('notify') === 'on' && typeof Notification !== 'undefined' && Notification.permission === 'granted';
}
function renderNotifyButton() {
  const b = $('#notify-toggle');
  const on = notifying();
  b.textContent = on ? 'Notify: on' : 'Notify';
  b.setAttribute('aria-pressed', on ? 'true' : 'false');
  b.title = on ? 'Notifications of new mail are on: click to turn them off' : 'Notify me of new mail (the browser asks once)';
}
/** Turns notifications on (asking the browser's permission on this click) or off. */
async function toggleNotify() {
  if (notifying()) { keep('notify', null); renderNotifyButton(); return; }
  if (typeof Notification === 'undefined') { toast('This browser has no notifications.'); return; }
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'granted') keep('notify', 'on');
  else toast('Notifications were not allowed by the browser.');
  renderNotifyButton();
}
/** Wires the Notify button. */
export function initNotify() {
  renderNotifyButton();
  $('#notify-toggle').addEventListener('click', () => { toggleNotify(); });
}

/** The ids listed so far per list and team (`kind:team`): an id not among them arrived since. @type {Record<string, Set<string>>} */
const listed = {};
/**
 * Notes what a complete load of a list brought (the Emails list only when
 * no search narrows it): ids not listed before arrived (none on a list's
 * first load); with notifications on, each gets one (at most three, then
 * one that counts the rest).
 * @param {'email' | 'received'} kind
 * @param {{ id: string, subject?: string | null, from?: string | null }[]} items
 */
export function noteArrivals(kind, items) {
  const key = kind + ':' + state.team;
  const before = listed[key];
  listed[key] = new Set([...(before || []), ...items.map((x) => x.id)]);
  if (!before || !notifying()) return;
  const arrived = items.filter((x) => !before.has(x.id) && !read.has(x.id));
  arrived.slice(0, 3).forEach((x) => {
    new Notification((kind === 'email' ? 'Sent: ' : 'Received: ') + (x.subject || '(no subject)'), { body: x.from ? 'from ' + x.from : '', tag: x.id });
  });
  if (arrived.length > 3) new Notification((arrived.length - 3) + ' more new emails', { tag: 'more' });
}
