// @ts-check
/**
 * The views of an email: a sent one (envelope, events, content, checks,
 * attachments, headers) and a received one. The content shows the email's
 * HTML in a sandboxed, script-less iframe (`sandbox=""`, `srcdoc`) at the
 * chosen width beside its text, or its raw source; then its one-time codes
 * and links, and its checks.
 */
import { checksView } from './checks.js';
import { badge, fmtSize, fmtTime, h, kv, list, table } from './dom.js';
import { renderDetail, state } from './store.js';
import { deleteEmail } from './tidy.js';
import { releaseForm } from './release.js';

/** @typedef {import('./types.js').Email} Email */
/** @typedef {import('./types.js').Received} Received */
/** @typedef {import('./types.js').Message} Message */

/**
 * A segmented control over a choice of the store.
 * @template {'emailPane' | 'width'} K
 * @param {K} name
 * @param {[import('./store.js').State[K], string][]} options value and label
 * @param {string} testid
 */
function seg(name, options, testid) {
  return h('div', { className: 'seg', 'data-testid': testid }, options.map((o) =>
    h('button', { className: state[name] === o[0] ? 'active' : '', 'data-value': o[0], onclick: () => { state[name] = o[0]; renderDetail(); } }, o[1])));
}
/**
 * The raw source at url, fetched once per key and shown as text.
 * @param {string} url
 * @param {string} key
 */
function sourceBox(url, key) {
  const known = state.sources[key];
  const pre = h('pre', { className: 'source', 'data-testid': 'email-source' }, known !== undefined ? known : 'Loading…');
  if (known === undefined) {
    fetch(url).then((r) => r.text()).then((t) => { state.sources[key] = t; pre.textContent = t; }, (e) => { pre.textContent = 'Could not load the source: ' + (e instanceof Error ? e.message : String(e)); });
  }
  return h('div', { className: 'card' }, pre);
}
/** The preview's height bounds, px: short emails take what they need, long ones scroll inside the frame. */
const PREVIEW_MIN_PX = 120;
const PREVIEW_MAX_PX = 1200;
/**
 * The email's HTML in a sandboxed, script-less iframe (`sandbox=""`,
 * `srcdoc`) at the chosen width, as tall as its content (between
 * PREVIEW_MIN_PX and PREVIEW_MAX_PX). The sandbox gives the frame an opaque
 * origin, so the page cannot read its height: a hidden twin with
 * `sandbox="allow-same-origin"` (still no scripts, forms or navigation)
 * lays the same HTML out at the same width, is measured once loaded (its
 * images too), and goes.
 * @param {string} html
 */
function previewFrame(html) {
  const width = 'width:' + (state.width === 'full' ? '100%' : state.width + 'px');
  const frame = h('iframe', { id: 'email-html', className: 'html', 'data-testid': 'email-html', sandbox: '', srcdoc: html, title: 'email HTML', style: width });
  const twin = h('iframe', { className: 'html measure', sandbox: 'allow-same-origin', srcdoc: html, 'aria-hidden': 'true', tabindex: '-1', style: width });
  twin.addEventListener('load', () => {
    const doc = twin.contentDocument;
    const height = doc ? Math.max(doc.documentElement.scrollHeight, doc.body ? doc.body.scrollHeight : 0) : 0;
    if (height) {
      frame.style.height = Math.min(PREVIEW_MAX_PX, Math.max(PREVIEW_MIN_PX, Math.ceil(height))) + 'px';
      frame.setAttribute('data-fitted', String(Math.ceil(height)));
    }
    twin.remove();
  });
  return h('div', { className: 'frame-box' }, frame, twin);
}

/**
 * HTML (sandboxed iframe at the chosen width) and text, or the raw source; codes and links; checks.
 * @param {Message} x
 * @param {string} rawUrl
 * @param {string} sourceKey
 */
function content(x, rawUrl, sourceKey) {
  const html = x.html || '';
  const links = list(x.links), codes = list(x.codes);
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
        previewFrame(html || '<p style="font:14px system-ui;color:#667085;padding:8px">No HTML part.</p>')),
      h('div', { className: 'card pane', style: 'margin-top:14px' }, h('div', { className: 'label' }, h('span', null, 'Text'), h('span', null, x.text ? (x.text.length + ' chars') : 'none')),
        h('pre', { id: 'email-text', 'data-testid': 'email-text', style: 'height:auto;max-height:300px' }, x.text || '(no text part)'))],
    h('h2', null, 'One-time codes and links'),
    h('div', { className: 'card' },
      codes.length ? h('div', { className: 'chips', 'data-testid': 'email-codes' }, codes.map((c) => h('span', { className: 'chip' }, c))) : h('div', { className: 'empty', 'data-testid': 'email-codes' }, 'No one-time code.'),
      links.length ? h('ol', { className: 'links', 'data-testid': 'email-links' }, links.map((l) => h('li', null, l))) : h('div', { className: 'empty' }, 'No link.')),
    checksView(x),
  ];
}

