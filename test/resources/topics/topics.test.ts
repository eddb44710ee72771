import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const NIL = '00000000-0000-0000-0000-000000000000';
const PRODUCT = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

describe('topics', () => {
  const t = useFreshEmulatorPerTest();

  it('creates a topic answering {object, id} and reads every field', async () => {
    const res = await t.api.post('/topics').send({ name: 'Test topic', default_subscription: 'opt_out' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'topic', id: expect.any(String) });
    const got = await t.api.get(`/topics/${res.body.id}`);
    expect(got.body).toEqual({
      object: 'topic', id: res.body.id, name: 'Test topic',
      default_subscription: 'opt_out', visibility: 'private', created_at: expect.stringMatching(TS),
    });
    const full = await t.api.post('/topics').send({ name: 'N', default_subscription: 'opt_in', description: 'd', visibility: 'public' });
    expect((await t.api.get(`/topics/${full.body.id}`)).body).toMatchObject({ description: 'd', visibility: 'public', default_subscription: 'opt_in' });
  });

  it('validates the create body', async () => {
    const noName = await t.api.post('/topics').send({ default_subscription: 'opt_in' });
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
    const noDefault = await t.api.post('/topics').send({ name: 'x' });
    expect(noDefault.status).toBe(422);
    expect(noDefault.body.message).toBe('Missing `default_subscription` field.');
    expect((await t.api.post('/topics').send({ name: 'x'.repeat(51), default_subscription: 'opt_in' })).status).toBe(400);
    expect((await t.api.post('/topics').send({ name: 'x', description: 'd'.repeat(201), default_subscription: 'opt_in' })).status).toBe(400);
    const badSub = await t.api.post('/topics').send({ name: 'x', default_subscription: 'maybe' });
    expect(badSub.status).toBe(400);
    expect(badSub.body.name).toBe('validation_error');
    expect((await t.api.post('/topics').send({ name: 'x', default_subscription: 'opt_in', visibility: 'secret' })).status).toBe(400);
  });

  it('lists newest first with limit 20 by default', async () => {
    for (let i = 0; i < 21; i++) await t.api.post('/topics').send({ name: `t${i}`, default_subscription: 'opt_in' });
    const list = await t.api.get('/topics');
    expect(list.body.data).toHaveLength(20);
    expect(list.body.has_more).toBe(true);
    expect(list.body.data[0].name).toBe('t20');
    // No description: the key is left out (the SDK's `description?: string`, its mocks).
    expect(Object.keys(list.body.data[0])).toEqual(['id', 'name', 'default_subscription', 'visibility', 'created_at']);
    const rest = await t.api.get(`/topics?after=${list.body.data[19].id}`);
    expect(rest.body.data.map((x: any) => x.name)).toEqual(['t0', 'Promotions', 'Product updates']);
    expect(rest.body.data[2].description).toBe('News about features and releases');
  });

  it('updates name, description and visibility but never default_subscription', async () => {
    const upd = await t.api.patch(`/topics/${PRODUCT}`).send({ id: PRODUCT, name: 'Changelog', description: 'New', visibility: 'private' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'topic', id: PRODUCT });
    expect((await t.api.get(`/topics/${PRODUCT}`)).body).toMatchObject({ name: 'Changelog', description: 'New', visibility: 'private', default_subscription: 'opt_in' });
    const imm = await t.api.patch(`/topics/${PRODUCT}`).send({ default_subscription: 'opt_out' });
    expect(imm.status).toBe(422);
    expect(imm.body.name).toBe('validation_error');
    expect((await t.api.get(`/topics/${PRODUCT}`)).body.default_subscription).toBe('opt_in');
  });

  it('deletes a topic and 404s unknown ones', async () => {
    const del = await t.api.delete(`/topics/${PRODUCT}`);
    expect(del.body).toEqual({ object: 'topic', id: PRODUCT, deleted: true });
    const gone = await t.api.get(`/topics/${PRODUCT}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ statusCode: 404, message: 'Topic not found', name: 'not_found' });
    expect((await t.api.delete(`/topics/${NIL}`)).status).toBe(404);
    expect((await t.api.patch(`/topics/${NIL}`).send({ name: 'x' })).status).toBe(404);
  });

  it("hides another team's topics", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/topics/${PRODUCT}`)).status).toBe(404);
    expect((await other.delete(`/topics/${PRODUCT}`)).status).toBe(404);
    expect((await other.get('/topics')).body.data).toEqual([]);
  });
});
