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
import { newDkimValue } from './records.js';
import { emitDomainEvent, setDomainStatus, verificationFails, type ClaimRow, type DomainRow } from './store.js';

/** `domains.verify` (`runVerification`). */
export const domainVerifyJob = defineJob('domains.verify', (ctx, job) => runVerification(ctx, job.payload.domain_id));
/** `domains.claim-verify` (`runClaimVerification`). */
export const claimVerifyJob = defineJob('domains.claim-verify', (ctx, job) => runClaimVerification(ctx, job.payload.claim_id));
/** `domains.claim-expire` (`runClaimExpiry`). */
export const claimExpireJob = defineJob('domains.claim-expire', (ctx, job) => runClaimExpiry(ctx, job.payload.claim_id));

/** The `domains.verify` job: ends a verification started by `domains/verify`. */
function runVerification(ctx: Emulator, domainId: string): void {
  const row = ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(domainId) as DomainRow | undefined;
  if (!row || row.status !== 'pending') return;
  ctx.db.transaction(() => setDomainStatus(ctx, row.id, verificationFails(row.name) ? 'failed' : 'verified'))();
}

/** The `domains.claim-verify` job. */
function runClaimVerification(ctx: Emulator, claimId: string): void {
  const claim = ctx.db.prepare('SELECT * FROM domain_claims WHERE id = ?').get(claimId) as ClaimRow | undefined;
  if (!claim || claim.status !== 'pending') return;
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    const set = ctx.db.prepare('UPDATE domain_claims SET status = ?, failure_reason = ? WHERE id = ?');
    if (now >= claim.expires_at) return void set.run('expired', null, claim.id);
    if (verificationFails(claim.name)) return void set.run('failed', 'verification_record_not_found', claim.id);
    const previous = ctx.db
      .prepare(`SELECT * FROM domains WHERE name = ? AND team_id <> ? AND status = 'verified'`)
      .all(claim.name, claim.team_id) as DomainRow[];
    for (const d of previous) {
      ctx.db.prepare('DELETE FROM domains WHERE id = ?').run(d.id);
      emitDomainEvent(ctx, 'domain.deleted', d);
    }
    ctx.db.prepare(`UPDATE domains SET dkim_value = ?, status = 'not_started' WHERE id = ?`).run(newDkimValue(), claim.domain_id);
    set.run('completed', null, claim.id);
    const placeholder = ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(claim.domain_id) as DomainRow | undefined;
    if (placeholder) emitDomainEvent(ctx, 'domain.updated', placeholder);
  })();
}

/** The `domains.claim-expire` job: a claim still `pending` after 7 days is `expired`. */
function runClaimExpiry(ctx: Emulator, claimId: string): void {
  ctx.db.prepare(`UPDATE domain_claims SET status = 'expired' WHERE id = ? AND status = 'pending'`).run(claimId);
}
