import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

describe('suppressions', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });
  const hook = () => t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/s', events: ['suppression.added', 'suppression.removed'] });

  it('adds an address (origin manual) and raises suppression.added once', async () => {
    await hook();
    const res = await t.api.post('/suppressions').send({ email: 'Steve@Example.net' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'suppression', id: expect.any(String) });
    const again = await t.api.post('/suppressions').send({ email: 'steve@example.net' });
    expect(again.body.id).toBe(res.body.id);
    const events = t.emu.webhookDeliveries();
    expect(events.map((d) => d.event_type)).toEqual(['suppression.added']);
    expect(events[0].payload.data).toEqual({ id: res.body.id, email: 'Steve@Example.net', origin: 'manual', source_id: null, created_at: expect.stringMatching(/Z$/) });
  });

  it('rejects a missing or malformed email (422)', async () => {
    const missing = await t.api.post('/suppressions').send({});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ statusCode: 422, message: 'Missing `email` field.', name: 'missing_required_field' });
    const bad = await t.api.post('/suppressions').send({ email: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('validation_error');
  });

  it('gets and removes by id or by URL-encoded address', async () => {
    await hook();
    const a = await t.api.post('/suppressions').send({ email: 'a+tag@example.net' });
    const byEmail = await t.api.get(`/suppressions/${encodeURIComponent('a+tag@example.net')}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({ object: 'suppression', id: a.body.id, email: 'a+tag@example.net', origin: 'manual', source_id: null, created_at: expect.any(String) });
    expect((await t.api.get(`/suppressions/${a.body.id}`)).body.id).toBe(a.body.id);
    const del = await t.api.delete(`/suppressions/${encodeURIComponent('A+TAG@example.net')}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'suppression', id: a.body.id, deleted: true });
    const gone = await t.api.get(`/suppressions/${a.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ statusCode: 404, message: 'Suppression not found', name: 'not_found' });
    expect((await t.api.delete(`/suppressions/${a.body.id}`)).status).toBe(404);
    expect(t.emu.webhookDeliveries().map((d) => d.event_type)).toEqual(['suppression.added', 'suppression.removed']);
  });

  it('lists newest first and filters by origin', async () => {
    await t.api.post('/suppressions').send({ email: 'one@example.net' });
    await t.api.post('/suppressions').send({ email: 'two@example.net' });
    await t.api.post('/emails').send({ from: 'hello@example.com', to: 'bounced@resend.dev', subject: 's', text: 'x' });
    await t.emu.clock.advance('5s');
    const all = await t.api.get('/suppressions');
    expect(all.body.data.map((s: any) => s.email)).toEqual(['bounced@resend.dev', 'two@example.net', 'one@example.net']);
    const manual = await t.api.get('/suppressions?origin=manual');
    expect(manual.body.data.map((s: any) => s.email)).toEqual(['two@example.net', 'one@example.net']);
    expect(Object.keys(manual.body.data[0]).sort()).toEqual(['created_at', 'email', 'id', 'origin', 'source_id']);
    expect((await t.api.get('/suppressions?origin=spam')).status).toBe(422);
    expect((await t.api.get('/suppressions?limit=1')).body).toMatchObject({ has_more: true });
  });

  it('adds and removes in batches', async () => {
    const add = await t.api.post('/suppressions/batch/add').send({ emails: ['b1@example.net', 'b2@example.net'] });
    expect(add.status).toBe(201);
    expect(add.body.data).toEqual([{ object: 'suppression', id: expect.any(String) }, { object: 'suppression', id: expect.any(String) }]);
    const tooMany = await t.api.post('/suppressions/batch/add').send({ emails: Array.from({ length: 101 }, (_, i) => `x${i}@example.net`) });
    expect(tooMany.status).toBe(422);
    const rmIds = await t.api.post('/suppressions/batch/remove').send({ ids: [add.body.data[0].id] });
    expect(rmIds.status).toBe(200);
    expect(rmIds.body.data).toEqual([{ object: 'suppression', id: add.body.data[0].id, deleted: true }]);
    const rmEmails = await t.api.post('/suppressions/batch/remove').send({ emails: ['b2@example.net', 'unknown@example.net'] });
    expect(rmEmails.body.data).toEqual([{ object: 'suppression', id: add.body.data[1].id, deleted: true }]);
    const both = await t.api.post('/suppressions/batch/remove').send({ emails: ['a@example.net'], ids: ['x'] });
    expect(both.status).toBe(422);
    expect(both.body.name).toBe('validation_error');
  });

  it("keeps each team's list apart", async () => {
    const a = await t.api.post('/suppressions').send({ email: 'mine@example.net' });
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/suppressions/${a.body.id}`)).status).toBe(404);
    expect((await other.get('/suppressions')).body.data).toEqual([]);
  });
});
