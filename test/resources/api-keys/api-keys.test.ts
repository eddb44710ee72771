import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

describe('api keys', () => {
  const t = useFreshEmulatorPerTest();

  it('creates a key whose token is shown once and works', async () => {
    const res = await t.api.post('/api-keys').send({ name: 'ci' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), object: 'api_key', token: expect.stringMatching(/^re_/) });
    const list = await t.as(res.body.token).get('/api-keys');
    expect(list.status).toBe(200);
    const item = list.body.data.find((k: any) => k.id === res.body.id);
    expect(Object.keys(item).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
    expect(item.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
  });

  it('accepts an empty name and rejects one over 50 characters', async () => {
    expect((await t.api.post('/api-keys').send({ name: '' })).status).toBe(201);
    const long = await t.api.post('/api-keys').send({ name: 'x'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.name).toBe('validation_error');
    expect(long.body.message).toContain('name');
  });

  it('requires a name', async () => {
    const res = await t.api.post('/api-keys').send({});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
  });

  it('rejects an unknown permission', async () => {
    const res = await t.api.post('/api-keys').send({ name: 'x', permission: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('validation_error');
  });

  it('restricts a sending key to sending', async () => {
    const key = await t.api.post('/api-keys').send({ name: 's', permission: 'sending_access' });
    const res = await t.as(key.body.token).get('/domains');
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('restricted_api_key');
  });

  it('binds domain_id to a team domain and only with sending_access', async () => {
    const ok = await t.api.post('/api-keys').send({ name: 's', permission: 'sending_access', domain_id: FIXTURES.verifiedDomainId });
    expect(ok.status).toBe(201);
    const full = await t.api.post('/api-keys').send({ name: 's', permission: 'full_access', domain_id: FIXTURES.verifiedDomainId });
    expect(full.status).toBe(422);
    const other = await t.api.post('/api-keys').send({ name: 's', permission: 'sending_access', domain_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' });
    expect(other.status).toBe(404);
  });

  it('renames and deletes a key; an unknown key is 404 "API key not found"', async () => {
    const key = await t.api.post('/api-keys').send({ name: 'a' });
    const upd = await t.api.patch(`/api-keys/${key.body.id}`).send({ name: 'b' });
    expect(upd.body).toEqual({ object: 'api_key', id: key.body.id });
    const list = await t.api.get('/api-keys');
    expect(list.body.data.find((k: any) => k.id === key.body.id).name).toBe('b');
    const del = await t.api.delete(`/api-keys/${key.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'list', id: key.body.id, deleted: true });
    expect((await t.as(key.body.token).get('/domains')).status).toBe(403);
    const again = await t.api.delete(`/api-keys/${key.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ statusCode: 404, message: 'API key not found', name: 'not_found' });
  });

  it("never shows or deletes another team's keys", async () => {
    const mine = await t.api.post('/api-keys').send({ name: 'mine' });
    const other = t.as(FIXTURES.secondTeamKey);
    const list = await other.get('/api-keys');
    expect(list.body.data.map((k: any) => k.id)).not.toContain(mine.body.id);
    expect((await other.delete(`/api-keys/${mine.body.id}`)).status).toBe(404);
    expect((await other.patch(`/api-keys/${mine.body.id}`).send({ name: 'x' })).status).toBe(404);
  });
});
