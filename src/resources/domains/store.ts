/**
 * The `domains` and `domain_claims` tables (owned here: no other room names them): their
 * declarations, the SQL on them, the rows' API shapes and their events.
 */
import type { Emulator } from '../../context.js';
import { apiTime, isoTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { emitEvent } from '../../deliveries/emit.js';
import { buildRecords, type DnsRecord } from './records.js';
import { newId } from '../../http/format.js';
import { teamPager } from '../../http/pagination.js';
import type { SchemaOf, ListItem, ResponseBody } from '../../http/document-types.js';

/** A domain's status (the document's `DomainStatus`). */
export type DomainStatus = SchemaOf<'DomainStatus'>;
import { newDkimValue } from './records.js';
import { domainMessages } from './messages.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** The `domains` table. Times in emulated ms; JSON columns as text. */
export const domainsTable = defineTable(
  'domains',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    status: text().notNull().as<DomainStatus>(),
    region: text().notNull().as<SchemaOf<'Region'>>(),
    /** `{sending, receiving}` as JSON text (`capabilitiesOf`). */
    capabilities: text().notNull(),
    open_tracking: integer().notNull().default(0),
    click_tracking: integer().notNull().default(0),
    tracking_subdomain: text(),
    custom_return_path: text().notNull().default('send'),
    tls: text().notNull().default('opportunistic'),
    dkim_value: text().notNull(),
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'domains_team', on: 'team_id' },
      { name: 'domains_name', on: 'name, status' },
    ],
  },
);

/** The `domain_claims` table: claims of a domain another team verified; times in emulated ms. */
export const domainClaimsTable = defineTable(
  'domain_claims',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    domain_id: text().notNull(),
    name: text().notNull(),
    status: text().notNull().as<SchemaOf<'DomainClaim'>['status']>(),
    region: text().notNull().as<SchemaOf<'Region'>>(),
    record_value: text().notNull(),
    blocked_reason: text(),
    failure_reason: text(),
    created_at: integer().notNull(),
    expires_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'domain_claims_domain', on: 'domain_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [domainsTable, domainClaimsTable];

/** A `domains` row. Times in emulated ms; JSON columns as text. */
export type DomainRow = RowOf<typeof domainsTable>;

/** A `domain_claims` row (src/resources/domains/handlers.ts). */
export type ClaimRow = RowOf<typeof domainClaimsTable>;

/** The INSERT of a new domain: every column but `seq`. */
const INSERT_DOMAIN = domainsTable.insert(domainsTable.columnsExcept('seq'));

/** The INSERT of a new claim: its reasons start null. */
const INSERT_CLAIM = domainClaimsTable.insert(domainClaimsTable.columnsExcept('seq', 'blocked_reason', 'failure_reason'));

/** Capabilities object of a row. */
export function capabilitiesOf(row: Pick<DomainRow, 'capabilities'>): { sending: 'enabled' | 'disabled'; receiving: 'enabled' | 'disabled' } {
  return JSON.parse(row.capabilities);
}

/**
 * The record status shown for a domain status: records of a `verified` domain
 * are `verified`, of a `failed` one `failed`, of a `pending` one `pending`,
 * otherwise `not_started`.
 */
export function recordStatus(domainStatus: DomainStatus): DnsRecord['status'] {
  return domainStatus === 'verified' || domainStatus === 'failed' || domainStatus === 'pending' ? domainStatus : 'not_started';
}

/** The DNS records of a row. */
export function recordsOf(row: DomainRow): DnsRecord[] {
  return buildRecords({
    region: row.region,
    customReturnPath: row.custom_return_path,
    capabilities: capabilitiesOf(row),
    trackingSubdomain: row.tracking_subdomain,
    dkimValue: row.dkim_value,
    status: recordStatus(row.status),
  });
}

/**
 * The single-domain shape (GET /domains/{id}, POST /domains). Without a
 * tracking subdomain the key `tracking_subdomain` is left out: the interface
 * spec and the document type it `string`, the SDK `tracking_subdomain?:
 * string` (`Domain`, resend 6.38), and the SDK's mocks omit it.
 */
export function toDomain(row: DomainRow): ResponseBody<'domains/get'> {
  return {
    object: 'domain',
    ...toDomainListItem(row),
    open_tracking: Boolean(row.open_tracking),
    click_tracking: Boolean(row.click_tracking),
    ...(row.tracking_subdomain !== null ? { tracking_subdomain: row.tracking_subdomain } : {}),
    records: recordsOf(row),
  };
}

/** The columns its list items read (`DOMAIN_LIST_COLUMNS`, `DomainListRow`). */
const DOMAIN_LIST_NAMES = ['id', 'name', 'status', 'created_at', 'region', 'capabilities'] as const;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const DOMAIN_LIST_COLUMNS = domainsTable.columnList(DOMAIN_LIST_NAMES);

/** A row as a list page reads it (`DOMAIN_LIST_COLUMNS`). */
export type DomainListRow = Pick<DomainRow, (typeof DOMAIN_LIST_NAMES)[number]>;

/** The list item shape (docs/reference/interface-spec.md#domain: id, name, status, created_at, region, capabilities). */
export function toDomainListItem(row: DomainListRow): ListItem<'domains/list'> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    created_at: apiTime(row.created_at),
    region: row.region,
    capabilities: capabilitiesOf(row),
  };
}

