/**
 * Acting as the inbox's agent (docs/reference/inboxes.md#agent; docs/reference/inboxes.md#assignment). The emulator runs
 * no AI: a test performs what the agent would do through the admin API
 * (`POST /_emulator/inboxes/{inbox}/agent-actions`), with `source: "agent"`
 * on the events it raises. An action the inbox's agent settings do not
 * enable is refused (422), as the real agent would never take it.
 * | action | effect |
 * |---|---|
 * | draft_reply | a reply draft to `email_id` (`text`/`html`, default text `""` → refused empty) |
 * | forward_thread | a standalone draft to `to` (never sent: the agent never sends) |
 * | add_labels | `labels` applied to the thread |
 * | assign_thread | `assignee_email` (null: unassign) → `inbox.thread.assigned` / `unassigned` |
 * | mark_as_spam, archive, move_to_trash | the thread moves to `spam`, `archive`, `trash` |
 *
 * The agent's settings (`inboxes/agent/update`) are kept here too.
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { inboxMessages } from './messages.js';
import type { Req } from '../../http/document-types.js';
import { createDraft } from './drafts.js';
import { addLabelsToThread } from './labels.js';
import { prefixed } from './mail.js';
import { agentSettings, emitInboxEvent, threadEventData, toThreadSummary, type InboxEventSource } from './shapes.js';
import { findThread, saveAgent, setThreadAssignee, type InboxRow, type ThreadRow } from './store.js';
import { moveThread, threadOr404 } from './threads.js';

/**
 * Changes the inbox's agent settings (`instructions`, `tone`, `actions`;
 * 422 when none is given); the fields not given keep their value, `actions`
 * without repeats. The settings are stored and returned, never acted on.
 * Returns the settings' id.
 */
export function updateAgentSettings(ctx: Emulator, inbox: InboxRow, b: Req<'inboxes/agent/update'>['body']): string {
  if (b.instructions === undefined && b.tone === undefined && b.actions === undefined) throw inboxMessages.agentUpdateEmpty();
  const now = agentSettings(ctx, inbox);
  return saveAgent(ctx, inbox.id, {
    instructions: b.instructions !== undefined ? b.instructions : now.instructions,
    tone: b.tone !== undefined ? b.tone : now.tone,
    actions: b.actions !== undefined ? [...new Set(b.actions)] : now.actions,
  }, ctx.clock.nowMs());
}

/**
 * Assigns a thread to `assignee` (a team member's email; null unassigns) and
 * raises `inbox.thread.assigned` (`assignee_email`, `assigned_by_email`,
 * `previous_assignee_email`) or `inbox.thread.unassigned`
 * (`previous_assignee_email`); nothing when it does not change. Assignment
 * has no SDK method: the admin API's assignment route (source `dashboard`)
 * and the agent hook (source `agent`) call this (docs/reference/inboxes.md#assignment).
 */
export function assignThread(ctx: Emulator, inbox: InboxRow, thread: ThreadRow, assignee: string | null, by: string | null, source: InboxEventSource): void {
  const previous = thread.assignee_email;
  if (previous === assignee) return;
  setThreadAssignee(ctx, thread.id, assignee);
  if (assignee === null) {
    emitInboxEvent(ctx, inbox, 'inbox.thread.unassigned', source, () => ({ ...threadEventData(ctx, inbox.id, thread.id), previous_assignee_email: previous }));
  } else {
    emitInboxEvent(ctx, inbox, 'inbox.thread.assigned', source, () => ({
      ...threadEventData(ctx, inbox.id, thread.id), assignee_email: assignee, assigned_by_email: by, previous_assignee_email: previous,
    }));
  }
}

/**
 * The admin assignment route: assigns or unassigns the inbox's thread in one
 * transaction (source `dashboard`). Returns the thread summary with
 * `assignee_email`. Throws 404 `Thread not found.`.
 */
export function assignFromDashboard(ctx: Emulator, inbox: InboxRow, threadId: string, assignee: string | null, by: string | null) {
  const thread = threadOr404(ctx, inbox, threadId);
  ctx.db.transaction(() => assignThread(ctx, inbox, thread, assignee, by, 'dashboard'))();
  const now = findThread(ctx, inbox.id, thread.id)!;
  return { ...toThreadSummary(ctx, now), assignee_email: now.assignee_email };
}

/** What the admin hook takes (spec/paths/admin-inboxes.yaml, `admin/inbox-agent-action` body). */
export type AgentActionInput = Req<'admin/inbox-agent-action'>['body'];

/**
 * Performs one agent action in one transaction. Returns `{object: "inbox_agent_action", action, thread, draft_id}`.
 * Throws 404 for an unknown thread, email or label; 422 for an action not
 * enabled, or a field the action needs.
 */
export function performAgentAction(ctx: Emulator, inbox: InboxRow, input: AgentActionInput) {
  const settings = agentSettings(ctx, inbox);
  if (!settings.actions.includes(input.action)) {
    throw inboxMessages.actionNotEnabled(input.action);
  }
  const thread = threadOr404(ctx, inbox, input.thread_id);
  let draftId: string | null = null;
  ctx.db.transaction(() => {
    switch (input.action) {
      case 'draft_reply': {
        if (!input.email_id) throw errors.missingField('email_id');
        draftId = createDraft(ctx, inbox, { thread_id: thread.id, reply_to_email_id: input.email_id, text: input.text, html: input.html, subject: input.subject }, 'agent').draft.id;
        break;
      }
      case 'forward_thread': {
        if (!input.to) throw errors.missingField('to');
        draftId = createDraft(ctx, inbox, { to: input.to, subject: input.subject ?? prefixed('Fwd:', thread.subject), text: input.text, html: input.html }, 'agent').draft.id;
        break;
      }
      case 'add_labels': {
        if (!input.labels?.length) throw errors.missingField('labels');
        addLabelsToThread(ctx, inbox, thread, input.labels, 'agent');
        break;
      }
      case 'assign_thread': {
        if (input.assignee_email === undefined) throw errors.missingField('assignee_email');
        assignThread(ctx, inbox, thread, input.assignee_email, input.assigned_by_email ?? null, 'agent');
        break;
      }
      case 'mark_as_spam':
        moveThread(ctx, inbox, thread, 'spam', 'agent');
        break;
      case 'archive':
        moveThread(ctx, inbox, thread, 'archive', 'agent');
        break;
      case 'move_to_trash':
        moveThread(ctx, inbox, thread, 'trash', 'agent');
        break;
    }
  })();
  const now = findThread(ctx, inbox.id, thread.id)!;
  return { object: 'inbox_agent_action' as const, action: input.action, thread: { ...toThreadSummary(ctx, now), assignee_email: now.assignee_email }, draft_id: draftId };
}
