// @ts-check
/**
 * The page's colour scheme: the system's (`prefers-color-scheme`) by
 * default, or the one chosen with the toggle at the end of the tabs row (Auto → Dark → Light →
 * Auto), kept in localStorage (`inbox.theme`) and applied as
 * `<html data-theme>` (inbox.css holds both palettes; index.html applies a
 * kept choice before the first paint). The email's own HTML keeps its colours.
 */
import { $ } from './dom.js';
import { keep, stored } from './store.js';

/** @typedef {'auto' | 'dark' | 'light'} Theme */
/** @type {Theme[]} */
const ORDER = ['auto', 'dark', 'light'];
/** @type {Record<Theme, string>} */
const LABEL = { auto: '\u25D0 Auto', dark: '\u263E Dark', light: '\u2600 Light' };

/** The kept choice ('auto' when none). @returns {Theme} */
export function theme() {
  const t = stored('theme');
  return t === 'dark' || t === 'light' ? t : 'auto';
}
/** Applies a choice and keeps it. @param {Theme} t */
function setTheme(t) {
  if (t === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
  keep('theme', t === 'auto' ? null : t);
  const b = $('#theme-toggle');
  b.textContent = LABEL[t];
  b.title = 'Colours: ' + (t === 'auto' ? 'as the system (prefers-color-scheme)' : t) + '. Click to change.';
}
/** Wires the toggle. */
export function initTheme() {
  setTheme(theme());
  $('#theme-toggle').addEventListener('click', () => setTheme(ORDER[(ORDER.indexOf(theme()) + 1) % ORDER.length]));
}
