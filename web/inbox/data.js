// @ts-check
/**
 * Loading the page's data from the admin API into the store: the teams, the
 * sent emails (with the search), webhook deliveries, the clock, and the
 * team's dashboard views (src/admin/dashboard.ts).
 */
import { api, messageOf, statusOf } from './api.js';
import { $, add, fmtTime, h, input } from './dom.js';
import { noteArrivals } from './arrivals.js';
import { clockNowMs, keep, render, state, stored } from './store.js';

/** @typedef {import('./types.js').Ok<'admin/list-teams'>} Teams */
/** @typedef {import('./types.js').Ok<'admin/list-emails'>} Emails */
/** @typedef {import('./types.js').Ok<'admin/list-webhook-deliveries'>} Deliveries */

/**
 * The newest load asked of each list (a ticket number): a live refresh
 * may start while an older load of the same list is still on its way, and
 * the answers can come back in either order, so only the newest load's
 * answer is kept (an older one would put back a list without what the
 * newer write added).
 * @type {Record<string, number>}
 */
const tickets = {};
/** A ticket for a load of `list`. @param {string} list */
function ticket(list) { return (tickets[list] = (tickets[list] || 0) + 1); }
/** Whether `t` is still the newest load of `list`. @param {string} list @param {number} t */
function newest(list, t) { return tickets[list] === t; }

/** `?team_id=…` of the selected team ('' when none). */
export function teamQuery() { return state.team ? ('?team_id=' + encodeURIComponent(state.team)) : ''; }

/** Lists the teams for the switcher, and picks the one kept in localStorage (else the oldest). */
export async function loadTeams() {
  const r = /** @type {Teams} */ (await api('teams'));
  state.teams = r.data;
  const saved = stored('team');
  if (!state.team) state.team = (state.teams.some((t) => t.id === saved) ? saved : (state.teams[0] && state.teams[0].id)) || null;
  const sel = $('#team-select'); sel.textContent = '';
  state.teams.forEach((t) => add(sel, h('option', { value: t.id, selected: t.id === state.team }, t.name + ' — ' + t.owner_email)));
}
/** Chooses a team (kept in localStorage). @param {string} id */
export function chooseTeam(id) { state.team = id; keep('team', id); }

/** The sent emails of the team matching the search box, newest first. */
export async function loadEmails() {
  const q = input('#search').value.trim();
  const query = teamQuery() + (q ? (teamQuery() ? '&' : '?') + 'q=' + encodeURIComponent(q) : '');
  const t = ticket('emails');
  try {
    const r = /** @type {Emails} */ (await api('emails' + query));
    if (!newest('emails', t)) return;
    // Newest first, whatever order the API uses.
    state.emails = r.data.slice().sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
    state.emailsError = null;
    if (!q) noteArrivals('email', state.emails);
  } catch (e) {
    if (!newest('emails', t)) return;
    state.emails = []; state.emailsError = statusOf(e) === 404 || statusOf(e) === 501 ? 'The emails admin API is not available in this build.' : messageOf(e);
  }
}

/** The dashboard views: the store field each fills, and its path under /_emulator/teams/{id}/. */
const VIEWS = /** @type {const} */ ({ received: 'received-emails', domains: 'domains', contacts: 'contacts', broadcasts: 'broadcasts', runs: 'automation-runs', inboxes: 'inboxes' });
/** @typedef {keyof typeof VIEWS} View */

/**
 * Loads one dashboard view of the team (empty when it fails).
 * @param {View} name
 */
export async function loadView(name) {
  if (!state.team) return;
  const t = ticket(name);
  /** @type {any} */
  let r = null;
  try { r = await api('teams/' + encodeURIComponent(state.team) + '/' + VIEWS[name]); } catch { r = null; }
  if (!newest(name, t)) return;
  switch (name) {
    case 'received':
      state.received = r ? /** @type {import('./types.js').Ok<'admin/dashboard-received-emails'>} */ (r).data : [];
      noteArrivals('received', state.received);
      break;
    case 'domains': state.domains = r ? /** @type {import('./types.js').Ok<'admin/dashboard-domains'>} */ (r).data : []; break;
    case 'contacts': {
      const c = /** @type {import('./types.js').ContactsView | null} */ (r);
      state.contacts = c ? c.data : [];
      if (c) { state.segments = c.segments; state.topics = c.topics; }
      break;
    }
    case 'broadcasts': state.broadcasts = r ? /** @type {import('./types.js').Ok<'admin/dashboard-broadcasts'>} */ (r).data : []; break;
    case 'runs': state.runs = r ? /** @type {import('./types.js').Ok<'admin/dashboard-automation-runs'>} */ (r).data : []; break;
    case 'inboxes': state.inboxes = r ? /** @type {import('./types.js').Ok<'admin/dashboard-inboxes'>} */ (r).data : []; break;
  }
}
/** Every dashboard view and the usage line. */
export function loadViews() {
  return Promise.all([...(/** @type {View[]} */ (Object.keys(VIEWS))).map(loadView), loadUsage()]);
}
/** The team's webhook deliveries, newest first. */
export async function loadDeliveries() {
  const t = ticket('deliveries');
  const r = /** @type {Deliveries} */ (await api('webhook-deliveries' + teamQuery()));
  if (!newest('deliveries', t)) return;
  state.deliveries = r.data.slice().reverse();
}
/** Reads the emulated clock. */
export async function loadClock() { setClock(/** @type {import('./types.js').Clock} */ (await api('clock'))); }
/** Keeps the emulated clock as the admin API gives it, and shows it. @param {import('./types.js').Clock} c */
export function setClock(c) { state.clock = { now: c.now, mode: c.mode }; state.clockAt = Date.now(); renderClock(); }
/** The header's clock. */
export function renderClock() {
  if (!state.clock) return;
  $('#clock-now').textContent = fmtTime(new Date(clockNowMs()).toISOString());
  $('#clock-mode').textContent = state.clock.mode;
}

/** A limit that means none (src/resources/usage/service.ts NO_LIMIT: where the SDK types a limit `number`). */
const NO_LIMIT = 2147483647;
/**
 * The header's usage line (GET /_emulator/teams/{id}/usage; a limit shows
 * only with --plan: without one a limit is null or NO_LIMIT), reloaded with the views.
 */
export async function loadUsage() {
  if (!state.team) return;
  try {
    const u = /** @type {import('./types.js').Usage} */ (await api('teams/' + encodeURIComponent(state.team) + '/usage'));
    /** @param {{ used: number, limit: number | null }} x */
    const of = (x) => x.used.toLocaleString('en-US') + (x.limit === null || x.limit === NO_LIMIT ? '' : ' / ' + x.limit.toLocaleString('en-US'));
    // Labelled by what it counts: the quota counts each recipient of a sent email and each received email (docs/quotas-and-rate-limits.md#usage-and-quotas), not the emails the Emails tab lists.
    $('#usage').textContent = 'Quota today ' + of(u.emails.daily) + ' · this month ' + of(u.emails.monthly) + ' (recipients sent + emails received) · contacts ' + of(u.contacts);
  } catch {
    $('#usage').textContent = '';
  }
}
/** Everything of the team, then a render. */
export async function refresh() {
  await Promise.all([loadEmails(), loadDeliveries(), loadViews()]);
  render();
}