/** A sent email. @param {Email} e */
export function emailView(e) {
  const headers = e.headers || {};
  const headerRows = Object.keys(headers).map((k) => h('tr', null, h('td', { className: 'mono' }, k), h('td', { className: 'mono' }, String(headers[k]))));
  const atts = list(e.attachments);
  const events = list(e.events);
  return [
    h('h1', { 'data-testid': 'email-subject' }, e.subject || '(no subject)'),
    h('div', { className: 'actions' }, badge(e.last_event, 'email-status'), h('span', { className: 'note mono' }, e.id), h('span', { className: 'spacer' }),
      h('button', { className: 'btn small danger', 'data-testid': 'delete-email', title: 'Delete this email, its pending jobs and its webhook deliveries', onclick: () => { deleteEmail(e); } }, 'Delete')),
    releaseForm(e),
    atts.length ? [h('h2', null, 'Attachments'), h('div', { className: 'card' }, table('attachments', ['File', 'Type', 'Size', 'Content-ID'], atts.map((a) =>
      h('tr', null, h('td', null, h('a', { href: 'emails/' + encodeURIComponent(e.id) + '/attachments/' + encodeURIComponent(a.id), download: a.filename || true }, a.filename || a.id)),
        h('td', { className: 'mono' }, a.content_type || ''), h('td', null, a.size !== undefined && a.size !== null ? fmtSize(a.size) : ''), h('td', { className: 'mono' }, a.content_id || '')))))] : null,
    h('div', { className: 'split' },
      h('div', null, h('h2', null, 'Envelope'), h('div', { className: 'card' }, kv([
        ['From', e.from], ['To', list(e.to).join(', ')], ['Cc', list(e.cc).join(', ')], ['Bcc', list(e.bcc).join(', ')],
        ['Reply-To', list(e.reply_to).join(', ')], ['Created', fmtTime(e.created_at)], ['Scheduled', e.scheduled_at ? fmtTime(e.scheduled_at) : null],
        ['Message-ID', e.message_id, 'mono'], ['Tags', list(e.tags).map((t) => t.name + '=' + t.value).join(', ')],
        ['Broadcast', e.broadcast_id, 'mono'], ['Template', e.template_id, 'mono'],
      ]))),
      h('div', null, h('h2', null, 'Events'), h('div', { className: 'card' }, events.length ? h('ul', { className: 'timeline', 'data-testid': 'email-events' }, events.map((ev) =>
        h('li', null, h('span', { className: 'dot' }), badge(ev.type), h('span', { className: 'note' }, fmtTime(ev.at))))) : h('div', { className: 'empty' }, 'No event yet.')))),
    content(e, 'emails/' + encodeURIComponent(e.id) + '/raw', e.id + ':' + e.last_event),
    h('h2', null, 'Headers'),
    h('div', { className: 'card' }, headerRows.length ? h('table', { className: 'pairs' }, h('tbody', null, headerRows)) : h('div', { className: 'empty' }, 'No custom header.')),
  ];
}

/** A received email. @param {Received} r */
export function receivedView(r) {
  return [
    h('h1', { 'data-testid': 'received-subject' }, r.subject || '(no subject)'),
    h('div', { className: 'actions' }, badge('received'), h('span', { className: 'note mono' }, r.id)),
    r.attachments.length ? [h('h2', null, 'Attachments'), h('div', { className: 'card' }, table('received-attachments', ['File', 'Type', 'Size', 'Content-ID'], r.attachments.map((a) =>
      h('tr', null, h('td', null, h('a', { href: a.download_url, download: a.filename || true }, a.filename || a.id)), h('td', { className: 'mono' }, a.content_type), h('td', null, fmtSize(a.size)), h('td', { className: 'mono' }, a.content_id || '')))))] : null,
    h('h2', null, 'Envelope'),
    h('div', { className: 'card' }, kv([['From', r.from], ['To', list(r.to).join(', ')], ['Cc', list(r.cc).join(', ')], ['Received for', list(r.received_for).join(', ')],
      ['Received', fmtTime(r.created_at)], ['Message-ID', r.message_id, 'mono']])),
    content(r, r.raw_url, 'received:' + r.id),
  ];
}
