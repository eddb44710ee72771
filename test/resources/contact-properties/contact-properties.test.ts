import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const NIL = '00000000-0000-0000-0000-000000000000';
const COMPANY = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const ALICE = '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';

describe('contact properties', () => {
  const t = useFreshEmulatorPerTest();

  it('creates and reads a property with every field', async () => {
    const res = await t.api.post('/contact-properties').send({ key: 'company_name', type: 'string', fallback_value: 'Acme Corp' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'contact_property', id: expect.any(String) });
    const got = await t.api.get(`/contact-properties/${res.body.id}`);
    expect(got.body).toEqual({ object: 'contact_property', id: res.body.id, key: 'company_name', type: 'string', fallback_value: 'Acme Corp', created_at: expect.stringMatching(TS) });
    const num = await t.api.post('/contact-properties').send({ key: 'age', type: 'number' });
    expect((await t.api.get(`/contact-properties/${num.body.id}`)).body).toMatchObject({ type: 'number', fallback_value: null });
  });

  it('validates key, type, fallback type and uniqueness', async () => {
    expect((await t.api.post('/contact-properties').send({ type: 'string' })).body).toEqual({ statusCode: 422, message: 'Missing `key` field.', name: 'missing_required_field' });
    expect((await t.api.post('/contact-properties').send({ key: 'k' })).body.message).toBe('Missing `type` field.');
    for (const key of ['bad-key', 'x'.repeat(51), '']) {
      const res = await t.api.post('/contact-properties').send({ key, type: 'string' });
      expect(res.status).toBe(422);
      expect(res.body.name).toBe('validation_error');
    }
    expect((await t.api.post('/contact-properties').send({ key: 'k', type: 'date' })).status).toBe(400);
    const mismatch = await t.api.post('/contact-properties').send({ key: 'k', type: 'number', fallback_value: 'ten' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toContain('fallback_value');
    const dup = await t.api.post('/contact-properties').send({ key: 'company', type: 'string' });
    expect(dup.status).toBe(422);
  });

  it('lists all properties newest first', async () => {
    await t.api.post('/contact-properties').send({ key: 'newest', type: 'string' });
    const list = await t.api.get('/contact-properties');
    expect(list.body.has_more).toBe(false);
    expect(list.body.data.map((p: any) => p.key)).toEqual(['newest', 'plan_seats', 'company']);
    expect(Object.keys(list.body.data[0])).toEqual(['id', 'key', 'type', 'fallback_value', 'created_at']);
  });

  it('updates only fallback_value, matching the type', async () => {
    const upd = await t.api.patch(`/contact-properties/${COMPANY}`).send({ fallback_value: 'ACME' });
    expect(upd.body).toEqual({ object: 'contact_property', id: COMPANY });
    expect((await t.api.get(`/contact-properties/${COMPANY}`)).body.fallback_value).toBe('ACME');
    const wrong = await t.api.patch(`/contact-properties/${COMPANY}`).send({ fallback_value: 5 });
    expect(wrong.status).toBe(422);
    const key = await t.api.patch(`/contact-properties/${COMPANY}`).send({ key: 'other' });
    expect(key.status).toBe(422);
    expect(key.body.message).toBe('Only the `fallback_value` field of a contact property can be updated.');
  });

  it('deletes with the recorded key order and drops the values from contacts', async () => {
    const del = await t.api.delete(`/contact-properties/${COMPANY}`);
    expect(del.status).toBe(200);
    expect(Object.keys(del.body)).toEqual(['object', 'deleted', 'id']);
    expect(del.body).toEqual({ object: 'contact_property', deleted: true, id: COMPANY });
    expect((await t.api.get(`/contact-properties/${COMPANY}`)).body).toEqual({ statusCode: 404, message: 'Contact property not found', name: 'not_found' });
    expect((await t.api.get(`/contacts/${ALICE}`)).body.properties).toEqual({ plan_seats: { type: 'number', value: 5 } });
    await t.api.post('/contact-properties').send({ key: 'company', type: 'string' });
    expect((await t.api.get(`/contacts/${ALICE}`)).body.properties).toEqual({ plan_seats: { type: 'number', value: 5 } });
    expect((await t.api.delete(`/contact-properties/${NIL}`)).status).toBe(404);
  });

  it("hides another team's properties", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/contact-properties/${COMPANY}`)).status).toBe(404);
    expect((await other.patch(`/contact-properties/${COMPANY}`).send({ fallback_value: 'x' })).status).toBe(404);
    expect((await other.get('/contact-properties')).body.data).toEqual([]);
    expect((await other.post('/contact-properties').send({ key: 'company', type: 'string' })).status).toBe(201);
  });
});
