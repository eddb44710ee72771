// @ts-check
/**
 * "Send to a real inbox": sends a sent email's stored message to an address
 * the user types, through the real SMTP server of `--relay` (`POST
 * /_emulator/emails/{id}/release`; docs/admin-api.md#releasing-an-email-to-a-real-mail-server),
 * only on the button. The last address typed is kept in localStorage
 * (`inbox.releaseTo`). Without `--relay` the server's error says how to set one.
 */
import { api, messageOf } from './api.js';
import { h, toast } from './dom.js';
import { keep, stored } from './store.js';

/** @typedef {import('./types.js').Ok<'admin/release-email'>} Release */

/** The form under an email's actions. @param {import('./types.js').Email} e */
export function releaseForm(e) {
  const field = h('input', { type: 'email', placeholder: 'me@example.org', 'aria-label': 'real inbox address', 'data-testid': 'release-to', value: stored('releaseTo') || '', required: true });
  const result = h('span', { className: 'note', 'data-testid': 'release-result', role: 'status' });
  const button = h('button', { className: 'btn small', type: 'submit', 'data-testid': 'release' }, 'Send to a real inbox');
  const send = async () => {
    const to = field.value.trim();
    if (!to) { field.focus(); return; }
    keep('releaseTo', to);
    button.disabled = true;
    result.textContent = 'Sending\u2026';
    result.className = 'note';
    try {
      const r = /** @type {Release} */ (await api('emails/' + encodeURIComponent(e.id) + '/release', { method: 'POST', json: { to } }));
      result.textContent = 'Sent to ' + r.to.join(', ') + ' through ' + r.relay + ': ' + r.response;
      toast('Sent to ' + r.to.join(', '));
    } catch (err) {
      result.textContent = messageOf(err);
      result.className = 'note error';
    } finally {
      button.disabled = false;
    }
  };
  return h('form', { className: 'release', 'data-testid': 'release-form', onsubmit: (/** @type {Event} */ ev) => { ev.preventDefault(); send(); } },
    field, button, result);
}
