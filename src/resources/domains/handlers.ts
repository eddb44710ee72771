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
import { newId, apiTime } from '../../http/format.js';
import { paginateTeam } from '../../http/pagination.js';
import { DELAYS } from '../../clock/delays.js';
import { newDkimValue } from './records.js';
import { emitDomainEvent, getDomainOr404, setDomainStatus, toDomain, toDomainListItem, type DomainRow, verificationFails, type ClaimRow } from './store.js';
import type { Req, SchemaOf } from '../../http/document-types.js';
import { domainVerifyJob, claimExpireJob, claimVerifyJob } from './jobs.js';
import { randomBytes } from 'node:crypto';

/** Body of POST /domains and POST /domains/claim (`CreateDomainBody` of spec/paths/domains.yaml). */
export type CreateDomainBody = SchemaOf<'CreateDomainBody'>;

/** Capabilities with defaults; 422 when none is enabled (spec Errors #3). */
export function resolveCapabilities(c: CreateDomainBody['capabilities']) {
  const capabilities = { sending: c?.sending ?? 'enabled', receiving: c?.receiving ?? 'disabled' } as const;
  if (capabilities.sending === 'disabled' && capabilities.receiving === 'disabled') {
    throw errors.validation('At least one capability (`sending` or `receiving`) must be enabled.', 422);
  }
  return capabilities;
}

/**
 * Inserts a domain row (status `not_started`, fresh DKIM key) and returns it.
 * No checks; callers check names and capabilities.
 */
export function insertDomain(ctx: Emulator, teamId: string, body: CreateDomainBody, extra: Partial<DomainRow> = {}): DomainRow {
  const capabilities = resolveCapabilities(body.capabilities);
  const id = extra.id ?? newId();
  ctx.db
    .prepare(
      `INSERT INTO domains (id, team_id, name, status, region, capabilities, open_tracking, click_tracking,
        tracking_subdomain, custom_return_path, tls, dkim_value, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id, teamId, body.name.toLowerCase(), extra.status ?? 'not_started', body.region ?? 'us-east-1', JSON.stringify(capabilities),
      body.open_tracking ? 1 : 0, body.click_tracking ? 1 : 0, body.tracking_subdomain ?? null,
      body.custom_return_path ?? 'send', body.tls ?? 'opportunistic', extra.dkim_value ?? newDkimValue(), extra.created_at ?? ctx.clock.nowMs(),
    );
  return ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(id) as DomainRow;
}

/**
 * 403 `validation_error` if another team verified `name`, or this team
 * already has it (API-FACTS §2.1, spec Errors #5).
 */
export function assertNameAvailable(ctx: Emulator, teamId: string, name: string): void {
  const taken = ctx.db
    .prepare(`SELECT id FROM domains WHERE name = ? AND (team_id = ? OR status = 'verified')`)
    .get(name.toLowerCase(), teamId);
  if (taken) throw errors.validation(`The \`${name.toLowerCase()}\` domain has been registered already.`, 403);
}

function create(ctx: Emulator, req: Req<'domains/create'>) {
  const teamId = req.auth!.teamId;
  resolveCapabilities(req.body.capabilities);
  assertNameAvailable(ctx, teamId, req.body.name);
  return ctx.db.transaction(() => {
    const row = insertDomain(ctx, teamId, req.body);
    emitDomainEvent(ctx, 'domain.created', row);
    return toDomain(row);
  })();
}

function list(ctx: Emulator, req: Req<'domains/list'>) {
  return paginateTeam(ctx.db, req, {
    table: 'domains',
    defaultLimit: null,
    map: toDomainListItem,
  });
}

function get(ctx: Emulator, req: Req<'domains/get'>) {
  return toDomain(getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id));
}

function update(ctx: Emulator, req: Req<'domains/update'>) {
  const row = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  const b = req.body;
  const current = JSON.parse(row.capabilities);
  const capabilities = b.capabilities ? resolveCapabilities({ ...current, ...b.capabilities }) : current;
  return ctx.db.transaction(() => {
    ctx.db
      .prepare(`UPDATE domains SET open_tracking = ?, click_tracking = ?, tls = ?, capabilities = ?, tracking_subdomain = ? WHERE id = ?`)
      .run(
        b.open_tracking === undefined ? row.open_tracking : b.open_tracking ? 1 : 0,
        b.click_tracking === undefined ? row.click_tracking : b.click_tracking ? 1 : 0,
        b.tls ?? row.tls,
        JSON.stringify(capabilities),
        b.tracking_subdomain === undefined ? row.tracking_subdomain : b.tracking_subdomain,
        row.id,
      );
    emitDomainEvent(ctx, 'domain.updated', ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(row.id) as DomainRow);
    return { object: 'domain', id: row.id };
  })();
}

function remove(ctx: Emulator, req: Req<'domains/remove'>) {
  const row = getDomainOr404(ctx, req.auth!.teamId, req.params.domain_id);
  ctx.db.transaction(() => {
    ctx.db.prepare('DELETE FROM domains WHERE id = ?').run(row.id);
    ctx.db.prepare(`UPDATE domain_claims SET status = 'canceled' WHERE domain_id = ? AND status = 'pending'`).run(row.id);
    emitDomainEvent(ctx, 'domain.deleted', row);
  })();
  return { object: 'domain', id: row.id, deleted: true };
}

function verify(ctx: Emulator, req: Req<'domains/verify'>) {
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
};

/*
 * Domain claims (interface-spec "Domain claim", "Domains"; API-FACTS §5.4):
 * | operationId | rule |
 * |---|---|
 * | domains/create-claim | only for a name another team has verified (else 422 `validation_error`); creates the placeholder domain (`not_started`) on the caller's team and a `pending` claim with a TXT record `_resend` = `resend-domain-verification=<32 hex>`, expiring after 7 days; 201 |
 * | domains/get-claim | the domain's latest claim; 404 `Domain claim not found` |
 * | domains/verify-claim | a `pending` or `failed` claim → `pending`, then the `domains.claim-verify` job after `DELAYS.claimVerification`: `completed` (the other team's domain is deleted, raising `domain.deleted` there; the placeholder gets new DKIM keys and stays `not_started`, to be verified like a new domain) or `failed` per the naming rule; an expired one → `expired` |
 * Deleting the placeholder domain cancels its pending claim (`canceled`).
 */
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
