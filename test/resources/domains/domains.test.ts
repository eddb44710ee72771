import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;

describe('domains', () => {
  const t = useFreshEmulatorPerTest();

  it('creates a domain with its DNS records, not_started', async () => {
    const res = await t.api.post('/domains').send({ name: 'acme.io' });
    expect(res.status).toBe(201);
    const d = res.body;
    expect(d).toMatchObject({ object: 'domain', name: 'acme.io', status: 'not_started', region: 'us-east-1', capabilities: { sending: 'enabled', receiving: 'disabled' }, open_tracking: false, click_tracking: false });
    expect(d).not.toHaveProperty('tracking_subdomain'); // unset: left out, as the SDK's mocks (`tracking_subdomain?: string`)
    expect(d.created_at).toMatch(TIMESTAMP);
    expect(d.records.map((r: any) => `${r.record}:${r.type}:${r.name}`)).toEqual(['SPF:MX:send', 'SPF:TXT:send', 'DKIM:TXT:resend._domainkey']);
    for (const r of d.records) expect(r).toMatchObject({ ttl: 'Auto', status: 'not_started' });
    expect(d.records[0]).toMatchObject({ value: 'feedback-smtp.us-east-1.amazonses.com', priority: 10 });
    expect(d.records[2].value).toMatch(/^p=/);
  });

  it('applies region, custom_return_path, tracking_subdomain and receiving to the records', async () => {
    const res = await t.api.post('/domains').send({
      name: 'mail.acme.io', region: 'eu-west-1', custom_return_path: 'bounces', tracking_subdomain: 'links', open_tracking: true,
      capabilities: { receiving: 'enabled' },
    });
    expect(res.status).toBe(201);
    const kinds = res.body.records.map((r: any) => `${r.record}:${r.type}:${r.name}:${r.value}`);
    expect(kinds).toContain('SPF:MX:bounces:feedback-smtp.eu-west-1.amazonses.com');
    expect(kinds).toContain('Receiving:MX:@:inbound-smtp.eu-west-1.amazonaws.com');
    expect(kinds).toContain('Tracking:CNAME:links:links1.resend-dns.com');
    expect(res.body.open_tracking).toBe(true);
    expect(res.body.tracking_subdomain).toBe('links');
  });

  it('rejects all capabilities disabled (spec Errors #3)', async () => {
    const res = await t.api.post('/domains').send({ name: 'acme.io', capabilities: { sending: 'disabled' } });
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect((await t.api.get('/domains')).body.data.map((d: any) => d.name)).not.toContain('acme.io');
  });

  it('rejects a bad name, region and missing name', async () => {
    expect((await t.api.post('/domains').send({ name: 'not a domain' })).body).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await t.api.post('/domains').send({ name: 'acme.io', region: 'mars-1' })).body).toMatchObject({ statusCode: 400, name: 'validation_error' });
    expect((await t.api.post('/domains').send({})).body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
  });

  it("refuses a domain another team verified: 403 'has been registered already' (spec Errors #5)", async () => {
    const res = await t.api.post('/domains').send({ name: FIXTURES.claimableDomain });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'The `claimable.dev` domain has been registered already.', name: 'validation_error' });
  });

  it('lists only the team\'s domains with the spec list fields', async () => {
    await t.api.post('/domains').send({ name: 'acme.io' });
    const res = await t.api.get('/domains');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((d: any) => d.name)).toEqual(['acme.io', 'example.com']);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['capabilities', 'created_at', 'id', 'name', 'region', 'status']);
    const other = await t.as(FIXTURES.secondTeamKey).get('/domains');
    expect(other.body.data.map((d: any) => d.name)).toEqual(['claimable.dev']);
  });

  it("never shows another team's domain (404)", async () => {
    const mine = await t.api.post('/domains').send({ name: 'acme.io' });
    const other = t.as(FIXTURES.secondTeamKey);
    for (const res of [
      await other.get(`/domains/${mine.body.id}`),
      await other.patch(`/domains/${mine.body.id}`).send({ open_tracking: true }),
      await other.delete(`/domains/${mine.body.id}`),
      await other.post(`/domains/${mine.body.id}/verify`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Domain not found', name: 'not_found' });
    }
  });

  it('answers 422 invalid_parameter for a malformed id', async () => {
    const res = await t.api.get('/domains/not-a-uuid');
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('invalid_parameter');
  });

  it('updates tracking and capabilities, and deletes', async () => {
    const d = (await t.api.post('/domains').send({ name: 'acme.io' })).body;
    const upd = await t.api.patch(`/domains/${d.id}`).send({ click_tracking: true, tracking_subdomain: 'track', capabilities: { receiving: 'enabled' } });
    expect(upd.body).toEqual({ object: 'domain', id: d.id });
    const got = (await t.api.get(`/domains/${d.id}`)).body;
    expect(got).toMatchObject({ click_tracking: true, tracking_subdomain: 'track', capabilities: { sending: 'enabled', receiving: 'enabled' } });
    expect(got.records.some((r: any) => r.record === 'Tracking' && r.name === 'track')).toBe(true);
    const bad = await t.api.patch(`/domains/${d.id}`).send({ capabilities: { sending: 'disabled', receiving: 'disabled' } });
    expect(bad.status).toBe(422);
    const del = await t.api.delete(`/domains/${d.id}`);
    expect(del.body).toEqual({ object: 'domain', id: d.id, deleted: true });
    expect((await t.api.get(`/domains/${d.id}`)).status).toBe(404);
  });

  it('verifies on the clock: pending at once, verified after the delay', async () => {
    const d = (await t.api.post('/domains').send({ name: 'acme.io' })).body;
    const v = await t.api.post(`/domains/${d.id}/verify`);
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ object: 'domain', id: d.id });
    let got = (await t.api.get(`/domains/${d.id}`)).body;
    expect(got.status).toBe('pending');
    expect(got.records.every((r: any) => r.status === 'pending')).toBe(true);
    await t.emu.clock.advance(4_999);
    expect((await t.api.get(`/domains/${d.id}`)).body.status).toBe('pending');
    await t.emu.clock.advance(1);
    got = (await t.api.get(`/domains/${d.id}`)).body;
    expect(got.status).toBe('verified');
    expect(got.records.every((r: any) => r.status === 'verified')).toBe(true);
  });

  it('fails verification for a name whose first label starts with "fail"', async () => {
    const d = (await t.api.post('/domains').send({ name: 'failing.example.org' })).body;
    await t.api.post(`/domains/${d.id}/verify`);
    await t.emu.clock.advance('5s');
    const got = (await t.api.get(`/domains/${d.id}`)).body;
    expect(got.status).toBe('failed');
    expect(got.records.every((r: any) => r.status === 'failed')).toBe(true);
  });

  it('re-verifying a verified domain goes back to pending (spec: any status → pending)', async () => {
    await t.api.post(`/domains/${FIXTURES.verifiedDomainId}/verify`);
    expect((await t.api.get(`/domains/${FIXTURES.verifiedDomainId}`)).body.status).toBe('pending');
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/domains/${FIXTURES.verifiedDomainId}`)).body.status).toBe('verified');
  });

  it('records domain.created / domain.updated / domain.deleted deliveries for subscribed webhooks', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hook', events: ['domain.created', 'domain.updated', 'domain.deleted'] });
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/other', events: ['email.sent'] });
    const d = (await t.api.post('/domains').send({ name: 'acme.io' })).body;
    await t.api.post(`/domains/${d.id}/verify`);
    await t.emu.clock.advance('5s');
    await t.api.delete(`/domains/${d.id}`);
    const deliveries = t.emu.webhookDeliveries();
    expect(deliveries.map((x) => `${x.event_type}:${x.payload.data.status}`)).toEqual([
      'domain.created:not_started', 'domain.updated:pending', 'domain.updated:verified', 'domain.deleted:verified',
    ]);
    const first = deliveries[0];
    expect(first.id).toMatch(/^msg_[A-Za-z0-9]{27}$/);
    expect(first.payload.type).toBe('domain.created');
    expect(first.payload.created_at).toMatch(/Z$/);
    expect(first.payload.data).toMatchObject({ id: d.id, name: 'acme.io', region: 'us-east-1' });
    expect(first.payload.data.records.length).toBe(3);
  });
});

describe('domain claims', () => {
  const t = useFreshEmulatorPerTest();

  it('claims a domain verified by another team and completes on the clock', async () => {
    const claim = await t.api.post('/domains/claim').send({ name: FIXTURES.claimableDomain });
    expect(claim.status).toBe(201);
    const c = claim.body;
    expect(c).toMatchObject({ object: 'domain_claim', name: 'claimable.dev', status: 'pending', region: 'us-east-1', blocked_reason: null, failure_reason: null });
    expect(c.record).toMatchObject({ type: 'TXT', ttl: 'Auto' });
    expect(c.record.value).toMatch(/^resend-domain-verification=[0-9a-f]{32}$/);
    expect(Date.parse(c.expires_at.replace(' ', 'T').replace('+00', 'Z')) - Date.parse(c.created_at.replace(' ', 'T').replace('+00', 'Z'))).toBe(7 * 86_400_000);

    const placeholder = (await t.api.get(`/domains/${c.domain_id}`)).body;
    expect(placeholder).toMatchObject({ name: 'claimable.dev', status: 'not_started' });
    const dkimBefore = placeholder.records.find((r: any) => r.record === 'DKIM').value;

    expect((await t.api.get(`/domains/${c.domain_id}/claim`)).body.id).toBe(c.id);
    const v = await t.api.post(`/domains/${c.domain_id}/claim/verify`);
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('pending');
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/domains/${c.domain_id}/claim`)).body.status).toBe('completed');

    const other = await t.as(FIXTURES.secondTeamKey).get('/domains');
    expect(other.body.data).toEqual([]);
    const after = (await t.api.get(`/domains/${c.domain_id}`)).body;
    expect(after.status).toBe('not_started');
    expect(after.records.find((r: any) => r.record === 'DKIM').value).not.toBe(dkimBefore);
    await t.api.post(`/domains/${c.domain_id}/verify`);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/domains/${c.domain_id}`)).body.status).toBe('verified');
  });

  it('refuses to claim a domain nobody verified, or one the team has', async () => {
    const none = await t.api.post('/domains/claim').send({ name: 'free.dev' });
    expect(none.status).toBe(422);
    expect(none.body.name).toBe('validation_error');
    const own = await t.api.post('/domains/claim').send({ name: FIXTURES.verifiedDomain });
    expect(own.status).toBe(403);
  });

  it('404s the claim of a domain without one', async () => {
    const res = await t.api.get(`/domains/${FIXTURES.verifiedDomainId}/claim`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Domain claim not found');
  });

  it('expires a claim after 7 days, and deleting the placeholder cancels it', async () => {
    const c = (await t.api.post('/domains/claim').send({ name: FIXTURES.claimableDomain })).body;
    await t.emu.clock.advance('7d');
    expect((await t.api.get(`/domains/${c.domain_id}/claim`)).body.status).toBe('expired');
    const verify = await t.api.post(`/domains/${c.domain_id}/claim/verify`);
    expect(verify.status).toBe(422);
    await t.api.delete(`/domains/${c.domain_id}`);
    const again = (await t.api.post('/domains/claim').send({ name: FIXTURES.claimableDomain })).body;
    await t.api.delete(`/domains/${again.domain_id}`);
    const row = storeOf(t.emu).prepare('SELECT status FROM domain_claims WHERE id = ?').get(again.id) as { status: string };
    expect(row.status).toBe('canceled');
  });
});
