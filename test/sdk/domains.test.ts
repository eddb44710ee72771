/**
 * The official SDK's camelCase domain options reach the emulator under their
 * snake_case names (domains.create, domains.update, domains.claims.create),
 * and come back in the returned data.
 */
import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';

describe('SDK: resend.domains options', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('create and update map every camelCase option', async () => {
    const resend = sdk();
    const created = await resend.domains.create({
      name: 'opts.dev', region: 'eu-west-1', customReturnPath: 'bounces', openTracking: true, clickTracking: true,
      tls: 'enforced', capabilities: { sending: 'enabled', receiving: 'enabled' }, trackingSubdomain: 'links',
    });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({
      object: 'domain', name: 'opts.dev', status: 'not_started', region: 'eu-west-1',
      capabilities: { sending: 'enabled', receiving: 'enabled' }, open_tracking: true, click_tracking: true, tracking_subdomain: 'links',
    });
    const records = created.data!.records.map((r) => [r.record, r.name, r.type]);
    expect(records).toEqual([
      ['SPF', 'bounces', 'MX'], ['SPF', 'bounces', 'TXT'], ['DKIM', 'resend._domainkey', 'TXT'],
      ['Receiving', '@', 'MX'], ['Tracking', 'links', 'CNAME'],
    ]);
    expect(created.data!.records[0].value).toBe('feedback-smtp.eu-west-1.amazonses.com');

    const id = created.data!.id;
    const updated = await resend.domains.update({ id, openTracking: false, capabilities: { receiving: 'disabled' }, trackingSubdomain: 'clicks' });
    expect(updated.data).toEqual({ object: 'domain', id });
    const got = await resend.domains.get(id);
    expect(got.data).toMatchObject({ open_tracking: false, click_tracking: true, capabilities: { sending: 'enabled', receiving: 'disabled' }, tracking_subdomain: 'clicks' });
    expect(got.data!.records.map((r) => r.record)).toEqual(['SPF', 'SPF', 'DKIM', 'Tracking']);
    expect(got.data!.records[3].name).toBe('clicks');
  });

  it('claims.create maps region and the tracking options', async () => {
    const resend = sdk();
    const claim = await resend.domains.claims.create({ name: 'claimable.dev', region: 'eu-west-1', customReturnPath: 'rp', openTracking: true, trackingSubdomain: 'trk' });
    expect(claim.error).toBeNull();
    expect(claim.data).toMatchObject({ object: 'domain_claim', name: 'claimable.dev', status: 'pending', region: 'eu-west-1', record: { type: 'TXT', name: '_resend' } });
    const domain = await resend.domains.get(claim.data!.domain_id!);
    expect(domain.data).toMatchObject({ name: 'claimable.dev', region: 'eu-west-1', open_tracking: true, tracking_subdomain: 'trk' });
  });
});
