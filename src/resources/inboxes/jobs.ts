/**
 * The jobs of inboxes (docs/reference/inboxes.md#folders-and-read-state):
 * | job | due | does |
 * |---|---|---|
 * | `inboxes.purge-thread` | moved to `trash` + `inboxTrashPurge` (30 days) | a thread still in `trash` since then is deleted (`deleteThread`: its emails' places in it, label links and unsent drafts; the emails themselves stay) (no webhook event) |
 * A thread moved out of `trash` and back gets a new job; the old one finds a
 * later `trashed_at` and does nothing.
 */
import { defineJob } from '../../clock/jobs.js';
import { DELAYS } from '../../clock/delays.js';
import { deleteThread, findThreadById } from './store.js';

/** `inboxes.purge-thread`: see the table above. */
export const purgeThreadJob = defineJob('inboxes.purge-thread', (ctx, job) => {
  const t = findThreadById(ctx, job.payload.thread_id);
  if (!t || t.folder !== 'trash' || t.trashed_at === null) return;
  if (t.trashed_at + DELAYS.inboxTrashPurge > ctx.clock.nowMs()) return;
  deleteThread(ctx, t.id);
});
