/**
 * Admin API for inboxes (spec/paths/admin-inboxes.yaml; no auth):
 * | operationId | rule |
 * |---|---|
 * | admin/inbox-agent-action | `POST /_emulator/inboxes/{inbox}/agent-actions`: one action as the inbox's agent would take it (inboxes' `performAgentAction`); unknown inbox → 404 `Inbox not found.` |
 * | admin/inbox-thread-assignment | `PUT /_emulator/inboxes/{inbox}/threads/{thread_id}/assignment`: `{assignee_email (null unassigns), assigned_by_email?}` as a teammate would in the dashboard (source `dashboard`) → the thread summary with `assignee_email` |
 * | admin/dashboard-inboxes | `GET /_emulator/teams/{team_id}/inboxes`: the dashboard's Inboxes view: each inbox with labels, agent settings, threads (folders, labels, assignee, emails) and drafts; unknown team → 404 `Team not found` |
 */
import type { Emulator } from '../context.js';
import { ApiError, errors } from '../http/errors.js';
import type { ResourceModule } from '../module.js';
import type { Answer, Req, OperationHandlers } from '../http/document-types.js';
import { teamExists } from '../state/teams.js';
import { assignFromDashboard, findAnyInbox, inboxesDashboard, performAgentAction, type InboxRow } from '../resources/inboxes/service.js';

/** The inbox (any team) named by id or address, or 404 `Inbox not found.` (docs/reference/inboxes.md#inbox-errors). */
function inboxOr404(ctx: Emulator, idOrEmail: string): InboxRow {
  const inbox = findAnyInbox(ctx, idOrEmail);
  if (!inbox) throw new ApiError(404, 'not_found', 'Inbox not found.');
  return inbox;
}

function agentAction(ctx: Emulator, req: Req<'admin/inbox-agent-action'>): Answer<'admin/inbox-agent-action'> {
  return performAgentAction(ctx, inboxOr404(ctx, req.params.inbox), req.body);
}

function assignment(ctx: Emulator, req: Req<'admin/inbox-thread-assignment'>): Answer<'admin/inbox-thread-assignment'> {
  return assignFromDashboard(ctx, inboxOr404(ctx, req.params.inbox), req.params.thread_id, req.body.assignee_email, req.body.assigned_by_email ?? null);
}

function dashboard(ctx: Emulator, req: Req<'admin/dashboard-inboxes'>): Answer<'admin/dashboard-inboxes'> {
  if (!teamExists(ctx, req.params.team_id)) throw errors.notFound('Team');
  return { object: 'list', data: inboxesDashboard(ctx, req.params.team_id) };
}

export const adminInboxesModule: ResourceModule = {
  name: 'admin-inboxes',
  operations: {
    'admin/inbox-agent-action': agentAction,
    'admin/dashboard-inboxes': dashboard,
    'admin/inbox-thread-assignment': assignment,
  } satisfies OperationHandlers,
};
