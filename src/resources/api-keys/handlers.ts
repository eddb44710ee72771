/**
 * API keys (docs/reference/interface-spec.md#api-key; docs/reference/resources.md#api-keys).
 * | operationId | rule |
 * |---|---|
 * | api-keys/create | name ≤ 50 (`""` accepted, REC:AK-create-allows-empty-name); permission `full_access` (default) or `sending_access`; `domain_id` only with `sending_access`, must be a domain of the team; 201 `{id, object: "api_key", token}` (the spec over the recorded `"list"`, docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 1) |
 * | api-keys/list | all keys when `limit` is omitted; items `{id, name, created_at, last_used_at}` |
 * | api-keys/update | `{name}` → `{object: "api_key", id}` |
 * | api-keys/remove | 200 `{object: "list", id, deleted: true}` as recorded (REC:AK-remove-removes); unknown → 404 `API key not found` |
 * Tokens (`re_…`) are stored as sha256 and shown only on creation.
 */
import type { Emulator } from '../../context.js';
import { apiTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { findTeamDomain } from '../domains/service.js';
import { apiKeyExists, deleteApiKey, insertApiKey, newToken, renameApiKey, pageApiKeys, API_KEY_LIST_COLUMNS, type ApiKeyListRow } from './store.js';
import { apiKeyMessages } from './messages.js';

function create(ctx: Emulator, req: Req<'api-keys/create'>): Answer<'api-keys/create'> {
  const { name, permission = 'full_access', domain_id } = req.body;
  const teamId = req.auth.teamId;
  let domainId: string | null = null;
  if (domain_id !== undefined && domain_id !== null) {
    if (permission !== 'sending_access') {
      throw apiKeyMessages.domainOnlyForSending();
    }
    if (!findTeamDomain(ctx, teamId, domain_id)) throw errors.notFound('Domain');
    domainId = domain_id;
  }
  const token = newToken();
  const id = insertApiKey(ctx, { teamId, name, token, permission, domainId });
  return { id, object: 'api_key', token };
}

function list(ctx: Emulator, req: Req<'api-keys/list'>): Answer<'api-keys/list'> {
  return pageApiKeys(ctx.db, req, {
    defaultLimit: null,
    columns: API_KEY_LIST_COLUMNS,
    map: (r: ApiKeyListRow) => ({ id: r.id, name: r.name, created_at: apiTime(r.created_at), last_used_at: apiTime(r.last_used_at) }),
  });
}

function update(ctx: Emulator, req: Req<'api-keys/update'>): Answer<'api-keys/update'> {
  const id = req.params.api_key_id;
  if (!apiKeyExists(ctx, req.auth.teamId, id)) throw errors.notFound('API key');
  if (req.body.name !== undefined) renameApiKey(ctx, id, req.body.name);
  return { object: 'api_key', id };
}

function remove(ctx: Emulator, req: Req<'api-keys/remove'>): Answer<'api-keys/remove'> {
  const id = req.params.api_key_id;
  if (!deleteApiKey(ctx, req.auth.teamId, id)) throw errors.notFound('API key');
  return { object: 'list', id, deleted: true };
}

/** The api-keys operations, by operationId. */
export const apiKeyOperations = {
  'api-keys/create': create,
  'api-keys/list': list,
  'api-keys/update': update,
  'api-keys/remove': remove,
} satisfies OperationHandlers;
