/**
 * The DNS records of a domain, as the real service makes them 
 * (docs/reference/resources.md#domains-and-claims; docs/reference/interface-spec.md#domain):
 * - SPF: MX `send` → `feedback-smtp.<region>.amazonses.com` (priority 10) and
 *   TXT `send` = `"v=spf1 include:amazonses.com ~all"` (`send` is
 *   `custom_return_path`), when sending is enabled;
 * - DKIM: TXT `resend._domainkey` = `p=<public key>` (new key per domain,
 *   and per completed claim);
 * - Receiving: MX `@` → `inbound-smtp.<region>.amazonaws.com` (10), when
 *   receiving is enabled;
 * - Tracking: CNAME `<tracking_subdomain>` → `links1.resend-dns.com`, when set.
 * `ttl` is always `Auto`; `status` follows the domain's verification.
 */
import { randomBytes } from 'node:crypto';
import type { SchemaOf } from '../../http/document-types.js';

/** A DNS record as returned by the API (the document's `DnsRecord`). */
export type DnsRecord = SchemaOf<'DnsRecord'>;

/** Inputs that shape the records. */
export interface RecordInputs {
  region: string;
  customReturnPath: string;
  capabilities: { sending: 'enabled' | 'disabled'; receiving: 'enabled' | 'disabled' };
  trackingSubdomain: string | null;
  /** The DKIM public key value `p=…` (see `newDkimValue`). */
  dkimValue: string;
  status: DnsRecord['status'];
}

/** A fresh DKIM public-key value: `p=` + base64 of 162 random bytes (RSA-1024 SubjectPublicKeyInfo size). */
export function newDkimValue(): string {
  return `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${randomBytes(120).toString('base64')}IDAQAB`;
}

/** Builds the record list in the service's order: SPF MX, SPF TXT, DKIM, Receiving, Tracking. */
export function buildRecords(i: RecordInputs): DnsRecord[] {
  const out: DnsRecord[] = [];
  if (i.capabilities.sending === 'enabled') {
    out.push({ record: 'SPF', name: i.customReturnPath, type: 'MX', value: `feedback-smtp.${i.region}.amazonses.com`, ttl: 'Auto', status: i.status, priority: 10 });
    out.push({ record: 'SPF', name: i.customReturnPath, type: 'TXT', value: '"v=spf1 include:amazonses.com ~all"', ttl: 'Auto', status: i.status });
  }
  out.push({ record: 'DKIM', name: 'resend._domainkey', type: 'TXT', value: i.dkimValue, ttl: 'Auto', status: i.status });
  if (i.capabilities.receiving === 'enabled') {
    out.push({ record: 'Receiving', name: '@', type: 'MX', value: `inbound-smtp.${i.region}.amazonaws.com`, ttl: 'Auto', status: i.status, priority: 10 });
  }
  if (i.trackingSubdomain) {
    out.push({ record: 'Tracking', name: i.trackingSubdomain, type: 'CNAME', value: 'links1.resend-dns.com', ttl: 'Auto', status: i.status });
  }
  return out;
}
