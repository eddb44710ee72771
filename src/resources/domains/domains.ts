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
import { errors } from '../../http/errors.js';
import { newId } from '../../http/format.js';
import { paginateTeam } from '../../http/pagination.js';
import { DELAYS } from '../../clock/delays.js';
import { newDkimValue } from './records.js';
import {
  emitDomainEvent, getDomainOr404, setDomainStatus, toDomain, toDomainListItem, type DomainRow,
} from './service.js';
import type { Req, SchemaOf } from '../../http/document-types.js';
import { domainVerifyJob } from './jobs.js';

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
