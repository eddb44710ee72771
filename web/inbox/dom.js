// @ts-check
/**
 * Building the page's DOM: `h()` makes elements (every value goes in as text
 * or an attribute, never as markup), and the small formatters and widgets
 * every view uses.
 */
import { clockNowMs } from './store.js';

/**
 * The element of a selector the page always holds (index.html); throws if it is missing.
 * @template {HTMLElement} [E=HTMLElement]
 * @param {string} sel
 * @returns {E}
 */
export function $(sel) {
  const el = document.querySelector(sel);
  if (!el) throw new Error('the page has no ' + sel);
  return /** @type {E} */ (el);
}
/** The input (or select) element of a selector. @param {string} sel */
export const input = (sel) => /** @type {HTMLInputElement} */ ($(sel));

/** A child of `h()`: a node, text, a list of children, or nothing. @typedef {Node | string | number | null | undefined | false | ChildList} Child */
/** @typedef {Array<Child>} ChildList */
/** Attributes of `h()`: `text`, `className`, `on<event>` listeners, others set as attributes (`true`: present; null/undefined/false: absent). @typedef {Record<string, unknown> | null} Attrs */

/**
 * An element with attributes and children.
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {Attrs} attrs
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[T]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k === 'className') el.className = String(v);
    else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) add(el, c);
  return el;
}
/**
 * Appends children (text as text nodes).
 * @param {Node} el
 * @param {Child} c
 */
export function add(el, c) {
  if (c === null || c === undefined || c === false) return;
  if (Array.isArray(c)) { c.forEach((x) => add(el, x)); return; }
  el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/** Shows a message for 2.2 s at the page's foot. @param {string} msg */
export function toast(msg) {
  const t = $('#toast');
  t.textContent = msg; t.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove('show'), 2200);
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS UTC` (`—` when absent). @param {string | null | undefined} iso */
export function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso); if (isNaN(d.getTime())) return String(iso);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '').replace(/Z$/, '') + ' UTC';
}
/** A list's time: the time of day when it is the emulated today, else the date. @param {string | null | undefined} iso */
export function shortTime(iso) {
  if (!iso) return '';
  const d = new Date(iso); if (isNaN(d.getTime())) return '';
  const now = new Date(clockNowMs());
  const s = d.toISOString();
  return s.slice(0, 10) === now.toISOString().slice(0, 10) ? s.slice(11, 19) : s.slice(0, 10);
}
/** Bytes as B, KB or MB. @param {number} n */
export function fmtSize(n) { return n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB'; }
/**
 * A value or list of values as a list.
 * @template T
 * @param {T | T[] | null | undefined} v
 * @returns {T[]}
 */
export function list(v) { return Array.isArray(v) ? v : (v ? [v] : []); }
/** The badge colour of a status. @param {string | null | undefined} s */
function statusClass(s) {
  if (!s) return '';
  if (/^(delivered|succeeded|opened|clicked|sent)$/.test(s)) return 'ok';
  if (/^(bounced|failed|complained|canceled|cancelled|suppressed)$/.test(s)) return 'bad';
  if (/^(delivery_delayed|pending|attempting)$/.test(s)) return 'warn';
  if (/^(verified|completed|opt_in|subscribed)$/.test(s)) return 'ok';
  if (/^(expired|temporary_failure|unsubscribed)$/.test(s)) return 'bad';
  if (/^(scheduled|queued|recorded|running|waiting|not_started|draft)$/.test(s)) return 'info';
  return '';
}
/** A status badge. @param {string | null | undefined} s @param {string} [testid] */
export function badge(s, testid) { return h('span', { className: 'badge ' + statusClass(s), 'data-testid': testid }, s || '—'); }
/** A value as indented JSON ('' when absent). @param {unknown} v */
export function json(v) { return v === null || v === undefined ? '' : JSON.stringify(v, null, 2); }
/**
 * A table with a head row.
 * @param {string} testid
 * @param {string[]} head
 * @param {Child} rows
 */
export function table(testid, head, rows) {
  return h('table', { 'data-testid': testid }, h('thead', null, h('tr', null, head.map((x) => h('th', null, x)))), h('tbody', null, rows));
}
/** A key-value row: label, value (left out when empty), and a class of the value. @typedef {[string, Child, string?]} KvRow */
/** Key-value pairs, the empty ones left out. @param {KvRow[]} rows */
export function kv(rows) {
  return h('dl', { className: 'kv' }, rows.filter((r) => r[1] !== null && r[1] !== undefined && r[1] !== '').map((r) => [h('dt', null, r[0]), h('dd', { className: r[2] || '' }, r[1])]));
}
/** A paperclip icon (inline SVG), for the attachment marker. */
export function clip() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24'); svg.setAttribute('width', '13'); svg.setAttribute('height', '13'); svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M21 11.5l-8.5 8.5a5.5 5.5 0 0 1-7.8-7.8l9-9a3.7 3.7 0 0 1 5.2 5.2l-9 9a1.8 1.8 0 0 1-2.6-2.6l8.3-8.3');
  path.setAttribute('fill', 'none'); path.setAttribute('stroke', 'currentColor'); path.setAttribute('stroke-width', '2'); path.setAttribute('stroke-linecap', 'round');
  svg.appendChild(path);
  return svg;
}
/**
 * A duration typed by the user (`5s`, `10m`, `1h30m`, or plain ms) in ms; null when it cannot be read.
 * @param {string} text
 * @returns {number | null}
 */
export function parseDuration(text) {
  text = String(text || '').trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  /** @type {Record<string, number>} */
  const units = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000, w: 604800000 };
  const re = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/g;
  let m, total = 0, seen = '';
  while ((m = re.exec(text))) { total += Number(m[1]) * units[m[2]]; seen += m[0]; }
  return seen && seen.replace(/\s+/g, '') === text.replace(/\s+/g, '') ? Math.round(total) : null;
}
