/**
 * Handlers of the templates operations (see the table in `index.ts`).
 */
import type { Emulator } from '../../context.js';
import {
  deleteTemplate, getVersion, insertTemplate, pageTemplates, publishTemplate, templateListItem, templateOr404, templateShape, updateTemplate,
  type StoredVariable, TEMPLATE_LIST_COLUMNS,
} from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';

function create(ctx: Emulator, req: Req<'templates/create'>): Answer<'templates/create'> {
  const teamId = req.auth.teamId;
  const row = ctx.db.transaction(() => insertTemplate(ctx, teamId, req.body))();
  return { object: 'template', id: row.id };
}

function list(ctx: Emulator, req: Req<'templates/list'>): Answer<'templates/list'> {
  return pageTemplates(ctx.db, req, {
    defaultLimit: 20,
    columns: TEMPLATE_LIST_COLUMNS,
    map: templateListItem,
  });
}

function get(ctx: Emulator, req: Req<'templates/get'>): Answer<'templates/get'> {
  return templateShape(ctx, templateOr404(ctx, req.auth.teamId, req.params.id));
}

function update(ctx: Emulator, req: Req<'templates/update'>): Answer<'templates/update'> {
  const row = templateOr404(ctx, req.auth.teamId, req.params.id);
  ctx.db.transaction(() => updateTemplate(ctx, row, req.body))();
  return { object: 'template', id: row.id };
}

function remove(ctx: Emulator, req: Req<'templates/remove'>): Answer<'templates/remove'> {
  const row = templateOr404(ctx, req.auth.teamId, req.params.id);
  ctx.db.transaction(() => {
    deleteTemplate(ctx, row.id);
  })();
  return { object: 'template', id: row.id, deleted: true };
}

function publish(ctx: Emulator, req: Req<'templates/publish'>): Answer<'templates/publish'> {
  const row = templateOr404(ctx, req.auth.teamId, req.params.id);
  publishTemplate(ctx, row);
  return { object: 'template', id: row.id };
}

/** A draft copy of the latest version, named `<name> (copy)`, without alias (aliases are unique). */
function duplicate(ctx: Emulator, req: Req<'templates/duplicate'>): Answer<'templates/duplicate'> {
  const teamId = req.auth.teamId;
  const row = templateOr404(ctx, teamId, req.params.id);
  const v = getVersion(ctx, row.current_version_id);
  const vars = JSON.parse(v.variables) as StoredVariable[];
  const copy = ctx.db.transaction(() => insertTemplate(ctx, teamId, {
    name: `${row.name} (copy)`,
    alias: null,
    from: v.from_addr,
    subject: v.subject,
    reply_to: v.reply_to ? JSON.parse(v.reply_to) : null,
    html: v.html,
    text: v.text,
    variables: vars.map((x) => ({ key: x.key, type: x.type, fallback_value: x.fallback_value })),
  }))();
  return { object: 'template', id: copy.id };
}

export const templateOperations = {
  'templates/create': create,
  'templates/list': list,
  'templates/get': get,
  'templates/update': update,
  'templates/remove': remove,
  'templates/publish': publish,
  'templates/duplicate': duplicate,
} satisfies OperationHandlers;
