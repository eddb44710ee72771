// @ts-check
/**
 * Tidying up: Delete of one sent email (its view's button) and Clear of
 * every sent email of the team (the list's button, after a confirmation),
 * through the admin API (`DELETE /_emulator/emails/{id}`, `DELETE
 * /_emulator/emails?team_id=…`; docs/admin-api.md#deleting-emails): the
 * emails go with their pending jobs and the webhook deliveries of their
 * events. Received emails stay.
 */
import { api, messageOf } from './api.js';
import { toast } from './dom.js';
import { loadDeliveries, loadUsage, teamQuery } from './data.js';
import { render, state } from './store.js';

/** @typedef {import('./types.js').Ok<'admin/delete-email'>} Deleted */
/** @typedef {import('./types.js').Ok<'admin/clear-emails'>} Cleared */

/** Forgets the selection of the Emails tab when it is among `gone`. @param {Set<string>} gone */
function unselect(gone) {
  if (state.selected && state.selected.kind === 'email' && gone.has(state.selected.id)) {
    state.selected = null; state.picked.emails = null; state.showDetail = false;
    history.replaceState(null, '', location.pathname + location.search);
  }
}
/** Deletes one sent email; the list and the detail follow. @param {import('./types.js').Email} e */
export async function deleteEmail(e) {
  try {
    const r = /** @type {Deleted} */ (await api('emails/' + encodeURIComponent(e.id), { method: 'DELETE' }));
    state.emails = state.emails.filter((x) => x.id !== r.id);
    unselect(new Set([r.id]));
    toast('Deleted: ' + (e.subject || '(no subject)'));
    render();
    await Promise.all([loadDeliveries(), loadUsage()]);
    render();
  } catch (err) {
    toast('Delete failed: ' + messageOf(err));
  }
}
/** Deletes every sent email of the team, once the user confirms. */
export async function clearEmails() {
  if (!state.team) return;
  const team = state.teams.find((t) => t.id === state.team);
  if (!confirm('Delete every sent email of the team ' + (team ? team.name : state.team) + '? Their webhook deliveries go too; received emails stay.')) return;
  try {
    const r = /** @type {Cleared} */ (await api('emails' + teamQuery(), { method: 'DELETE' }));
    unselect(new Set(state.emails.map((x) => x.id)));
    state.emails = [];
    toast('Deleted ' + r.deleted + (r.deleted === 1 ? ' email' : ' emails'));
    render();
    await Promise.all([loadDeliveries(), loadUsage()]);
    render();
  } catch (err) {
    toast('Clear failed: ' + messageOf(err));
  }
}
