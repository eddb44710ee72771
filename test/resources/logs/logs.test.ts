import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;

describe('logs', () => {
  const t = useFreshEmulatorPerTest();

  it('records an API request with its bodies, status and user agent', async () => {
    const created = await t.api.post('/api-keys').set('User-Agent', 'my-tests/1.0').send({ name: 'logged' });
    expect(created.status).toBe(201);
    const list = await t.api.get('/logs');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    const item = list.body.data[0];
    expect(item).toEqual({ id: expect.any(String), created_at: expect.stringMatching(TS), endpoint: '/api-keys', method: 'POST', response_status: 201, user_agent: 'my-tests/1.0' });
    const one = await t.api.get(`/logs/${item.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...item, object: 'log', request_body: { name: 'logged' }, response_body: { ...created.body, token: '[redacted]' } });
  });

  it('never stores secrets: API key tokens and webhook signing secrets are redacted in GET /logs/{id}, the snapshot and the SQLite file (issue 13, defect 5)', async () => {
    const key = await t.api.post('/api-keys').send({ name: 'secret-key' });
    const hook = await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.com/x', events: ['email.sent'] });
    const got = await t.api.get(`/webhooks/${hook.body.id}`);
    const secrets = [key.body.token, hook.body.signing_secret, got.body.signing_secret];
    for (const s of secrets) expect(s).toMatch(/^(re_|whsec_)/);
    const list = await t.api.get('/logs');
    const details = await Promise.all(list.body.data.map((l: any) => t.api.get(`/logs/${l.id}`)));
    const byEndpoint = Object.fromEntries(details.map((d) => [`${d.body.method} ${d.body.endpoint}`, d.body]));
    expect(byEndpoint['POST /api-keys'].response_body).toMatchObject({ id: key.body.id, token: '[redacted]' });
    expect(byEndpoint['POST /webhooks'].response_body).toMatchObject({ id: hook.body.id, signing_secret: '[redacted]' });
    expect(byEndpoint[`GET /webhooks/${hook.body.id}`].response_body).toMatchObject({ id: hook.body.id, signing_secret: '[redacted]' });
    const snapshot = await t.anon.get('/_emulator/snapshot');
    expect(snapshot.status).toBe(200);
    const rows = storeOf(t.emu).prepare('SELECT request_body, response_body FROM logs').all();
    const snapshotLogs = JSON.stringify(snapshot.body.tables.logs);
    expect(snapshotLogs).toContain('[redacted]');
    for (const text of [JSON.stringify(details.map((d) => d.body)), snapshotLogs, JSON.stringify(rows)]) {
      for (const s of secrets) expect(text).not.toContain(s);
    }
    // The whole snapshot keeps no key token (keys are stored as sha256); the webhook table keeps its secret to sign with.
    expect(JSON.stringify(snapshot.body)).not.toContain(key.body.token);
  });

  it('records errors of authenticated requests, GETs with a null request body, and the path without query', async () => {
    await t.api.get('/broadcasts/00000000-0000-4000-8000-000000000000');
    await t.api.get('/api-keys?limit=5');
    const list = await t.api.get('/logs');
    const [keys, notFound] = list.body.data;
    expect(keys).toMatchObject({ endpoint: '/api-keys', method: 'GET', response_status: 200 });
    expect(notFound).toMatchObject({ endpoint: '/broadcasts/00000000-0000-4000-8000-000000000000', method: 'GET', response_status: 404 });
    const detail = await t.api.get(`/logs/${notFound.id}`);
    expect(detail.body.request_body).toBeNull();
    expect(detail.body.response_body).toEqual({ statusCode: 404, message: 'Broadcast not found', name: 'not_found' });
  });

  it('does not record /_emulator calls nor unauthenticated requests', async () => {
    await t.anon.get('/_emulator/health');
    await t.anon.get('/api-keys');
    await t.as('re_unknown_token').get('/api-keys');
    const list = await t.api.get('/logs');
    expect(list.body.data).toEqual([]);
  });

  it('stamps logs with emulated time', async () => {
    await t.emu.clock.advance('3h');
    await t.api.get('/api-keys');
    const now = t.emu.clock.now().toISOString();
    const list = await t.api.get('/logs');
    expect(list.body.data[0].created_at).toBe(`${now.slice(0, 10)} ${now.slice(11, 23)}000+00`);
  });

  it('keeps logs per team', async () => {
    await t.api.get('/api-keys');
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get('/logs')).body.data).toEqual([]);
    const mine = await t.api.get('/logs');
    const res = await other.get(`/logs/${mine.body.data[0].id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Log not found', name: 'not_found' });
  });

  it('pages newest first, 20 by default, with limit/after/before', async () => {
    for (let i = 0; i < 25; i++) await t.api.get(`/broadcasts?limit=${i + 1}`);
    const first = await t.api.get('/logs');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.has_more).toBe(true);
    const page = await t.api.get('/logs?limit=3');
    // 25 list calls, then one GET /logs (recorded after it answered).
    expect(page.body.data.map((l: any) => l.endpoint)).toEqual(['/logs', '/broadcasts', '/broadcasts']);
    const next = await t.api.get(`/logs?limit=3&after=${page.body.data[2].id}`);
    expect(next.body.data).toHaveLength(3);
    expect(next.body.data.map((l: any) => l.id)).not.toContain(page.body.data[2].id);
    const prev = await t.api.get(`/logs?limit=3&before=${next.body.data[0].id}`);
    expect(prev.body.data.map((l: any) => l.id)).toEqual(page.body.data.map((l: any) => l.id));
    const both = await t.api.get(`/logs?after=${page.body.data[0].id}&before=${page.body.data[1].id}`);
    expect(both.status).toBe(422);
    expect(both.body.name).toBe('validation_error');
  });

  it('rejects a log id that is not a UUID', async () => {
    const res = await t.api.get('/logs/abc');
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('invalid_parameter');
  });
});
