/**
 * Admin API for fault injection (spec
 * `spec/paths/admin-faults.yaml`; no auth). The rules and how they fire:
 * src/faults/.
 * | operationId | does |
 * |---|---|
 * | admin/create-fault | `POST /_emulator/faults` `FaultInput` → 201 the rule with its `id` and `fired` 0; 422 for fields that do not go together, an unknown `operation` (named), an unknown `team_id` |
 * | admin/list-faults | `GET /_emulator/faults` → `{object: "list", data: [rule...]}`, oldest first, each with `fired` |
 * | admin/delete-fault | `DELETE /_emulator/faults/{id}` → `{object: "fault", id, deleted: true}`; unknown → 404 `Fault rule not found` |
 * | admin/clear-faults | `DELETE /_emulator/faults` → `{deleted: N}` |
 */
import type { Emulator } from '../context.js';
import { errors } from '../http/errors.js';
import type { ResourceModule } from '../module.js';
import type { Answer, OperationHandlers, Req } from '../http/document-types.js';

function create(ctx: Emulator, req: Req<'admin/create-fault'>): Answer<'admin/create-fault'> {
  return ctx.faults.add(req.body);
}

function list(ctx: Emulator): Answer<'admin/list-faults'> {
  return { object: 'list', data: ctx.faults.list() };
}

function remove(ctx: Emulator, req: Req<'admin/delete-fault'>): Answer<'admin/delete-fault'> {
  if (!ctx.faults.remove(req.params.fault_id)) throw errors.notFound('Fault rule');
  return { object: 'fault', id: req.params.fault_id, deleted: true };
}

function clear(ctx: Emulator): Answer<'admin/clear-faults'> {
  return { deleted: ctx.faults.clear() };
}

export const adminFaultsModule: ResourceModule = {
  name: 'admin-faults',
  operations: {
    'admin/create-fault': create,
    'admin/list-faults': list,
    'admin/delete-fault': remove,
    'admin/clear-faults': clear,
  } satisfies OperationHandlers,
};
