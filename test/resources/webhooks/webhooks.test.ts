/**
 * /webhooks endpoints over HTTP: CRUD, validation errors in the service's
 * shape, team isolation, rotation, and the events/attempts/replay
 * operations backed by the deliveries table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { startReceiver, type Receiver } from '../../deliveries/receiver.js';
import { deliver } from '../../../src/deliveries/jobs.js';
import { contextOf } from '../../../src/internals.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function create(t: TestEmulator, body: Record<string, unknown> = { endpoint: 'https://hooks.example.com/resend', events: ['email.sent'] }) {
  return (await t.api.post('/webhooks').send(body).expect(201)).body as { object: string; id: string; signing_secret: string };
}

describe('webhooks CRUD', () => {
  const t = useFreshEmulatorPerTest();

  it('creates, gets, lists, updates and removes a webhook', async () => {
    const c = await create(t, { endpoint: 'https://hooks.example.com/resend', events: ['email.sent', 'email.sent', 'domain.updated'] });
    expect(c.object).toBe('webhook');
    expect(c.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(c.signing_secret.slice(6), 'base64')).toHaveLength(24);

    const got = (await t.api.get(`/webhooks/${c.id}`).expect(200)).body;
    expect(got).toMatchObject({ object: 'webhook', id: c.id, status: 'enabled', endpoint: 'https://hooks.example.com/resend', events: ['email.sent', 'domain.updated'], signing_secret: c.signing_secret });

    const list = (await t.api.get('/webhooks').expect(200)).body;
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).not.toHaveProperty('signing_secret');
    expect(list.data[0]).not.toHaveProperty('object');

    const up = (await t.api.patch(`/webhooks/${c.id}`).send({ endpoint: 'http://127.0.0.1:9/x', events: ['topic.created'], status: 'disabled' }).expect(200)).body;
    expect(up).toEqual({ object: 'webhook', id: c.id });
    const after = (await t.api.get(`/webhooks/${c.id}`).expect(200)).body;
    expect(after).toMatchObject({ endpoint: 'http://127.0.0.1:9/x', events: ['topic.created'], status: 'disabled', signing_secret: c.signing_secret });

    expect((await t.api.delete(`/webhooks/${c.id}`).expect(200)).body).toEqual({ object: 'webhook', id: c.id, deleted: true });
    const gone = await t.api.get(`/webhooks/${c.id}`).expect(404);
    expect(gone.body).toEqual({ statusCode: 404, message: 'Webhook not found', name: 'not_found' });
  });

  it('lists newest first, all when limit is omitted, paged with limit', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(t)).id);
    const all = (await t.api.get('/webhooks').expect(200)).body;
    expect(all.data.map((w: any) => w.id)).toEqual([...ids].reverse());
    const page = (await t.api.get('/webhooks?limit=2').expect(200)).body;
    expect(page.has_more).toBe(true);
    const next = (await t.api.get(`/webhooks?limit=2&after=${page.data[1].id}`).expect(200)).body;
    expect(next.data.map((w: any) => w.id)).toEqual([ids[0]]);
  });

  it('keeps teams apart', async () => {
    const c = await create(t);
    const other = t.as(FIXTURES.secondTeamKey);
    await other.get(`/webhooks/${c.id}`).expect(404);
    await other.patch(`/webhooks/${c.id}`).send({ status: 'disabled' }).expect(404);
    await other.delete(`/webhooks/${c.id}`).expect(404);
    await other.post(`/webhooks/${c.id}/signing-secret/rotate`).expect(404);
    await other.get(`/webhooks/${c.id}/events`).expect(404);
    expect((await other.get('/webhooks').expect(200)).body.data).toEqual([]);
  });

  it('rotates the signing secret', async () => {
    const c = await create(t);
    const r = (await t.api.post(`/webhooks/${c.id}/signing-secret/rotate`).expect(200)).body;
    expect(r).toEqual({ object: 'webhook', id: c.id, signing_secret: expect.stringMatching(/^whsec_/) });
    expect(r.signing_secret).not.toBe(c.signing_secret);
    expect((await t.api.get(`/webhooks/${c.id}`).expect(200)).body.signing_secret).toBe(r.signing_secret);
  });
});

describe('webhooks validation', () => {
  const t = useFreshEmulatorPerTest();

  it.each([
    ['not a url', 'not a url'],
    ['ftp scheme', 'ftp://files.example.com/x'],
    ['no host', 'http://'],
    ['relative', '/hooks'],
    ['credentials', 'https://user:pw@hooks.example.com/x'],
    ['a number', 42],
  ])('rejects a bad endpoint (%s) with 422 invalid_parameter', async (_label, endpoint) => {
    const res = await t.api.post('/webhooks').send({ endpoint, events: ['email.sent'] }).expect(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'invalid_parameter', message: expect.stringContaining('`endpoint`') });
  });

  it('rejects unknown event types, empty or missing events', async () => {
    const unknown = await t.api.post('/webhooks').send({ endpoint: 'https://h.example.com', events: ['email.sent', 'email.exploded'] }).expect(422);
    expect(unknown.body).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(unknown.body.message).toContain('`events[1]`');
    expect(unknown.body.message).toContain('email.delivered');
    const empty = await t.api.post('/webhooks').send({ endpoint: 'https://h.example.com', events: [] }).expect(422);
    expect(empty.body).toMatchObject({ name: 'validation_error', message: 'The `events` field must be a non-empty array of webhook event types.' });
    const missing = await t.api.post('/webhooks').send({ endpoint: 'https://h.example.com' }).expect(422);
    expect(missing.body).toEqual({ statusCode: 422, name: 'missing_required_field', message: 'Missing `events` field.' });
    const noEndpoint = await t.api.post('/webhooks').send({ events: ['email.sent'] }).expect(422);
    expect(noEndpoint.body).toEqual({ statusCode: 422, name: 'missing_required_field', message: 'Missing `endpoint` field.' });
    expect((await t.api.get('/webhooks').expect(200)).body.data).toEqual([]);
  });

  it('validates updates the same way and leaves the webhook unchanged', async () => {
    const c = await create(t);
    await t.api.patch(`/webhooks/${c.id}`).send({ endpoint: 'mailto:x@example.com' }).expect(422);
    await t.api.patch(`/webhooks/${c.id}`).send({ events: ['nope'] }).expect(422);
    const bad = await t.api.patch(`/webhooks/${c.id}`).send({ status: 'paused' }).expect(400);
    expect(bad.body.name).toBe('validation_error');
    const got = (await t.api.get(`/webhooks/${c.id}`).expect(200)).body;
    expect(got).toMatchObject({ endpoint: 'https://hooks.example.com/resend', events: ['email.sent'], status: 'enabled' });
  });

  it('answers 422 for a non-UUID webhook id', async () => {
    const res = await t.api.get('/webhooks/not-a-uuid').expect(422);
    expect(res.body.name).toBe('invalid_parameter');
  });
});

describe('webhook events (deliveries through the API)', () => {
  const t = useFreshEmulatorPerTest();

  async function setup(respond: () => number) {
    const rx = await startReceiver(respond);
    receivers.push(rx);
    const c = await create(t, { endpoint: rx.url, events: ['domain.created'] });
    await t.api.post('/domains').send({ name: 'events-a.dev' }).expect(201);
    await t.api.post('/domains').send({ name: 'events-b.dev' }).expect(201);
    return { rx, c };
  }

  it('lists events newest first with their status, gets one with its payload', async () => {
    const { c } = await setup(() => 500);
    let list = (await t.api.get(`/webhooks/${c.id}/events`).expect(200)).body;
    expect(list.data.map((e: any) => e.status)).toEqual(['pending', 'pending']);
    await t.emu.clock.advance(0);
    list = (await t.api.get(`/webhooks/${c.id}/events`).expect(200)).body;
    expect(list.data.map((e: any) => e.status)).toEqual(['attempting', 'attempting']);
    expect(list.data[0]).toEqual({ id: expect.stringMatching(/^msg_/), type: 'domain.created', created_at: expect.any(String), status: 'attempting' });
    const [newest, oldest] = list.data;
    const delivered = t.emu.webhookDeliveries();
    expect(delivered.map((d) => d.id)).toEqual([oldest.id, newest.id]);

    const ev = (await t.api.get(`/webhooks/${c.id}/events/${oldest.id}`).expect(200)).body;
    expect(ev).toMatchObject({ object: 'webhook_event', id: oldest.id, type: 'domain.created', status: 'attempting', payload: delivered[0].payload });
    expect(ev.payload.data.name).toBe('events-a.dev');
    expect(ev.next_attempt_at).toMatch(/\+00$/);

    const page = (await t.api.get(`/webhooks/${c.id}/events?limit=1`).expect(200)).body;
    expect(page).toMatchObject({ has_more: true, data: [{ id: newest.id }] });
    const page2 = (await t.api.get(`/webhooks/${c.id}/events?limit=1&after=${newest.id}`).expect(200)).body;
    expect(page2).toMatchObject({ has_more: false, data: [{ id: oldest.id }] });

    await t.api.get(`/webhooks/${c.id}/events/msg_doesnotexist`).expect(404);
  });

  it('reports a pending event whose only attempt was a failed replay as attempting', async () => {
    const { rx, c } = await setup(() => 500);
    const [, ev] = (await t.api.get(`/webhooks/${c.id}/events`).expect(200)).body.data;
    expect(ev.status).toBe('pending');
    // The replay job's own work, run before the first scheduled attempt (due at the next advance).
    await deliver(contextOf(t.emu), ev.id, { replay: true });
    expect(rx.withId(ev.id)).toHaveLength(1);
    const got = (await t.api.get(`/webhooks/${c.id}/events/${ev.id}`).expect(200)).body;
    expect(got.status).toBe('attempting');
    const list = (await t.api.get(`/webhooks/${c.id}/events`).expect(200)).body;
    expect(list.data.map((e: any) => e.status)).toEqual(['pending', 'attempting']);
    // The replay was outside the schedule: the first scheduled attempt still comes, then the 5 s retry.
    await t.emu.clock.advance(0);
    expect(rx.withId(ev.id)).toHaveLength(2);
    expect(Date.parse(t.emu.webhookDeliveries().find((d) => d.id === ev.id)!.next_attempt_at!) - t.emu.clock.now().getTime()).toBe(5000);
  });

  it('lists attempts newest first and replays an event as one more attempt', async () => {
    let status = 500;
    const { rx, c } = await setup(() => status);
    await t.emu.clock.advance('5s');
    const [, ev] = (await t.api.get(`/webhooks/${c.id}/events`).expect(200)).body.data;
    const attempts = (await t.api.get(`/webhooks/${c.id}/events/${ev.id}/attempts`).expect(200)).body;
    expect(attempts.data).toHaveLength(2);
    expect(attempts.data[0]).toEqual({ id: expect.stringMatching(/^atmpt_/), http_status_code: 500, response: 'nope 500', sent_at: expect.stringMatching(/\+00$/) });

    status = 200;
    const replay = (await t.api.post(`/webhooks/${c.id}/events/${ev.id}/replay`).expect(200)).body;
    expect(replay).toEqual({ object: 'webhook_event', id: ev.id });
    const before = rx.withId(ev.id).length;
    await t.emu.clock.advance(0);
    expect(rx.withId(ev.id)).toHaveLength(before + 1);
    const got = (await t.api.get(`/webhooks/${c.id}/events/${ev.id}`).expect(200)).body;
    expect(got).toMatchObject({ status: 'success', next_attempt_at: null });
    const after = (await t.api.get(`/webhooks/${c.id}/events/${ev.id}/attempts?limit=1`).expect(200)).body;
    expect(after).toMatchObject({ has_more: true, data: [{ http_status_code: 200, response: 'ok' }] });
    // The pending retry was dropped: no further attempt.
    await t.emu.clock.advance('1d');
    expect(rx.withId(ev.id)).toHaveLength(before + 1);
  });
});
