import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { schedulerOf, storeOf } from '../../../src/internals.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const FIXTURE_EVENT = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';

describe('event definitions', () => {
  const t = useFreshEmulatorPerTest();

  it('creates and gets by id or URL-encoded name', async () => {
    const res = await t.api.post('/events').send({ name: 'order placed/eu', schema: { amount: 'number', at: 'date', gift: 'boolean', sku: 'string' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'event', id: expect.any(String) });
    const byId = await t.api.get(`/events/${res.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      object: 'event',
      id: res.body.id,
      name: 'order placed/eu',
      schema: { amount: 'number', at: 'date', gift: 'boolean', sku: 'string' },
      created_at: expect.stringMatching(TS),
      updated_at: expect.stringMatching(TS),
    });
    const byName = await t.api.get(`/events/${encodeURIComponent('order placed/eu')}`);
    expect(byName.body).toEqual(byId.body);
  });

  it('defaults schema to null', async () => {
    const res = await t.api.post('/events').send({ name: 'plain' });
    expect((await t.api.get('/events/plain')).body.schema).toBeNull();
    expect(res.status).toBe(201);
  });

  it('rejects the resend: prefix, a taken name, unknown schema types and a missing name', async () => {
    const prefixed = await t.api.post('/events').send({ name: 'resend:email.sent' });
    expect(prefixed.status).toBe(422);
    expect(prefixed.body.name).toBe('validation_error');
    expect(prefixed.body.message).toContain('resend:');
    const taken = await t.api.post('/events').send({ name: 'user.signed_up' });
    expect(taken.status).toBe(422);
    expect(taken.body.name).toBe('validation_error');
    const badType = await t.api.post('/events').send({ name: 'x', schema: { a: 'integer' } });
    expect(badType.status).toBe(400);
    expect(badType.body.name).toBe('validation_error');
    const noName = await t.api.post('/events').send({});
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
  });

  it('lists newest first with the list fields, 20 by default', async () => {
    for (let i = 0; i < 20; i++) await t.api.post('/events').send({ name: `e${i}` });
    const res = await t.api.get('/events');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.has_more).toBe(true);
    expect(res.body.data[0].name).toBe('e19');
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['created_at', 'id', 'name', 'schema', 'updated_at']);
    const last = await t.api.get(`/events?after=${res.body.data[19].id}`);
    expect(last.body.data.map((e: any) => e.id)).toEqual([FIXTURE_EVENT]);
  });

  it('updates the schema (required; null clears) by id or name', async () => {
    const missing = await t.api.patch('/events/user.signed_up').send({});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ statusCode: 422, message: 'Missing `schema` field.', name: 'missing_required_field' });
    await t.emu.clock.advance('1m');
    const upd = await t.api.patch('/events/user.signed_up').send({ schema: { plan: 'string', seats: 'number' } });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'event', id: FIXTURE_EVENT });
    const got = (await t.api.get(`/events/${FIXTURE_EVENT}`)).body;
    expect(got.schema).toEqual({ plan: 'string', seats: 'number' });
    expect(got.updated_at).not.toBe(got.created_at);
    await t.api.patch(`/events/${FIXTURE_EVENT}`).send({ schema: null });
    expect((await t.api.get('/events/user.signed_up')).body.schema).toBeNull();
  });

  it('removes; unknown is 404 "Event not found"', async () => {
    const del = await t.api.delete('/events/user.signed_up');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'event', id: FIXTURE_EVENT, deleted: true });
    for (const res of [await t.api.get('/events/user.signed_up'), await t.api.delete(`/events/${FIXTURE_EVENT}`), await t.api.patch('/events/nope').send({ schema: null })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Event not found', name: 'not_found' });
    }
  });

  it("never shows another team's events", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get('/events/user.signed_up')).status).toBe(404);
    expect((await other.get('/events')).body.data).toEqual([]);
    expect((await other.post('/events').send({ name: 'user.signed_up' })).status).toBe(201);
  });
});

describe('POST /events/send', () => {
  const t = useFreshEmulatorPerTest();

  /** An enabled automation triggered by `event` whose only other step waits an hour. */
  async function automation(event: string, status = 'enabled') {
    const res = await t.api.post('/automations').send({
      name: `on ${event}`,
      status,
      steps: [{ key: 'start', type: 'trigger', config: { event_name: event } }, { key: 'wait', type: 'delay', config: { duration: '1 hour' } }],
      connections: [{ from: 'start', to: 'wait' }],
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it('answers 202 {object: "event", event}', async () => {
    const res = await t.api.post('/events/send').send({ event: 'nobody.listens', email: 'ada@example.net' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ object: 'event', event: 'nobody.listens' });
  });

  it('needs exactly one of contact_id and email (422 validation_error)', async () => {
    const neither = await t.api.post('/events/send').send({ event: 'x' });
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual({ statusCode: 422, message: 'Exactly one of `contact_id` or `email` must be provided.', name: 'validation_error' });
    const both = await t.api.post('/events/send').send({ event: 'x', email: 'a@example.net', contact_id: '3f0e7c1a-1111-4222-8333-444455556666' });
    expect(both.status).toBe(422);
    expect(both.body.name).toBe('validation_error');
    expect(both.body.message).toContain('Exactly one');
    const noEvent = await t.api.post('/events/send').send({ email: 'a@example.net' });
    expect(noEvent.status).toBe(422);
    expect(noEvent.body.name).toBe('missing_required_field');
    const badEmail = await t.api.post('/events/send').send({ event: 'x', email: 'not-an-email' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.name).toBe('invalid_parameter');
  });

  it('starts a running run for each enabled automation with that trigger, right after the call', async () => {
    const on = await automation('trial.started');
    const off = await automation('trial.started', 'disabled');
    const other = await automation('trial.ended');
    const res = await t.api.post('/events/send').send({ event: 'trial.started', email: 'ada@example.net' });
    expect(res.status).toBe(202);
    const runs = (await t.api.get(`/automations/${on}/runs`)).body;
    expect(runs.data).toHaveLength(1);
    expect(runs.data[0]).toEqual({ id: expect.any(String), status: 'running', started_at: expect.stringMatching(TS), completed_at: null, created_at: expect.stringMatching(TS) });
    const run = (await t.api.get(`/automations/${on}/runs/${runs.data[0].id}`)).body;
    expect(run.object).toBe('automation_run');
    expect(run.steps).toEqual([{ key: 'start', type: 'trigger', status: 'pending', started_at: null, completed_at: null, output: null, error: null, created_at: expect.stringMatching(TS) }]);
    expect((await t.api.get(`/automations/${off}/runs`)).body.data).toEqual([]);
    expect((await t.api.get(`/automations/${other}/runs`)).body.data).toEqual([]);
    expect(schedulerOf(t.emu).pending().some((j) => j.type === 'automations.run')).toBe(true);
  });

  it('coerces the payload to the event schema and rejects what cannot be coerced', async () => {
    await t.api.post('/events').send({ name: 'order.paid', schema: { amount: 'number', gift: 'boolean', at: 'date', ref: 'string' } });
    const id = await automation('order.paid');
    const bad = await t.api.post('/events/send').send({ event: 'order.paid', email: 'a@example.net', payload: { amount: 'lots' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ statusCode: 422, message: 'The `payload.amount` field must be a number.', name: 'validation_error' });
    expect((await t.api.post('/events/send').send({ event: 'order.paid', email: 'a@example.net', payload: { at: 'yesterday-ish' } })).status).toBe(422);
    expect((await t.api.get(`/automations/${id}/runs`)).body.data).toEqual([]);
    const ok = await t.api.post('/events/send').send({ event: 'order.paid', email: 'a@example.net', payload: { amount: '12.5', gift: 'true', at: '2026-02-01', ref: 42, extra: 'kept' } });
    expect(ok.status).toBe(202);
    const row = storeOf(t.emu).prepare('SELECT event_payload FROM automation_runs WHERE automation_id = ?').get(id) as { event_payload: string };
    expect(JSON.parse(row.event_payload)).toEqual({ amount: 12.5, gift: true, at: '2026-02-01T00:00:00.000Z', ref: '42', extra: 'kept' });
  });

  it('leaves a payload unchecked when the event has no definition', async () => {
    const id = await automation('free.form');
    expect((await t.api.post('/events/send').send({ event: 'free.form', email: 'a@example.net', payload: { anything: { nested: [1] } } })).status).toBe(202);
    expect((await t.api.get(`/automations/${id}/runs`)).body.data).toHaveLength(1);
  });
});
