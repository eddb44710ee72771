/**
 * The domains' clock jobs (delays in src/clock/delays.ts):
 * | job | due | does |
 * |---|---|---|
 * | `domains.verify` | `domains/verify` + `domainVerification` | a `pending` domain → `verified`, or `failed` per `verificationFails` |
 * | `domains.claim-verify` | `domains/verify-claim` + `claimVerification` | a `pending` claim → `completed` (the other team's domain deleted, the placeholder gets new DKIM keys), `failed` per the naming rule, or `expired` |
 * | `domains.claim-expire` | claim created + `claimExpiry` (7 days) | a claim still `pending` → `expired` |
 */
import type { Emulator } from '../../context.js';
import { defineJob } from '../../clock/jobs.js';
import {
  claimById, deleteDomain, domainById, emitDomainEvent, expirePendingClaim, resetClaimedDomain, setClaimStatus, setDomainStatus, verificationFails, verifiedElsewhere,
} from './store.js';

/** `domains.verify` (`runVerification`). */
export const domainVerifyJob = defineJob('domains.verify', (ctx, job) => runVerification(ctx, job.payload.domain_id));
/** `domains.claim-verify` (`runClaimVerification`). */
export const claimVerifyJob = defineJob('domains.claim-verify', (ctx, job) => runClaimVerification(ctx, job.payload.claim_id));
/** `domains.claim-expire` (`runClaimExpiry`). */
export const claimExpireJob = defineJob('domains.claim-expire', (ctx, job) => runClaimExpiry(ctx, job.payload.claim_id));

/** The `domains.verify` job: ends a verification started by `domains/verify`. */
function runVerification(ctx: Emulator, domainId: string): void {
  const row = domainById(ctx, domainId);
  if (!row || row.status !== 'pending') return;
  ctx.db.transaction(() => setDomainStatus(ctx, row.id, verificationFails(row.name) ? 'failed' : 'verified'))();
}

/** The `domains.claim-verify` job. */
function runClaimVerification(ctx: Emulator, claimId: string): void {
  const claim = claimById(ctx, claimId);
  if (!claim || claim.status !== 'pending') return;
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    if (now >= claim.expires_at) return void setClaimStatus(ctx, claim.id, 'expired', null);
    if (verificationFails(claim.name)) return void setClaimStatus(ctx, claim.id, 'failed', 'verification_record_not_found');
    for (const d of verifiedElsewhere(ctx, claim.team_id, claim.name)) {
      deleteDomain(ctx, d.id);
      emitDomainEvent(ctx, 'domain.deleted', d);
    }
    resetClaimedDomain(ctx, claim.domain_id);
    setClaimStatus(ctx, claim.id, 'completed', null);
    const placeholder = domainById(ctx, claim.domain_id);
    if (placeholder) emitDomainEvent(ctx, 'domain.updated', placeholder);
  })();
}

/** The `domains.claim-expire` job: a claim still `pending` after 7 days is `expired`. */
function runClaimExpiry(ctx: Emulator, claimId: string): void {
  expirePendingClaim(ctx, claimId);
}
