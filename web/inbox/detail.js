// @ts-check
/**
 * The detail: the selected item of the current tab in its view, rebuilt only
 * when what it shows changed (its key), so a live refresh does not reset the
 * preview's scroll or the source being read.
 */
import { add, h } from './dom.js';
import { emailView, receivedView } from './message.js';
import { TAB, collection, render, state } from './store.js';
import { broadcastView, contactView, deliveryView, domainView, inboxView, runView } from './views.js';

/** @typedef {import('./types.js').ItemOf} ItemOf */
/** @typedef {import('./dom.js').Child} Child */

/** The view of each kind of item. @type {{ [K in import('./types.js').Kind]: (x: ItemOf[K]) => Child }} */
const VIEW_OF = { email: emailView, received: receivedView, delivery: deliveryView, domain: domainView, contact: contactView, broadcast: broadcastView, run: runView, inbox: inboxView };

/**
 * The view of an item.
 * @template {import('./types.js').Kind} K
 * @param {K} kind
 * @param {ItemOf[K]} item
 */
function viewOf(kind, item) { return /** @type {(x: ItemOf[K]) => Child} */ (VIEW_OF[kind])(item); }

/** Renders the detail, unless its key (the item, panes, checks) is the one shown. */
export function renderDetail() {
  const box = /** @type {HTMLElement} */ (document.querySelector('#detail'));
  const sel = state.selected && TAB[state.selected.kind] === state.tab ? state.selected : null;
  /** @type {import('./types.js').Item | undefined} */
  const item = sel ? collection(sel.kind).find((/** @type {{ id: string }} */ x) => x.id === sel.id) : undefined;
  if (!sel || !item) { box.removeAttribute('data-key'); box.textContent = ''; add(box, h('div', { className: 'placeholder', 'data-testid': 'placeholder' }, 'Select an item in the list.')); return; }
  const checkKey = sel.kind + ':' + item.id;
  const check = sel.kind === 'email' || sel.kind === 'received' ? state.checks[checkKey] : null;
  const key = sel.kind + ':' + JSON.stringify(item) + ':' + state.emailPane + ':' + state.width + ':' + (check ? JSON.stringify(check) + JSON.stringify(state.linkChecks[checkKey] || null) : '');
  if (box.getAttribute('data-key') === key) return;
  box.setAttribute('data-key', key);
  box.textContent = '';
  add(box, h('button', { className: 'back', 'data-testid': 'back', onclick: () => { state.showDetail = false; render(); } }, '\u2190 Back to the list'));
  add(box, viewOf(sel.kind, item));
}
