/**
 * Domain claims (interface-spec "Domain claim", "Domains"; API-FACTS §5.4):
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
import { apiTime, newId } from '../../http/format.js';
import { DELAYS } from '../../clock/delays.js';
import { newDkimValue } from './records.js';
import { emitDomainEvent, getDomainOr404, verificationFails, type ClaimRow } from './service.js';
import { claimExpireJob, claimVerifyJob } from './jobs.js';
import { insertDomain, resolveCapabilities } from './domains.js';
import type { Req } from '../../http/document-types.js';

function toClaim(row: ClaimRow) {
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
  const row = ctx.db.prepare('SELECT * FROM domain_claims WHERE domain_id = ? ORDER BY seq DESC LIMIT 1').get(domainId) as ClaimRow | undefined;
  if (!row) throw errors.notFound('Domain claim');
  return row;
}

function createClaim(ctx: Emulator, req: Req<'domains/create-claim'>) {
  const teamId = req.auth!.teamId;
  const name = req.body.name.toLowerCase();
  resolveCapabilities(req.body.capabilities);
  if (ctx.db.prepare('SELECT id FROM domains WHERE name = ? AND team_id = ?').get(name, teamId)) {
    throw errors.validation(`The \`${name}\` domain has been registered already.`, 403);
  }
  const owner = ctx.db.prepare(`SELECT id FROM domains WHERE name = ? AND status = 'verified' AND team_id <> ?`).get(name, teamId);
  if (!owner) {
    throw errors.validation(`The \`${name}\` domain is not verified by another team; create it with POST /domains instead.`, 422);
  }
  return ctx.db.transaction(() => {
    const domain = insertDomain(ctx, teamId, req.body);
    emitDomainEvent(ctx, 'domain.created', domain);
    const now = ctx.clock.nowMs();
    const id = newId();
    ctx.db
      .prepare(
        `INSERT INTO domain_claims (id, team_id, domain_id, name, status, region, record_value, created_at, expires_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
      )
      .run(id, teamId, domain.id, name, domain.region, `resend-domain-verification=${randomBytes(16).toString('hex')}`, now, now + DELAYS.claimExpiry);
    claimExpireJob.schedule(ctx, { claim_id: id }, { dueAt: now + DELAYS.claimExpiry, teamId });
    return toClaim(ctx.db.prepare('SELECT * FROM domain_claims WHERE id = ?').get(id) as ClaimRow);
  })();
}

function getClaim(ctx: Emulator, req: Req<'domains/get-claim'>) {
  const domain = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  return toClaim(latestClaim(ctx, domain.id));
}

function verifyClaim(ctx: Emulator, req: Req<'domains/verify-claim'>) {
  const domain = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  const claim = latestClaim(ctx, domain.id);
  if (claim.status !== 'pending' && claim.status !== 'failed') {
    throw new ApiError(422, 'validation_error', `The domain claim is \`${claim.status}\` and cannot be verified.`);
  }
  return ctx.db.transaction(() => {
    ctx.db.prepare(`UPDATE domain_claims SET status = 'pending', failure_reason = NULL WHERE id = ?`).run(claim.id);
    claimVerifyJob.schedule(ctx, { claim_id: claim.id }, { dueAt: ctx.clock.nowMs() + DELAYS.claimVerification, teamId: claim.team_id });
    return toClaim(ctx.db.prepare('SELECT * FROM domain_claims WHERE id = ?').get(claim.id) as ClaimRow);
  })();
}

export const claimOperations = {
  'domains/create-claim': createClaim,
  'domains/get-claim': getClaim,
  'domains/verify-claim': verifyClaim,
};

/** The domain's latest claim in its API shape (GET /domains/{id}/claim), or null when it has none (for the admin dashboard). */
export function latestClaimOf(ctx: Emulator, domainId: string): ReturnType<typeof toClaim> | null {
  const row = ctx.db.prepare('SELECT * FROM domain_claims WHERE domain_id = ? ORDER BY seq DESC LIMIT 1').get(domainId) as ClaimRow | undefined;
  return row ? toClaim(row) : null;
}
