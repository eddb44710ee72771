// @ts-check
/**
 * Live updates over server-sent events (`GET /_emulator/events`,
 * src/admin/inbox.ts): each event reloads what it may have changed, at most
 * once per 60 ms per loader; a reload that cannot reach the server marks the
 * page offline (the next event tries again).
 */
import { $ } from './dom.js';
import { loadDeliveries, loadEmails, loadTeams, loadUsage, loadView, loadViews, refresh, setClock } from './data.js';
import { render, state } from './store.js';

/** @type {Record<string, ReturnType<typeof setTimeout> | null>} */
const pending = {};
/** Marks the page offline. */
function offline() { $('#live').classList.remove('on'); }
/**
 * Runs a loader soon (once for a burst of events), then renders.
 * @param {string} name
 * @param {() => Promise<unknown>} fn
 */
function soon(name, fn) {
  if (pending[name]) return;
  pending[name] = setTimeout(() => { pending[name] = null; fn().then(render, offline); }, 60);
}
/**
 * The JSON data of an event.
 * @param {Event} m
 * @returns {any}
 */
const data = (m) => JSON.parse(/** @type {MessageEvent<string>} */ (m).data);

/** Connects the stream. */
export function connect() {
  const es = new EventSource('events');
  es.addEventListener('open', () => $('#live').classList.add('on'));
  es.addEventListener('error', () => $('#live').classList.remove('on'));
  es.addEventListener('hello', (m) => setClock(data(m)));
  // Jobs ran: email statuses and deliveries may have moved on.
  es.addEventListener('clock', (m) => { setClock(data(m)); soon('emails', loadEmails); soon('deliveries', loadDeliveries); soon('views', loadViews); });
  // Received mail: the received list, and the inboxes it may have landed in.
  es.addEventListener('inbound', () => { soon('received', () => Promise.all([loadView('received'), loadView('inboxes')])); soon('usage', loadUsage); });
  // An API write of the team shown: the dashboard views reload.
  es.addEventListener('change', (m) => { if (data(m).team_id === state.team) soon('views', loadViews); });
  es.addEventListener('email', () => soon('emails', loadEmails));
  es.addEventListener('delivery', () => soon('deliveries', loadDeliveries));
  es.addEventListener('reset', () => { state.selected = null; state.picked = {}; loadTeams().then(refresh).catch(offline); });
}
