/**
 * The deprecated `/audiences/{audience_id}/contacts[/{id|email}]` paths the
 * SDK still uses when given `audienceId` (docs/reference/resources.md#contacts; REC:CON-*,
 * REC:CONleg-*). Contacts are team-wide; the audience id only matters on
 * POST (the new contact joins it; unknown → 404 `Audience not found`) and
 * on the list (its members). DELETE always answers 200 and echoes the path
 * value under `contact`, also for a contact that never existed.
 */
import type { Emulator } from '../../context.js';
import { getSegmentOr404 } from '../segments/service.js';
import { listSegmentContacts } from './service.js';
import { createFromBody, get, update } from './handlers.js';
import { contactRef } from './ref.js';
import { removeContact } from './service.js';
import type { Answer, OperationHandlers, Req } from '../../http/document-types.js';

function create(ctx: Emulator, req: Req<'audiences/create-contact'>): Answer<'audiences/create-contact'> {
  const teamId = req.auth.teamId;
  getSegmentOr404(ctx, teamId, req.params.audience_id);
  return createFromBody(ctx, teamId, req.body, [req.params.audience_id]);
}

function remove(ctx: Emulator, req: Req<'audiences/remove-contact'>): Answer<'audiences/remove-contact'> {
  const ref = contactRef(req.params.id);
  removeContact(ctx, req.auth.teamId, ref);
  return { object: 'contact', contact: req.params.id, deleted: true };
}

export const legacyOperations = {
  'audiences/create-contact': create,
  'audiences/list-contacts': (ctx: Emulator, req: Req<'audiences/list-contacts'>) => listSegmentContacts(ctx, req, req.params.audience_id),
  'audiences/get-contact': get,
  'audiences/update-contact': update,
  'audiences/remove-contact': remove,
} satisfies OperationHandlers;
