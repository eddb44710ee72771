/**
 * Domain operations (docs/reference/interface-spec.md#domain; docs/reference/resources.md#domains-and-claims):
 * | operationId | rule |
 * |---|---|
 * | domains/create | 201 domain with records, status `not_started`; region default `us-east-1`; `custom_return_path` default `send`; capabilities default sending enabled, receiving disabled, at least one enabled (docs/reference/interface-spec.md#errors 3, 422 `validation_error`); a name another team verified → 403 `validation_error` "has been registered already" (docs/reference/interface-spec.md#errors 5); a name the team already has → 403 the same; raises `domain.created` |
 * | domains/list | all when `limit` is omitted; list item fields of the spec |
 * | domains/get | `object: "domain"` with records |
 * | domains/update | tracking flags, tls, capabilities, tracking_subdomain → `{object, id}`; raises `domain.updated` |
 * | domains/remove | `{object, id, deleted: true}`; cancels the domain's pending claims; raises `domain.deleted` |
 * | domains/verify | any status → `pending` now (raises `domain.updated`), then the `domains.verify` job after `DELAYS.domainVerification` → `verified`, or `failed` per `verificationFails` |
 */
import type { Emulator } from '../../context.js';
import { DELAYS } from '../../clock/delays.js';
import {
  assertNameAvailable, cancelPendingClaims, deleteDomain, domainById, emitDomainEvent, getDomainOr404, insertDomain,
  pageDomains, resolveCapabilities, setDomainStatus, toDomain, toDomainListItem, updateDomainSettings, DOMAIN_LIST_COLUMNS,
} from './store.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { domainVerifyJob } from './jobs.js';
import { createDomainClaim, latestClaim, toClaim, verifyDomainClaim } from './claims.js';
import { domainMessages } from './messages.js';

function create(ctx: Emulator, req: Req<'domains/create'>): Answer<'domains/create'> {
  const teamId = req.auth.teamId;
  resolveCapabilities(req.body.capabilities);
  assertNameAvailable(ctx, teamId, req.body.name);
  return ctx.db.transaction(() => {
    const row = insertDomain(ctx, teamId, req.body);
    emitDomainEvent(ctx, 'domain.created', row);
    return toDomain(row);
  })();
}

function list(ctx: Emulator, req: Req<'domains/list'>): Answer<'domains/list'> {
  return pageDomains(ctx.db, req, {
    defaultLimit: null,
    columns: DOMAIN_LIST_COLUMNS,
    map: toDomainListItem,
  });
}

function get(ctx: Emulator, req: Req<'domains/get'>): Answer<'domains/get'> {
  return toDomain(getDomainOr404(ctx, req.auth.teamId, req.params.domain_id));
}

function update(ctx: Emulator, req: Req<'domains/update'>): Answer<'domains/update'> {
  const row = getDomainOr404(ctx, req.auth.teamId, req.params.domain_id);
  const b = req.body;
  const current = JSON.parse(row.capabilities);
  const capabilities = b.capabilities ? resolveCapabilities({ ...current, ...b.capabilities }) : current;
  return ctx.db.transaction((): Answer<'domains/update'> => {
    updateDomainSettings(ctx, row.id, {
      open_tracking: b.open_tracking === undefined ? row.open_tracking : b.open_tracking ? 1 : 0,
      click_tracking: b.click_tracking === undefined ? row.click_tracking : b.click_tracking ? 1 : 0,
      tls: b.tls ?? row.tls,
      capabilities: JSON.stringify(capabilities),
      tracking_subdomain: b.tracking_subdomain === undefined ? row.tracking_subdomain : b.tracking_subdomain,
    });
    emitDomainEvent(ctx, 'domain.updated', domainById(ctx, row.id)!);
    return { object: 'domain', id: row.id };
  })();
}

function remove(ctx: Emulator, req: Req<'domains/remove'>): Answer<'domains/remove'> {
  const row = getDomainOr404(ctx, req.auth.teamId, req.params.domain_id);
  ctx.db.transaction(() => {
    deleteDomain(ctx, row.id);
    cancelPendingClaims(ctx, row.id);
    emitDomainEvent(ctx, 'domain.deleted', row);
  })();
  return { object: 'domain', id: row.id, deleted: true };
}

function verify(ctx: Emulator, req: Req<'domains/verify'>): Answer<'domains/verify'> {
  const row = getDomainOr404(ctx, req.auth.teamId, req.params.domain_id);
  ctx.db.transaction(() => {
    setDomainStatus(ctx, row.id, 'pending');
    domainVerifyJob.schedule(ctx, { domain_id: row.id }, { dueAt: ctx.clock.nowMs() + DELAYS.domainVerification, teamId: row.team_id });
  })();
  return { object: 'domain', id: row.id };
}

export const domainOperations = {
  'domains/create': create,
  'domains/list': list,
  'domains/get': get,
  'domains/update': update,
  'domains/remove': remove,
  'domains/verify': verify,
} satisfies OperationHandlers;

/* Domain claims: the rules are in claims.ts. */

function createClaim(ctx: Emulator, req: Req<'domains/create-claim'>): Answer<'domains/create-claim'> {
  return toClaim(createDomainClaim(ctx, req.auth.teamId, req.body));
}

function getClaim(ctx: Emulator, req: Req<'domains/get-claim'>): Answer<'domains/get-claim'> {
  const domain = getDomainOr404(ctx, req.auth.teamId, req.params.domain_id);
  return toClaim(latestClaim(ctx, domain.id));
}

function verifyClaim(ctx: Emulator, req: Req<'domains/verify-claim'>): Answer<'domains/verify-claim'> {
  const domain = getDomainOr404(ctx, req.auth.teamId, req.params.domain_id);
  return toClaim(verifyDomainClaim(ctx, latestClaim(ctx, domain.id)));
}

export const claimOperations = {
  'domains/create-claim': createClaim,
  'domains/get-claim': getClaim,
  'domains/verify-claim': verifyClaim,
} satisfies OperationHandlers;

export { insertDomain };
