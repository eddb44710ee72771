/**
 * The official SDK's webhooks methods against the emulator: create, get,
 * list, update, remove, rotateSigningSecret, events.list/get/replay,
 * events.attempts.list and verify().
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

describe('SDK webhooks', () => {
  const emu = useEmulator({ validateResponses: true });

  it('manages a webhook', async () => {
    const resend = new Resend(emu.server.apiKey, { baseUrl: emu.server.url });
    const created = await resend.webhooks.create({ endpoint: 'https://hooks.example.com/a', events: ['email.sent', 'email.bounced'] });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    const got = await resend.webhooks.get(id);
    expect(got.data).toMatchObject({ object: 'webhook', id, status: 'enabled', endpoint: 'https://hooks.example.com/a', events: ['email.sent', 'email.bounced'], signing_secret: created.data!.signing_secret });
    const list = await resend.webhooks.list();
    expect(list.data!.data.map((w) => w.id)).toEqual([id]);
    const upd = await resend.webhooks.update(id, { status: 'disabled', events: ['email.delivered'] });
    expect(upd.data).toEqual({ object: 'webhook', id });
    expect((await resend.webhooks.get(id)).data).toMatchObject({ status: 'disabled', events: ['email.delivered'] });
    const rot = await resend.webhooks.rotateSigningSecret(id);
    expect(rot.data).toEqual({ object: 'webhook', id, signing_secret: expect.stringMatching(/^whsec_/) });
    const bad = await resend.webhooks.create({ endpoint: 'nope', events: ['email.sent'] });
    expect(bad.data).toBeNull();
    expect(bad.error).toMatchObject({ statusCode: 422, name: 'invalid_parameter' });
    const del = await resend.webhooks.remove(id);
    expect(del.data).toEqual({ object: 'webhook', id, deleted: true });
    expect((await resend.webhooks.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('lists, gets and replays events and lists attempts; verify() accepts each delivery', async () => {
    let status = 500;
    rx = await startReceiver(() => status);
    const resend = new Resend(emu.server.apiKey, { baseUrl: emu.server.url });
    const { data: hook } = await resend.webhooks.create({ endpoint: rx.url, events: ['domain.created'] });
    await resend.domains.create({ name: 'sdk-events.dev' });
    await emu.server.clock.advance(0);

    const events = await resend.webhooks.events.list({ webhookId: hook!.id });
    expect(events.error).toBeNull();
    expect(events.data!.data).toHaveLength(1);
    const ev = events.data!.data[0];
    expect(ev).toMatchObject({ type: 'domain.created', status: 'attempting' });

    const one = await resend.webhooks.events.get({ webhookId: hook!.id, eventId: ev.id });
    expect(one.data).toMatchObject({ object: 'webhook_event', id: ev.id, type: 'domain.created', status: 'attempting' });
    expect(one.data!.payload).toEqual(JSON.parse(rx.requests[0].body));

    status = 200;
    const replayed = await resend.webhooks.events.replay({ webhookId: hook!.id, eventId: ev.id });
    expect(replayed.data).toEqual({ object: 'webhook_event', id: ev.id });
    await emu.server.clock.advance(0);
    expect(rx.requests).toHaveLength(2);
    const attempts = await resend.webhooks.events.attempts.list({ webhookId: hook!.id, eventId: ev.id });
    expect(attempts.data!.data.map((a) => a.http_status_code)).toEqual([200, 500]);
    expect((await resend.webhooks.events.get({ webhookId: hook!.id, eventId: ev.id })).data!.status).toBe('success');

    for (const r of rx.requests) {
      expect(r.headers['svix-id']).toBe(ev.id);
      expect(resend.webhooks.verify(verifyInput(r, hook!.signing_secret))).toMatchObject({ type: 'domain.created' });
    }
  });
});
