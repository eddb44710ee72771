/**
 * An inbox's labels and the labels of its threads (docs/reference/inboxes.md#labels,
 * docs/reference/inboxes.md#label-rules): `#RRGGBB` colours (random when omitted), names unique in the
 * inbox (case-insensitive), at most 100 an inbox; applying, replacing and
 * removing a thread's labels, one `inbox.thread.labels.updated` per label
 * changed.
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import { newId } from '../../http/format.js';
import { emitInboxEvent, threadEventData, toThreadLabel, type InboxEventSource } from './shapes.js';
import {
  addThreadLabel,
  deleteLabel,
  findLabel,
  findLabelByName,
  insertLabel,
  listLabels,
  removeThreadLabel,
  threadLabels,
  updateLabel,
  type InboxRow,
  type LabelRow,
  type ThreadRow,
} from './store.js';

/** Most labels an inbox has (docs/reference/inboxes.md#label-rules). */
const MAX_LABELS = 100;

/** The inbox's label, or 404 `Label not found.` (`Label "<id>" not found.` when `quoted`: a label named in a list or filter, docs/reference/inboxes.md#inbox-errors). */
export function labelOr404(ctx: Emulator, inbox: InboxRow, id: string, quoted = false): LabelRow {
  const l = findLabel(ctx, inbox.id, id);
  if (!l) throw quoted ? inboxMessages.namedLabelNotFound(id) : inboxMessages.labelNotFound();
  return l;
}

/** A random `#RRGGBB` colour (a label created without one). */
function randomColor(): string {
  return `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0').toUpperCase()}`;
}

/** Creates a label; returns its id. Throws 422 when the name is taken in the inbox or the inbox has `MAX_LABELS`. */
export function createLabel(ctx: Emulator, inbox: InboxRow, b: { name: string; color?: string }): string {
  if (findLabelByName(ctx, inbox.id, b.name)) throw inboxMessages.labelNameTaken(b.name);
  if (listLabels(ctx, inbox.id).length >= MAX_LABELS) throw inboxMessages.tooManyLabels(MAX_LABELS);
  const id = newId();
  insertLabel(ctx, { id, inbox_id: inbox.id, name: b.name, color: b.color ?? randomColor(), created_at: ctx.clock.nowMs() });
  return id;
}

/** Renames and/or recolours a label. Throws 422 when the new name is another label's. */
export function updateLabelOf(ctx: Emulator, inbox: InboxRow, label: LabelRow, b: { name?: string; color?: string }): void {
  if (b.name !== undefined) {
    const other = findLabelByName(ctx, inbox.id, b.name);
    if (other && other.id !== label.id) throw inboxMessages.labelNameTaken(b.name);
  }
  updateLabel(ctx, label.id, b.name ?? label.name, b.color ?? label.color);
}

/** Deletes a label and takes it off every thread (one transaction). */
export function removeLabel(ctx: Emulator, label: LabelRow): void {
  ctx.db.transaction(() => deleteLabel(ctx, label.id))();
}

/** Raises one `inbox.thread.labels.updated` per label added or removed (docs/reference/inboxes.md#label-rules). */
function emitLabelChanges(ctx: Emulator, inbox: InboxRow, threadId: string, added: LabelRow[], removed: LabelRow[], source: InboxEventSource): void {
  for (const l of added) emitInboxEvent(ctx, inbox, 'inbox.thread.labels.updated', source, () => ({ ...threadEventData(ctx, inbox.id, threadId), added: [toThreadLabel(l)], removed: [] }));
  for (const l of removed) emitInboxEvent(ctx, inbox, 'inbox.thread.labels.updated', source, () => ({ ...threadEventData(ctx, inbox.id, threadId), added: [], removed: [toThreadLabel(l)] }));
}

/** Applies labels (ids of the inbox's labels, else 404) to a thread; the labels actually added. Used by the API and the agent hook; the caller holds the transaction. */
export function addLabelsToThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, ids: string[], source: InboxEventSource): LabelRow[] {
  const labels = [...new Set(ids)].map((id) => labelOr404(ctx, inbox, id, true));
  const added = labels.filter((l) => addThreadLabel(ctx, thread.id, l.id));
  emitLabelChanges(ctx, inbox, thread.id, added, [], source);
  return added;
}

/** Replaces a thread's labels with `ids` (each the inbox's, else 404), one transaction, an event per label changed. */
export function setThreadLabels(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, ids: string[]): void {
  const wanted = [...new Set(ids)].map((id) => labelOr404(ctx, inbox, id, true));
  ctx.db.transaction(() => {
    const current = threadLabels(ctx, thread.id);
    const removed = current.filter((c) => !wanted.some((w) => w.id === c.id));
    for (const l of removed) removeThreadLabel(ctx, thread.id, l.id);
    const added = wanted.filter((l) => addThreadLabel(ctx, thread.id, l.id));
    emitLabelChanges(ctx, inbox, thread.id, added, removed, 'api');
  })();
}

/** Takes a label off a thread (no-op, no event, when it did not have it). */
export function removeLabelFromThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, label: LabelRow): void {
  ctx.db.transaction(() => {
    if (removeThreadLabel(ctx, thread.id, label.id)) emitLabelChanges(ctx, inbox, thread.id, [], [label], 'api');
  })();
}
