/**
 * Handlers of the automation operations and the runs listing (see the table
 * in `index.ts`).
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { checkGraph } from './graph.js';
import { cancelRunsOf } from './jobs.js';
import {
  automationListItem, automationOr404, automationShape, deleteAutomation, disableAutomation, findRun, graphOf, insertAutomation, pageAutomations, pageRuns,
  runListItem, runShape, triggerEvent, updateAutomation,
} from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

function create(ctx: Emulator, req: Req<'automations/create'>): Answer<'automations/create'> {
  const b = req.body;
  const graph = b.steps ? checkGraph(b.steps, b.connections ?? []) : { steps: [], connections: [] };
  const row = insertAutomation(ctx, req.auth.teamId, { name: b.name, status: b.status ?? 'disabled', graph });
  return { object: 'automation', id: row.id };
}

function list(ctx: Emulator, req: Req<'automations/list'>): Answer<'automations/list'> {
  return pageAutomations(ctx.db, req.auth.teamId, req.query.status as string | undefined, req.query, automationListItem);
}

function get(ctx: Emulator, req: Req<'automations/get'>): Answer<'automations/get'> {
  return automationShape(automationOr404(ctx, req.auth.teamId, req.params.automation_id));
}

function update(ctx: Emulator, req: Req<'automations/update'>): Answer<'automations/update'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  const b = req.body;
  const graph = b.steps ? checkGraph(b.steps, b.connections ?? []) : graphOf(row);
  const status = b.status ?? row.status;
  updateAutomation(ctx, row.id, { name: b.name ?? row.name, status, steps: JSON.stringify(graph.steps), connections: JSON.stringify(graph.connections), triggerEvent: triggerEvent(graph) });
  return { object: 'automation', id: row.id };
}

function remove(ctx: Emulator, req: Req<'automations/remove'>): Answer<'automations/remove'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  ctx.db.transaction(() => {
    cancelRunsOf(ctx, row.id);
    deleteAutomation(ctx, row.id);
  })();
  return { object: 'automation', id: row.id, deleted: true };
}

/** A disabled copy named `<name> (copy)`. */
function duplicate(ctx: Emulator, req: Req<'automations/duplicate'>): Answer<'automations/duplicate'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  const copy = insertAutomation(ctx, row.team_id, { name: `${row.name} (copy)`, status: 'disabled', graph: graphOf(row) });
  return { object: 'automation', id: copy.id };
}

/** Disables the automation and cancels its running runs (the brief's rule; see index.ts). */
function stop(ctx: Emulator, req: Req<'automations/stop'>): Answer<'automations/stop'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  ctx.db.transaction(() => {
    disableAutomation(ctx, row.id);
    cancelRunsOf(ctx, row.id);
  })();
  return { object: 'automation', id: row.id, status: 'disabled' };
}

function listRuns(ctx: Emulator, req: Req<'automations/list-runs'>): Answer<'automations/list-runs'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  const statuses = req.query.status ? [...new Set(String(req.query.status).split(','))] : [];
  return pageRuns(ctx.db, row.id, statuses, req.query, runListItem);
}

function getRun(ctx: Emulator, req: Req<'automations/get-run'>): Answer<'automations/get-run'> {
  const row = automationOr404(ctx, req.auth.teamId, req.params.automation_id);
  const run = findRun(ctx, row.id, req.params.run_id);
  if (!run) throw errors.notFound('Automation run');
  return runShape(ctx, run);
}

export const automationOperations = {
  'automations/create': create,
  'automations/list': list,
  'automations/get': get,
  'automations/update': update,
  'automations/remove': remove,
  'automations/duplicate': duplicate,
  'automations/stop': stop,
  'automations/list-runs': listRuns,
  'automations/get-run': getRun,
} satisfies OperationHandlers;
