import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../helpers.js';

describe('authentication (docs/reference/design.md#auth)', () => {
  const t = useFreshEmulatorPerTest();

  it('401 missing_api_key without an Authorization header', async () => {
    const res = await t.anon.get('/domains');
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('missing_api_key');
    expect(Object.keys(res.body)).toEqual(['statusCode', 'message', 'name']);
  });

  it('403 invalid_api_key for an unknown token or a non-bearer header', async () => {
    expect((await t.as('re_unknown').get('/domains')).body).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    const basic = await t.anon.get('/domains').set('Authorization', 'Basic abc');
    expect(basic.status).toBe(403);
  });

  it('401 restricted_api_key for a sending key outside sending', async () => {
    const key = (await t.api.post('/api-keys').send({ name: 's', permission: 'sending_access' })).body.token;
    for (const res of [await t.as(key).get('/api-keys'), await t.as(key).post('/domains').send({ name: 'a.io' })]) {
      expect(res.status).toBe(401);
      expect(res.body.name).toBe('restricted_api_key');
    }
  });

  it('updates last_used_at with emulated time', async () => {
    const created = (await t.api.post('/api-keys').send({ name: 'used' })).body;
    let item = (await t.api.get('/api-keys')).body.data.find((k: any) => k.id === created.id);
    expect(item.last_used_at).toBeNull();
    await t.emu.clock.advance('1h');
    await t.as(created.token).get('/domains');
    item = (await t.api.get('/api-keys')).body.data.find((k: any) => k.id === created.id);
    const expected = t.emu.clock.now().toISOString().slice(0, 19).replace('T', ' ');
    expect(item.last_used_at.slice(0, 19)).toBe(expected);
  });

  it('the admin API needs no key', async () => {
    expect((await t.anon.get('/_emulator/health')).status).toBe(200);
  });
});