/** The team's domain, or 404 `Domain not found`. */
export function getDomainOr404(ctx: Emulator, teamId: string, id: string): DomainRow {
  const row = findTeamDomain(ctx, teamId, id);
  if (!row) throw errors.notFound('Domain');
  return row;
}

/** Raises `domain.created|updated|deleted` with the webhook `data` of docs/reference/webhooks.md#envelope-and-data. */
export function emitDomainEvent(ctx: Emulator, type: 'domain.created' | 'domain.updated' | 'domain.deleted', row: DomainRow): void {
  emitEvent(ctx, row.team_id, type, {
    id: row.id,
    name: row.name,
    status: row.status,
    created_at: isoTime(row.created_at),
    region: row.region,
    capabilities: capabilitiesOf(row),
    records: recordsOf(row),
  });
}

/**
 * Sets a domain's status and raises `domain.updated` if it changed
 * (docs/reference/interface-spec.md#domain: events as the status changes).
 */
export function setDomainStatus(ctx: Emulator, id: string, status: DomainStatus): void {
  const row = domainById(ctx, id);
  if (!row || row.status === status) return;
  ctx.db.prepare('UPDATE domains SET status = ? WHERE id = ?').run(status, id);
  emitDomainEvent(ctx, 'domain.updated', { ...row, status });
}

/**
 * The emulator's naming rule for outcomes (docs/outcomes.md): a domain whose
 * first label starts with `fail` (e.g. `fail.example.com`, `failing.dev`)
 * fails verification; every other domain verifies.
 */
export function verificationFails(name: string): boolean {
  return name.split('.')[0].startsWith('fail');
}

/** The team's domains, oldest first (for the admin dashboard, src/admin/dashboard.ts). */
export function listDomains(ctx: Emulator, teamId: string): DomainRow[] {
  return ctx.db.prepare('SELECT * FROM domains WHERE team_id = ? ORDER BY seq').all(teamId) as DomainRow[];
}

/** The team's domain with this id, or null. */
export function findTeamDomain(ctx: Emulator, teamId: string, id: string): DomainRow | null {
  return (ctx.db.prepare('SELECT * FROM domains WHERE id = ? AND team_id = ?').get(id, teamId) as DomainRow | undefined) ?? null;
}

/** The id of the team's domain named `name` (case-insensitive), or null. */
export function domainIdByName(ctx: Emulator, teamId: string, name: string): string | null {
  const row = ctx.db.prepare('SELECT id FROM domains WHERE team_id = ? AND lower(name) = ?').get(teamId, name.toLowerCase()) as Pick<DomainRow, 'id'> | undefined;
  return row?.id ?? null;
}

