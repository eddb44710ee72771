import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../helpers.js';

describe('errors are always {statusCode, message, name}', () => {
  const t = useFreshEmulatorPerTest();

  it('404 not_found for an unknown path', async () => {
    const res = await t.api.get('/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('405 method_not_allowed for a known path with another method', async () => {
    const res = await t.api.put('/domains');
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ statusCode: 405, name: 'method_not_allowed' });
  });

  it('400 for malformed JSON, with a clear message', async () => {
    const res = await t.api.post('/domains').set('Content-Type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('400 for a JSON body that is not an object', async () => {
    const res = await t.api.post('/domains').set('Content-Type', 'application/json').send('"acme.io"');
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('validation_error');
  });

  it('413 for a body over the limit, in the same shape', async () => {
    const res = await t.api.post('/domains').set('Content-Type', 'application/json').send(`{"name":"${'a'.repeat(51 * 1024 * 1024)}"}`);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, name: 'payload_too_large' });
  });

  it('accepts the double slash the SDK makes from a trailing-slash baseUrl', async () => {
    const res = await t.api.get('//domains');
    expect(res.status).toBe(200);
  });

  it('never answers 500 or HTML for odd input', async () => {
    const odd = [
      t.api.post('/domains').send({ name: ['a'] }),
      t.api.post('/domains').send({ name: 'a.io', capabilities: 'all' }),
      t.api.post('/api-keys').send({ name: 7 }),
      t.api.get('/domains?limit=1&limit=2'),
      t.api.get('/domains/%E0%A4%A'),
      t.api.post('/webhooks').send({ endpoint: 'not a url', events: ['email.sent'] }),
      t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1/x', events: [] }),
      t.api.post('/_emulator/clock/advance').send({ ms: -5 }),
    ];
    for (const res of await Promise.all(odd)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(Object.keys(res.body)).toEqual(['statusCode', 'message', 'name']);
    }
  });
});
