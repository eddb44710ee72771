/**
 * Domain operations (interface-spec "Domains"; API-FACTS §5.4):
 * | operationId | rule |
 * |---|---|
 * | domains/create | 201 domain with records, status `not_started`; region default `us-east-1`; `custom_return_path` default `send`; capabilities default sending enabled, receiving disabled, at least one enabled (spec Errors #3, 422 `validation_error`); a name another team verified → 403 `validation_error` "has been registered already" (spec Errors #5); a name the team already has → 403 the same; raises `domain.created` |
 * | domains/list | all when `limit` is omitted; list item fields of the spec |
 * | domains/get | `object: "domain"` with records |
 * | domains/update | tracking flags, tls, capabilities, tracking_subdomain → `{object, id}`; raises `domain.updated` |
 * | domains/remove | `{object, id, deleted: true}`; cancels the domain's pending claims; raises `domain.deleted` |
 * | domains/verify | any status → `pending` now (raises `domain.updated`), then the `domains.verify` job after `DELAYS.domainVerification` → `verified`, or `failed` per `verificationFails` |
 */
import type { Emulator } from '../../context.js';
import { errors, ApiError } from '../../http/errors.js';
import { apiTime } from '../../http/format.js';
import { DELAYS } from '../../clock/delays.js';
import {
  assertNameAvailable, cancelPendingClaims, claimById, deleteDomain, domainById, domainIdByName, emitDomainEvent, getDomainOr404, insertClaim, insertDomain,
  latestClaimRow, pageDomains, resolveCapabilities, setClaimStatus, setDomainStatus, toDomain, toDomainListItem, updateDomainSettings, verifiedElsewhere,
  type ClaimRow, DOMAIN_LIST_COLUMNS,
} from './store.js';
import type { Answer, Req, OperationHandlers, SchemaOf } from '../../http/document-types.js';
import { domainVerifyJob, claimExpireJob, claimVerifyJob } from './jobs.js';
import { randomBytes } from 'node:crypto';

function create(ctx: Emulator, req: Req<'domains/create'>): Answer<'domains/create'> {
  const teamId = req.auth!.teamId;
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
  return toDomain(getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id));
}

function update(ctx: Emulator, req: Req<'domains/update'>): Answer<'domains/update'> {
  const row = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
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
  const row = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  ctx.db.transaction(() => {
    deleteDomain(ctx, row.id);
    cancelPendingClaims(ctx, row.id);
    emitDomainEvent(ctx, 'domain.deleted', row);
  })();
  return { object: 'domain', id: row.id, deleted: true };
}

function verify(ctx: Emulator, req: Req<'domains/verify'>): Answer<'domains/verify'> {
  const row = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
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

/*
 * Domain claims (interface-spec "Domain claim", "Domains"; API-FACTS §5.4):
 * | operationId | rule |
 * |---|---|
 * | domains/create-claim | only for a name another team has verified (else 422 `validation_error`); creates the placeholder domain (`not_started`) on the caller's team and a `pending` claim with a TXT record `_resend` = `resend-domain-verification=<32 hex>`, expiring after 7 days; 201 |
 * | domains/get-claim | the domain's latest claim; 404 `Domain claim not found` |
 * | domains/verify-claim | a `pending` or `failed` claim → `pending`, then the `domains.claim-verify` job after `DELAYS.claimVerification`: `completed` (the other team's domain is deleted, raising `domain.deleted` there; the placeholder gets new DKIM keys and stays `not_started`, to be verified like a new domain) or `failed` per the naming rule; an expired one → `expired` |
 * Deleting the placeholder domain cancels its pending claim (`canceled`).
 */
function toClaim(row: ClaimRow): SchemaOf<'DomainClaim'> {
  return {
    object: 'domain_claim',
    id: row.id,
    name: row.name,
    status: row.status,
    domain_id: row.domain_id,
    region: row.region,
    record: { type: 'TXT', name: '_resend', value: row.record_value, ttl: 'Auto' },
    blocked_reason: row.blocked_reason,
    failure_reason: row.failure_reason,
    created_at: apiTime(row.created_at),
    expires_at: apiTime(row.expires_at),
  };
}

function latestClaim(ctx: Emulator, domainId: string): ClaimRow {
  const row = latestClaimRow(ctx, domainId);
  if (!row) throw errors.notFound('Domain claim');
  return row;
}

function createClaim(ctx: Emulator, req: Req<'domains/create-claim'>): Answer<'domains/create-claim'> {
  const teamId = req.auth!.teamId;
  const name = req.body.name.toLowerCase();
  resolveCapabilities(req.body.capabilities);
  if (domainIdByName(ctx, teamId, name)) {
    throw errors.validation(`The \`${name}\` domain has been registered already.`, 403);
  }
  if (verifiedElsewhere(ctx, teamId, name).length === 0) {
    throw errors.validation(`The \`${name}\` domain is not verified by another team; create it with POST /domains instead.`, 422);
  }
  return ctx.db.transaction(() => {
    const domain = insertDomain(ctx, teamId, req.body);
    emitDomainEvent(ctx, 'domain.created', domain);
    const now = ctx.clock.nowMs();
    const claim = insertClaim(ctx, { teamId, domain, recordValue: `resend-domain-verification=${randomBytes(16).toString('hex')}`, createdAt: now, expiresAt: now + DELAYS.claimExpiry });
    claimExpireJob.schedule(ctx, { claim_id: claim.id }, { dueAt: now + DELAYS.claimExpiry, teamId });
    return toClaim(claim);
  })();
}

function getClaim(ctx: Emulator, req: Req<'domains/get-claim'>): Answer<'domains/get-claim'> {
  const domain = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  return toClaim(latestClaim(ctx, domain.id));
}

function verifyClaim(ctx: Emulator, req: Req<'domains/verify-claim'>): Answer<'domains/verify-claim'> {
  const domain = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  const claim = latestClaim(ctx, domain.id);
  if (claim.status !== 'pending' && claim.status !== 'failed') {
    throw new ApiError(422, 'validation_error', `The domain claim is \`${claim.status}\` and cannot be verified.`);
  }
  return ctx.db.transaction(() => {
    setClaimStatus(ctx, claim.id, 'pending', null);
    claimVerifyJob.schedule(ctx, { claim_id: claim.id }, { dueAt: ctx.clock.nowMs() + DELAYS.claimVerification, teamId: claim.team_id });
    return toClaim(claimById(ctx, claim.id)!);
  })();
}

export const claimOperations = {
  'domains/create-claim': createClaim,
  'domains/get-claim': getClaim,
  'domains/verify-claim': verifyClaim,
} satisfies OperationHandlers;

/** The domain's latest claim in its API shape (GET /domains/{id}/claim), or null when it has none (for the admin dashboard). */
export function latestClaimOf(ctx: Emulator, domainId: string): ReturnType<typeof toClaim> | null {
  const row = latestClaimRow(ctx, domainId);
  return row ? toClaim(row) : null;
}

export { insertDomain };