/** The team's domain a sender's address names (case-insensitive), a verified one first; null when it has none. */
export function senderDomain(ctx: Emulator, teamId: string, name: string): Pick<DomainRow, 'id' | 'status'> | null {
  const row = ctx.db
    .prepare(`SELECT id, status FROM domains WHERE team_id = ? AND lower(name) = ? ORDER BY (status = 'verified') DESC LIMIT 1`)
    .get(teamId, name.toLowerCase()) as Pick<DomainRow, 'id' | 'status'> | undefined;
  return row ?? null;
}

/** The name of the domain with this id (any team), or null. */
export function domainNameOf(ctx: Emulator, id: string): string | null {
  const row = ctx.db.prepare('SELECT name FROM domains WHERE id = ?').get(id) as Pick<DomainRow, 'name'> | undefined;
  return row?.name ?? null;
}

/** The team's domains, id → name. */
export function domainNamesOf(ctx: Emulator, teamId: string): Map<string, string> {
  return new Map((ctx.db.prepare('SELECT id, name FROM domains WHERE team_id = ?').all(teamId) as Pick<DomainRow, 'id' | 'name'>[]).map((d) => [d.id, d.name]));
}

/**
 * The team that receives mail for `domain` (case-insensitive exact name):
 * a domain row with `capabilities.receiving = "enabled"` (docs/reference/interface-spec.md#domain:
 * capabilities); a verified one wins over others, then the oldest.
 * Verification is not required (mail follows the MX record, not the
 * dashboard status). `null` when no team receives for it.
 */
export function receivingTeamOf(ctx: Emulator, domain: string): string | null {
  const rows = ctx.db
    .prepare('SELECT team_id, status, capabilities FROM domains WHERE name = ? ORDER BY seq')
    .all(domain.toLowerCase()) as Pick<DomainRow, 'team_id' | 'status' | 'capabilities'>[];
  const receiving = rows.filter((r) => JSON.parse(r.capabilities)?.receiving === 'enabled');
  const pick = receiving.find((r) => r.status === 'verified') ?? receiving[0];
  return pick?.team_id ?? null;
}

/** Body of POST /domains and POST /domains/claim (`CreateDomainBody` of spec/paths/domains.yaml). */
export type CreateDomainBody = SchemaOf<'CreateDomainBody'>;

