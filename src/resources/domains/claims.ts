/**
 * Domain claims (docs/reference/interface-spec.md#domain-claim; docs/reference/interface-spec.md#domain; docs/reference/resources.md#domains-and-claims):
 * | operationId | rule |
 * |---|---|
 * | domains/create-claim | only for a name another team has verified (else 422 `validation_error`); creates the placeholder domain (`not_started`) on the caller's team and a `pending` claim with a TXT record `_resend` = `resend-domain-verification=<32 hex>`, expiring after 7 days; 201 |
 * | domains/get-claim | the domain's latest claim; 404 `Domain claim not found` |
 * | domains/verify-claim | a `pending` or `failed` claim → `pending`, then the `domains.claim-verify` job after `DELAYS.claimVerification`: `completed` (the other team's domain is deleted, raising `domain.deleted` there; the placeholder gets new DKIM keys and stays `not_started`, to be verified like a new domain) or `failed` per the naming rule; an expired one → `expired` |
 * Deleting the placeholder domain cancels its pending claim (`canceled`).
 */
import { randomBytes } from 'node:crypto';
import type { Emulator } from '../../context.js';
import { ApiError, errors } from '../../http/errors.js';
import { apiTime } from '../../http/format.js';
import type { Req, SchemaOf } from '../../http/document-types.js';
import { DELAYS } from '../../clock/delays.js';
import { claimExpireJob, claimVerifyJob } from './jobs.js';
import { domainMessages } from './messages.js';
import {
  claimById, domainIdByName, emitDomainEvent, insertClaim, insertDomain, latestClaimRow, resolveCapabilities, setClaimStatus, verifiedElsewhere, type ClaimRow,
} from './store.js';

/** A claim in its API shape (`object: "domain_claim"`, the TXT record to publish, times as API timestamps). */
export function toClaim(row: ClaimRow): SchemaOf<'DomainClaim'> {
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

/** The domain's latest claim, or 404 `Domain claim not found`. */
export function latestClaim(ctx: Emulator, domainId: string): ClaimRow {
  const row = latestClaimRow(ctx, domainId);
  if (!row) throw errors.notFound('Domain claim');
  return row;
}

/**
 * Claims a name another team has verified: creates the placeholder domain
 * (raising `domain.created`) and a `pending` claim with its TXT value, and
 * schedules its expiry (`DELAYS.claimExpiry`); one transaction. Throws 403
 * when the team already has the name, 422 when no other team verified it
 * or for bad capabilities.
 */
export function createDomainClaim(ctx: Emulator, teamId: string, body: Req<'domains/create-claim'>['body']): ClaimRow {
  const name = body.name.toLowerCase();
  resolveCapabilities(body.capabilities);
  if (domainIdByName(ctx, teamId, name)) {
    throw domainMessages.registeredAlready(name);
  }
  if (verifiedElsewhere(ctx, teamId, name).length === 0) {
    throw domainMessages.notVerifiedElsewhere(name);
  }
  return ctx.db.transaction(() => {
    const domain = insertDomain(ctx, teamId, body);
    emitDomainEvent(ctx, 'domain.created', domain);
    const now = ctx.clock.nowMs();
    const claim = insertClaim(ctx, { teamId, domain, recordValue: `resend-domain-verification=${randomBytes(16).toString('hex')}`, createdAt: now, expiresAt: now + DELAYS.claimExpiry });
    claimExpireJob.schedule(ctx, { claim_id: claim.id }, { dueAt: now + DELAYS.claimExpiry, teamId });
    return claim;
  })();
}

/**
 * Starts verifying a `pending` or `failed` claim: `pending` now, the
 * `domains.claim-verify` job after `DELAYS.claimVerification`. Returns the
 * claim as it is after. Throws 422 for a claim in another status.
 */
export function verifyDomainClaim(ctx: Emulator, claim: ClaimRow): ClaimRow {
  if (claim.status !== 'pending' && claim.status !== 'failed') {
    throw domainMessages.claimNotVerifiable(claim.status);
  }
  return ctx.db.transaction(() => {
    setClaimStatus(ctx, claim.id, 'pending', null);
    claimVerifyJob.schedule(ctx, { claim_id: claim.id }, { dueAt: ctx.clock.nowMs() + DELAYS.claimVerification, teamId: claim.team_id });
    return claimById(ctx, claim.id)!;
  })();
}

/** The domain's latest claim in its API shape (GET /domains/{id}/claim), or null when it has none (for the admin dashboard). */
export function latestClaimOf(ctx: Emulator, domainId: string): SchemaOf<'DomainClaim'> | null {
  const row = latestClaimRow(ctx, domainId);
  return row ? toClaim(row) : null;
}
