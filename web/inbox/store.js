// @ts-check
/**
 * The page's state, in one typed store: what the admin API answered (per
 * view), what the user chose (tab, selection, panes), and caches of what
 * never changes (raw sources, checks). Views read it; the loaders
 * (data.js) and the controls write it, then call `render()`.
 */

/** @typedef {import('./types.js').Tab} Tab */
/** @typedef {import('./types.js').Kind} Kind */
/** @typedef {import('./types.js').Selection} Selection */
/** @typedef {import('./types.js').ItemOf} ItemOf */

/**
 * @typedef {object} State
 * @property {string | null} team the selected team's id
 * @property {import('./types.js').Team[]} teams
 * @property {Tab} tab
 * @property {import('./types.js').Email[]} emails sent emails, newest first
 * @property {string | null} emailsError why the emails could not be listed
 * @property {import('./types.js').Delivery[]} deliveries newest first
 * @property {import('./types.js').Received[]} received
 * @property {import('./types.js').Domain[]} domains
 * @property {import('./types.js').Contact[]} contacts
 * @property {import('./types.js').ContactsView['segments']} segments
 * @property {import('./types.js').ContactsView['topics']} topics
 * @property {import('./types.js').Broadcast[]} broadcasts
 * @property {import('./types.js').Run[]} runs
 * @property {import('./types.js').Inbox[]} inboxes
 * @property {Selection | null} selected the item in the detail
 * @property {Partial<Record<Tab, Selection | null>>} picked each tab's own selection (a tab shows its own or none)
 * @property {boolean} showDetail a narrow window shows the detail rather than the list
 * @property {import('./types.js').Clock | null} clock the emulated clock as last read
 * @property {number} clockAt when the clock was last read (wall ms: a real clock ticks on from there)
 * @property {'preview' | 'source'} emailPane
 * @property {'375' | '768' | 'full'} width the preview's width
 * @property {Record<string, string>} sources raw sources by key
 * @property {Record<string, import('./types.js').HtmlCheck | { failed: true } | null>} checks HTML checks by `kind:id` (null: asked; the HTML of an email never changes)
 * @property {Record<string, import('./types.js').LinkCheck | null | undefined>} linkChecks link checks asked for (null: running)
 */

/** @type {State} */
export const state = {
  team: null, teams: [], tab: 'emails', emails: [], emailsError: null, deliveries: [],
  received: [], domains: [], contacts: [], segments: [], topics: [], broadcasts: [], runs: [], inboxes: [],
  selected: null, picked: {}, showDetail: false, clock: null, clockAt: 0,
  emailPane: 'preview', width: 'full', sources: {}, checks: {}, linkChecks: {},
};

/** Tab → the kind of its items. @type {Record<Tab, Kind>} */
export const KIND = { emails: 'email', received: 'received', deliveries: 'delivery', domains: 'domain', contacts: 'contact', broadcasts: 'broadcast', runs: 'run', inboxes: 'inbox' };
/** Kind → its tab. @type {Record<Kind, Tab>} */
export const TAB = { email: 'emails', received: 'received', delivery: 'deliveries', domain: 'domains', contact: 'contacts', broadcast: 'broadcasts', run: 'runs', inbox: 'inboxes' };
/** The tabs, in the page's order. @type {Tab[]} */
export const TABS = ['emails', 'received', 'deliveries', 'domains', 'contacts', 'broadcasts', 'runs', 'inboxes'];

/**
 * The items of a kind, as loaded.
 * @template {Kind} K
 * @param {K} kind
 * @returns {ItemOf[K][]}
 */
export function collection(kind) {
  /** @type {{ [X in Kind]: ItemOf[X][] }} */
  const all = { email: state.emails, delivery: state.deliveries, received: state.received, domain: state.domains, contact: state.contacts, broadcast: state.broadcasts, run: state.runs, inbox: state.inboxes };
  return all[kind];
}

/** The emulated now, ms: in real mode it moves with the wall clock since it was read; the wall clock before the first read. */
export function clockNowMs() {
  if (!state.clock) return Date.now();
  const at = Date.parse(state.clock.now);
  return state.clock.mode === 'real' ? at + (Date.now() - state.clockAt) : at;
}

/**
 * The renderers, set by the entry module (inbox.js): a module that changes
 * the state calls `render()` (the list and the detail) or `renderDetail()`
 * without importing the views (no import cycle).
 */
export const renderers = { render: () => {}, renderDetail: () => {} };
/** Renders the list and the detail again. */
export function render() { renderers.render(); }
/** Renders the detail again (when its key changed). */
export function renderDetail() { renderers.renderDetail(); }

/**
 * A value kept in localStorage under `inbox.<name>` (null when storage is off or it was never set).
 * @param {string} name
 * @returns {string | null}
 */
export function stored(name) {
  try { return localStorage.getItem('inbox.' + name); } catch { return null; }
}
/**
 * Keeps (or, with null, forgets) a value in localStorage under `inbox.<name>`; storage off: nothing kept.
 * @param {string} name
 * @param {string | null} value
 */
export function keep(name, value) {
  try {
    if (value === null) localStorage.removeItem('inbox.' + name);
    else localStorage.setItem('inbox.' + name, value);
  } catch { /* storage off: the choice lasts for the page */ }
}