/** Capabilities with defaults; 422 when none is enabled (docs/reference/interface-spec.md#errors 3). */
export function resolveCapabilities(c: CreateDomainBody['capabilities']) {
  const capabilities = { sending: c?.sending ?? 'enabled', receiving: c?.receiving ?? 'disabled' } as const;
  if (capabilities.sending === 'disabled' && capabilities.receiving === 'disabled') {
    throw domainMessages.noCapability();
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
  const row: Omit<DomainRow, 'seq'> = {
    id,
    team_id: teamId,
    name: body.name.toLowerCase(),
    status: extra.status ?? 'not_started',
    region: body.region ?? 'us-east-1',
    capabilities: JSON.stringify(capabilities),
    open_tracking: body.open_tracking ? 1 : 0,
    click_tracking: body.click_tracking ? 1 : 0,
    tracking_subdomain: body.tracking_subdomain ?? null,
    custom_return_path: body.custom_return_path ?? 'send',
    tls: body.tls ?? 'opportunistic',
    dkim_value: extra.dkim_value ?? newDkimValue(),
    created_at: extra.created_at ?? ctx.clock.nowMs(),
  };
  ctx.db.prepare(INSERT_DOMAIN.sql).run(...INSERT_DOMAIN.params(row));
  return domainById(ctx, id)!;
}

/**
 * 403 `validation_error` if another team verified `name`, or this team
 * already has it (docs/reference/errors.md#error-names-and-statuses; docs/reference/interface-spec.md#errors 5).
 */
export function assertNameAvailable(ctx: Emulator, teamId: string, name: string): void {
  const taken = ctx.db
    .prepare(`SELECT id FROM domains WHERE name = ? AND (team_id = ? OR status = 'verified')`)
    .get(name.toLowerCase(), teamId);
  if (taken) throw domainMessages.registeredAlready(name.toLowerCase());
}

/** A page of the team's domains (`paginateTeam` options but the table). */
export const pageDomains = teamPager<DomainRow>('domains');

/** The domain with this id (any team), or undefined. */
export function domainById(ctx: Emulator, id: string): DomainRow | undefined {
  return ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(id) as DomainRow | undefined;
}

/** Sets a domain's tracking, TLS and capabilities (JSON text) columns. */
export function updateDomainSettings(
  ctx: Emulator,
  id: string,
  d: Pick<DomainRow, 'open_tracking' | 'click_tracking' | 'tls' | 'capabilities' | 'tracking_subdomain'>,
): void {
  ctx.db
    .prepare('UPDATE domains SET open_tracking = ?, click_tracking = ?, tls = ?, capabilities = ?, tracking_subdomain = ? WHERE id = ?')
    .run(d.open_tracking, d.click_tracking, d.tls, d.capabilities, d.tracking_subdomain, id);
}

/** Deletes a domain row (the caller raises `domain.deleted` and cancels its claims in the same transaction). */
export function deleteDomain(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM domains WHERE id = ?').run(id);
}

/** The verified domains named `name` of other teams than `teamId`. */
export function verifiedElsewhere(ctx: Emulator, teamId: string, name: string): DomainRow[] {
  return ctx.db.prepare(`SELECT * FROM domains WHERE name = ? AND team_id <> ? AND status = 'verified'`).all(name, teamId) as DomainRow[];
}

/** A claimed placeholder gets a new DKIM key and starts over (`not_started`). */
export function resetClaimedDomain(ctx: Emulator, id: string): void {
  ctx.db.prepare(`UPDATE domains SET dkim_value = ?, status = 'not_started' WHERE id = ?`).run(newDkimValue(), id);
}

/** Inserts a `pending` claim of `domain` for `teamId` (times in emulated ms) and returns it. */
export function insertClaim(ctx: Emulator, c: { teamId: string; domain: DomainRow; recordValue: string; createdAt: number; expiresAt: number }): ClaimRow {
  const id = newId();
  ctx.db.prepare(INSERT_CLAIM.sql).run(...INSERT_CLAIM.params({
    id,
    team_id: c.teamId,
    domain_id: c.domain.id,
    name: c.domain.name,
    status: 'pending',
    region: c.domain.region,
    record_value: c.recordValue,
    created_at: c.createdAt,
    expires_at: c.expiresAt,
  }));
  return claimById(ctx, id)!;
}

/** The claim with this id, or undefined. */
export function claimById(ctx: Emulator, id: string): ClaimRow | undefined {
  return ctx.db.prepare('SELECT * FROM domain_claims WHERE id = ?').get(id) as ClaimRow | undefined;
}

/** The domain's latest claim, or undefined. */
export function latestClaimRow(ctx: Emulator, domainId: string): ClaimRow | undefined {
  return ctx.db.prepare('SELECT * FROM domain_claims WHERE domain_id = ? ORDER BY seq DESC LIMIT 1').get(domainId) as ClaimRow | undefined;
}

/** Sets a claim's status and failure reason. */
export function setClaimStatus(ctx: Emulator, id: string, status: string, failureReason: string | null): void {
  ctx.db.prepare('UPDATE domain_claims SET status = ?, failure_reason = ? WHERE id = ?').run(status, failureReason, id);
}

/** A deleted domain's pending claims are `canceled`. */
export function cancelPendingClaims(ctx: Emulator, domainId: string): void {
  ctx.db.prepare(`UPDATE domain_claims SET status = 'canceled' WHERE domain_id = ? AND status = 'pending'`).run(domainId);
}

/** A claim still `pending` is `expired`. */
export function expirePendingClaim(ctx: Emulator, id: string): void {
  ctx.db.prepare(`UPDATE domain_claims SET status = 'expired' WHERE id = ? AND status = 'pending'`).run(id);
}

/** How many domains the team has (GET /usage `domains.used`). */
export function countDomains(ctx: Emulator, teamId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM domains WHERE team_id = ?').get(teamId) as { n: number }).n;
}
