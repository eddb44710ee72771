/**
 * The user story of the walking skeleton, with the official SDK against
 * startServer(): API keys, a domain verified on the emulated clock, and its
 * domain.updated deliveries.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { startServer, type EmulatorServer } from '../../src/index.js';

describe('SDK: API keys and domains end to end', () => {
  let emu: EmulatorServer;
  let resend: Resend;
  beforeEach(async () => {
    emu = await startServer({ validateResponses: true });
    resend = new Resend(emu.apiKey, { baseUrl: emu.url });
  });
  afterEach(() => emu.close());

  it('creates and lists API keys', async () => {
    const created = await resend.apiKeys.create({ name: 'ci', permission: 'sending_access' });
    expect(created.error).toBeNull();
    expect(created.data!.token).toMatch(/^re_/);
    const list = await resend.apiKeys.list();
    expect(list.error).toBeNull();
    expect(list.data!.data.map((k) => k.name)).toContain('ci');
    const removed = await resend.apiKeys.remove(created.data!.id);
    expect(removed.error).toBeNull();
    expect(removed.data).toMatchObject({ id: created.data!.id, deleted: true });
  });

  it('creates a domain, verifies it on the clock, and records domain.updated', async () => {
    const hook = await resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: ['domain.updated'] });
    expect(hook.error).toBeNull();
    const created = await resend.domains.create({ name: 'acme.io' });
    expect(created.error).toBeNull();
    expect(created.data!.records.map((r) => r.record)).toEqual(['SPF', 'SPF', 'DKIM']);
    const verify = await resend.domains.verify(created.data!.id);
    expect(verify.data).toEqual({ object: 'domain', id: created.data!.id });
    expect((await resend.domains.get(created.data!.id)).data!.status).toBe('pending');

    const advanced = await fetch(`${emu.url}/_emulator/clock/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 60_000 }),
    });
    expect(advanced.status).toBe(200);

    const list = await resend.domains.list();
    expect(list.data!.data.find((d) => d.id === created.data!.id)!.status).toBe('verified');

    const res = await fetch(`${emu.url}/_emulator/webhook-deliveries?event_type=domain.updated`);
    const deliveries = (await res.json()).data;
    expect(deliveries.map((d: any) => d.payload.data.status)).toEqual(['pending', 'verified']);
    expect(deliveries[0].webhook_id).toBe(hook.data!.id);
  });

  it('surfaces API errors to the SDK caller unchanged', async () => {
    const res = await resend.domains.create({ name: 'claimable.dev' });
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ statusCode: 403, name: 'validation_error', message: 'The `claimable.dev` domain has been registered already.' });
    const missing = await resend.domains.get('00000000-0000-4000-8000-000000000000');
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('claims a domain through the SDK and completes it on the clock', async () => {
    const claim = await resend.domains.claims.create({ name: 'claimable.dev' });
    expect(claim.error).toBeNull();
    expect(claim.data!).toMatchObject({ object: 'domain_claim', name: 'claimable.dev', status: 'pending' });
    const domainId = claim.data!.domain_id!;
    expect((await resend.domains.claims.get(domainId)).data!.id).toBe(claim.data!.id);
    expect((await resend.domains.claims.verify(domainId)).data!.status).toBe('pending');
    await emu.clock.advance('5s');
    expect((await resend.domains.claims.get(domainId)).data!.status).toBe('completed');
  });

  it('updates and removes a domain through the SDK', async () => {
    const created = await resend.domains.create({ name: 'acme.io' });
    const updated = await resend.domains.update({ id: created.data!.id, openTracking: true, clickTracking: true });
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual({ object: 'domain', id: created.data!.id });
    const got = await resend.domains.get(created.data!.id);
    expect(got.data).toMatchObject({ open_tracking: true, click_tracking: true });
    const removed = await resend.domains.remove(created.data!.id);
    expect(removed.data).toEqual({ object: 'domain', id: created.data!.id, deleted: true });
  });
});
