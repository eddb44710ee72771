/**
 * Domain rows, their API shapes and their events.
 */
import type { Emulator } from '../../context.js';
import { apiTime, isoTime } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { emitEvent } from '../../webhooks/events.js';
import { buildRecords, type DnsRecord } from './records.js';

/** A `domains` row. Times in emulated ms; JSON columns as text. */
export interface DomainRow {
  seq: number;
  id: string;
  team_id: string;
  name: string;
  status: string;
  region: string;
  capabilities: string;
  open_tracking: number;
  click_tracking: number;
  tracking_subdomain: string | null;
  custom_return_path: string;
  tls: string;
  dkim_value: string;
  created_at: number;
}

/** A `domain_claims` row (src/resources/domains/claims.ts). */
export interface ClaimRow {
  seq: number;
  id: string;
  team_id: string;
  domain_id: string;
  name: string;
  status: string;
  region: string;
  record_value: string;
  blocked_reason: string | null;
  failure_reason: string | null;
  created_at: number;
  expires_at: number;
}

/** Capabilities object of a row. */
export function capabilitiesOf(row: DomainRow): { sending: 'enabled' | 'disabled'; receiving: 'enabled' | 'disabled' } {
  return JSON.parse(row.capabilities);
}

/**
 * The record status shown for a domain status: records of a `verified` domain
 * are `verified`, of a `failed` one `failed`, of a `pending` one `pending`,
 * otherwise `not_started`.
 */
export function recordStatus(domainStatus: string): string {
  return ['verified', 'failed', 'pending'].includes(domainStatus) ? domainStatus : 'not_started';
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

/** The single-domain shape (GET /domains/{id}, POST /domains). */
export function toDomain(row: DomainRow) {
  return {
    object: 'domain',
    ...toDomainListItem(row),
    open_tracking: Boolean(row.open_tracking),
    click_tracking: Boolean(row.click_tracking),
    tracking_subdomain: row.tracking_subdomain,
    records: recordsOf(row),
  };
}

/** The list item shape (interface-spec "Domain": id, name, status, created_at, region, capabilities). */
export function toDomainListItem(row: DomainRow) {
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
  const row = ctx.db.prepare('SELECT * FROM domains WHERE id = ? AND team_id = ?').get(id, teamId) as DomainRow | undefined;
  if (!row) throw errors.notFound('Domain');
  return row;
}

/** Raises `domain.created|updated|deleted` with the webhook `data` of API-FACTS §6. */
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
 * (interface-spec "Domain": events as the status changes).
 */
export function setDomainStatus(ctx: Emulator, id: string, status: string): void {
  const row = ctx.db.prepare('SELECT * FROM domains WHERE id = ?').get(id) as DomainRow | undefined;
  if (!row || row.status === status) return;
  ctx.db.prepare('UPDATE domains SET status = ? WHERE id = ?').run(status, id);
  emitDomainEvent(ctx, 'domain.updated', { ...row, status });
}

/**
 * The emulator's naming rule for outcomes (README "Outcomes"): a domain whose
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
