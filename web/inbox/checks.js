// @ts-check
/**
 * The Checks view of an email, sent or received (GET emails/{id}/html-check
 * and link-check, or inbound/emails/{id}/…; src/admin/checks.ts): the HTML
 * support score per client family, each finding with its clients, size,
 * List-Unsubscribe and links; and the ⚠ marker of the list.
 */
import { api, messageOf } from './api.js';
import { fmtSize, h, table, toast } from './dom.js';
import { render, renderDetail, state } from './store.js';

/** @typedef {import('./types.js').Message} Message */
/** @typedef {import('./types.js').HtmlCheck} HtmlCheck */

/** A received email (its raw source is under inbound/). @param {Message} x */
function isReceived(x) { return 'raw_url' in x && /inbound/.test(x.raw_url); }
/** The admin path of an email's checks: sent (`emails/…`) or received (`inbound/emails/…`). @param {Message} x */
function checkPath(x) { return (isReceived(x) ? 'inbound/emails/' : 'emails/') + encodeURIComponent(x.id); }
/** The store key of an email's checks. @param {Message} x */
export function checkKey(x) { return (isReceived(x) ? 'received:' : 'email:') + x.id; }

/** @type {(() => Promise<void>)[]} */
const checkQueue = [];
let checking = false;
/** Asks for an email's HTML check once (one request at a time); the page renders again when it comes. @param {Message} x */
function wantCheck(x) {
  const key = checkKey(x);
  if (state.checks[key] !== undefined) return;
  state.checks[key] = null;
  checkQueue.push(() => api(checkPath(x) + '/html-check').then((c) => { state.checks[key] = c; }, () => { state.checks[key] = { failed: true }; }));
  pump();
}
function pump() {
  if (checking || !checkQueue.length) return;
  checking = true;
  const next = /** @type {() => Promise<void>} */ (checkQueue.shift());
  next().then(() => { checking = false; render(); pump(); });
}
/**
 * Findings of a check worth a marker: features that break the email in some
 * client (`breaks`: not supported there and not harmless; partial support and
 * harmless features are not), Gmail clipping, List-Unsubscribe problems.
 * @param {HtmlCheck | { failed: true } | null | undefined} c
 */
function problemsOf(c) {
  if (!c || 'failed' in c) return 0;
  const none = c.findings.filter((f) => f.breaks).length;
  return none + (c.parse_error ? 1 : 0) + (c.size.gmail_clipped ? 1 : 0) + c.list_unsubscribe.problems.length;
}
/** The newest emails of a list whose checks are asked for as soon as they are listed (an older one's when it is opened): each check is a second of the server's time on a large email. */
export const AUTO_CHECKS = 30;
/**
 * The list's marker of an email whose check found something.
 * @param {Message} e
 * @param {boolean} ask ask for its check now
 */
export function checkMarker(e, ask) {
  if (ask) wantCheck(e);
  const n = problemsOf(state.checks[checkKey(e)]);
  return n ? h('span', { className: 'marker warn', 'data-testid': 'check-marker', title: n + (n === 1 ? ' finding' : ' findings') + ': features that break the email in some client, Gmail clipping, List-Unsubscribe (see Checks)' }, '\u26A0 ' + n) : null;
}
/**
 * A list of findings: each feature with its caniemail page, and a badge per
 * client lacking it: red where it breaks the email, amber where it is
 * partly supported, grey where it is missing but harmless (the reason is
 * shown under the feature).
 * @param {string} testid
 * @param {HtmlCheck['findings']} findings
 */
function findingList(testid, findings) {
  return h('ul', { className: 'findings' + (testid === 'check-findings-minor' ? ' minor' : ''), 'data-testid': testid }, findings.map((f) =>
    h('li', { 'data-feature': f.feature },
      h('div', null, f.url ? h('a', { href: f.url, target: '_blank', rel: 'noopener' }, f.feature) : h('b', null, f.feature), ' ', h('span', { className: 'note' }, f.category || '')),
      f.harmless ? h('div', { className: 'note', 'data-testid': 'harmless-reason' }, 'Harmless: ' + f.harmless + '.') : null,
      h('div', { className: 'clients' }, f.clients.map((cl) => {
        const kind = cl.breaks ? 'bad' : cl.support === 'partial' ? 'warn' : '';
        return h('span', { className: 'badge ' + kind, title: (cl.support === 'none' ? 'not supported' : 'partly supported') + (cl.support === 'none' && !cl.breaks ? ' (harmless)' : '') + (cl.notes.length ? ': ' + cl.notes.join(' ') : '') }, cl.name);
      })))));
}
/** A percentage with one decimal. @param {number} x */
function pctText(x) { return (Math.round(x * 10) / 10) + '%'; }

/** The Checks section of an email: score per client family, each finding with its clients, size, List-Unsubscribe, links. @param {Message} x */
export function checksView(x) {
  wantCheck(x);
  const key = checkKey(x);
  const c = state.checks[key];
  const lc = state.linkChecks[key];
  const linkButton = h('button', { className: 'btn small', 'data-testid': 'check-links', disabled: lc === null, onclick: () => {
    state.linkChecks[key] = null; renderDetail();
    api(checkPath(x) + '/link-check').then((r) => { state.linkChecks[key] = r; renderDetail(); }, (e) => { state.linkChecks[key] = undefined; toast('Link check failed: ' + messageOf(e)); renderDetail(); });
  } }, lc === null ? 'Checking links\u2026' : 'Check links');
  /** @type {import('./dom.js').Child} */
  let body;
  if (!c) body = h('div', { className: 'empty' }, 'Checking\u2026');
  else if ('failed' in c) body = h('div', { className: 'empty' }, 'The check could not be made.');
  else {
    const breaking = c.findings.filter((f) => f.breaks);
    const minor = c.findings.filter((f) => !f.breaks);
    body = [
      h('div', { className: 'sub' }, 'HTML support by client family ', h('span', { className: 'note' }, '(caniemail.com data of ' + String(c.data_date).slice(0, 10) + '; supported / partial / not supported)')),
      h('div', { className: 'scores', 'data-testid': 'check-scores' }, c.families.map((f) =>
        h('div', { className: 'score', 'data-family': f.family, title: f.clients.join(', ') },
          h('div', { className: 'fam' }, f.name),
          h('div', { className: 'bar' }, h('span', { className: 'ok', style: 'width:' + f.supported + '%' }), h('span', { className: 'part', style: 'width:' + f.partial + '%' }), h('span', { className: 'no', style: 'width:' + f.unsupported + '%' })),
          h('div', { className: 'note' }, pctText(f.supported) + ' \u00b7 ' + pctText(f.partial) + ' \u00b7 ' + pctText(f.unsupported))))),
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
  }
  return [
    h('div', { className: 'toolbar' }, h('h2', null, 'Checks'), linkButton),
    h('div', { className: 'card checks', 'data-testid': 'checks' }, body,
      lc ? [h('div', { className: 'sub' }, 'Links (' + lc.links.length + ', ' + lc.errors + ' not ok)'),
        lc.links.length ? table('link-results', ['Status', 'URL'], lc.links.map((l) =>
          h('tr', null, h('td', null, h('span', { className: 'badge ' + (l.ok ? 'ok' : 'bad') }, l.status !== null ? String(l.status) : 'error'), l.kind === 'image' ? h('span', { className: 'note' }, ' image') : null),
            h('td', { className: 'value' }, l.url, l.error ? h('div', { className: 'note' }, l.error) : null)))) : h('div', { className: 'empty' }, 'No link or image.')] : null),
  ];
}
