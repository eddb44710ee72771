// @ts-check
/**
 * The inbox page's entry module (web/inbox/index.html loads it with
 * `<script type="module">`; served by src/admin/inbox.ts under
 * `/_emulator/assets/`). Native ES modules, no build step, each checked by
 * TypeScript (`// @ts-check`, web/tsconfig.json with `strict`, part of
 * `npm test`), their types taken from the admin document (types.js):
 *
 * | module | what |
 * |---|---|
 * | store.js | the state, in one typed store |
 * | api.js | admin API calls, the admin token |
 * | data.js | loading the store from the API; the header's clock and usage |
 * | list.js | tabs, counts, the list, selecting |
 * | detail.js | the detail of the selected item |
 * | message.js | a sent or received email: preview, text, source, codes |
 * | checks.js | an email's Checks and the list's ⚠ marker |
 * | views.js | webhook deliveries, domains, contacts, broadcasts, runs, inboxes |
 * | live.js | live updates (server-sent events) |
 * | theme.js | light, dark or the system's colours |
 * | arrivals.js | unread emails, the title's count, notifications |
 * | tidy.js | Delete and Clear of sent emails |
 * | release.js | Send to a real inbox (`--relay`) |
 * | dom.js | building elements, formatters |
 *
 * This module wires the controls (tabs, search, team, clock, keyboard) and
 * starts the page. Every path fetched is relative to the page's `<base
 * href>`, so it works under any mount path.
 */
import { api, messageOf } from './api.js';
import { chooseTeam, loadClock, loadEmails, loadTeams, refresh, setClock } from './data.js';
import { renderDetail } from './detail.js';
import { $, input, parseDuration, toast } from './dom.js';
import { connect } from './live.js';
import { isKind, isTab, renderList, select, showTab } from './list.js';
import { TAB, renderers, render, state } from './store.js';
import { renderClock } from './data.js';
import { initTheme } from './theme.js';
import { initNotify, markAllRead, markRead } from './arrivals.js';
import { clearEmails } from './tidy.js';

renderers.render = () => { renderList(); renderDetail(); };
renderers.renderDetail = renderDetail;
initTheme();
initNotify();

// --- controls -----------------------------------------------------------
document.querySelectorAll('.tabs button').forEach((b) => {
  b.addEventListener('click', () => { const tab = b.getAttribute('data-tab'); if (isTab(tab)) showTab(tab); });
});
/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;
$('#search').addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(() => { loadEmails().then(render); }, 150); });
$('#search-other-input').addEventListener('input', render);
$('#search-type').addEventListener('input', render);
$('#search-status').addEventListener('change', render);
$('#mark-read').addEventListener('click', () => { markAllRead(); render(); });
$('#clear-emails').addEventListener('click', () => { clearEmails(); });
$('#team-select').addEventListener('change', () => {
  chooseTeam(input('#team-select').value); state.selected = null; state.picked = {}; refresh();
});
/** Advances the emulated clock by a typed duration. @param {string} text */
function advance(text) {
  const ms = parseDuration(text);
  if (ms === null) { toast('Cannot read duration "' + text + '" (use e.g. 5s, 10m, 1h30m)'); return; }
  api('clock/advance', { method: 'POST', json: { ms } }).then((/** @type {import('./types.js').Advanced} */ r) => {
    setClock(r);
    toast('Clock advanced; ' + r.fired.length + (r.fired.length === 1 ? ' job ran' : ' jobs ran'));
    return refresh();
  }, (e) => toast('Advance failed: ' + messageOf(e)));
}
document.querySelectorAll('[data-advance]').forEach((b) => b.addEventListener('click', () => advance(b.getAttribute('data-advance') || '')));
$('#advance-button').addEventListener('click', () => advance(input('#advance-input').value));
$('#advance-input').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') advance(input('#advance-input').value); });

// --- phones: the header collapses while the list scrolls down, and comes back on the way up ----------
const main = $('main');
let lastScroll = 0;
main.addEventListener('scroll', () => {
  const y = main.scrollTop;
  if (y > 48 && y > lastScroll + 2) document.body.classList.add('compact');
  else if (y < lastScroll - 2 || y <= 48) document.body.classList.remove('compact');
  lastScroll = y;
}, { passive: true });

// --- the item in the address (#kind/id) -------------------------------------
const m = /^#(\w+)\/(.+)$/.exec(location.hash);
if (m && isKind(m[1])) { if (m[1] === 'email' || m[1] === 'received') markRead(decodeURIComponent(m[2])); state.selected = { kind: m[1], id: decodeURIComponent(m[2]) }; state.tab = TAB[m[1]]; state.picked[state.tab] = state.selected; state.showDetail = true; }
// A real clock ticks: the header shows the emulated now, moving with the wall clock between reads.
setInterval(() => { if (state.clock && state.clock.mode === 'real') renderClock(); }, 1000);

// --- keyboard: up/down or j/k move through the list, Enter opens, Escape goes back to the list --------
document.addEventListener('keydown', (ev) => {
  const t = /** @type {HTMLElement} */ (ev.target);
  if (ev.ctrlKey || ev.metaKey || ev.altKey || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName) || !$('#token-gate').hidden) return;
  /** @type {HTMLElement[]} */
  const items = Array.from(document.querySelectorAll('#list .item'));
  if (!items.length) return;
  const step = ev.key === 'j' || ev.key === 'ArrowDown' ? 1 : ev.key === 'k' || ev.key === 'ArrowUp' ? -1 : 0;
  const focused = t.closest ? t.closest('#list .item') : null;
  let at = items.findIndex((x) => x === focused);
  if (step) {
    if (at < 0) at = items.findIndex((x) => x.classList.contains('selected'));
    const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.max(0, Math.min(items.length - 1, at + step));
    ev.preventDefault();
    items[next].focus();
    items[next].scrollIntoView({ block: 'nearest' });
  } else if (ev.key === 'Enter' && at >= 0) {
    const kind = items[at].getAttribute('data-kind') || '', id = items[at].getAttribute('data-id') || '';
    if (!isKind(kind)) return;
    ev.preventDefault();
    select(kind, id);
  } else if (ev.key === 'Escape' && state.showDetail) {
    state.showDetail = false; render();
  }
});

Promise.all([loadTeams(), loadClock()]).then(refresh).then(() => { document.body.setAttribute('data-ready', '1'); connect(); });
