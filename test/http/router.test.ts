/**
 * Routing (src/http/router.ts, find-my-way): the rules the emulator kept
 * from express when issue 10 replaced it — paths match ignoring case
 * (parameters keep theirs), a trailing slash is ignored, HEAD is served by
 * GET, `//emails` (the SDK's join) is `/emails`, a known path with another
 * method is 405 and an unknown path 404, both in the service's error shape.
 */
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { loadSpec } from '../../src/http/spec.js';
import { routerOf } from '../../src/http/router.js';

describe('routing', () => {
  const t = useFreshEmulatorPerTest();
  const send = () => t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'Routing', text: 'x' });

  it('ignores case in the path and a trailing slash; parameters keep their case', async () => {
    const id = (await send()).body.id as string;
    expect((await t.api.get('/EMAILS?limit=1')).body.data[0].id).toBe(id);
    expect((await t.api.get('/emails/?limit=1')).body.data[0].id).toBe(id);
    expect((await t.api.get(`/Emails/${id}/`)).body.id).toBe(id);
    // An id in another case is another id.
    const upper = await t.api.get(`/emails/${id.toUpperCase()}`);
    expect(upper.status).toBe(404);
    expect(upper.body).toEqual({ statusCode: 404, name: 'not_found', message: 'Email not found' });
  });

  it('serves HEAD with GET, without a body', async () => {
    const res = await request(t.emu.url).head('/emails').set('authorization', `Bearer ${t.emu.apiKey}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.text ?? '').toBe('');
  });

  it('reads //emails as /emails (the SDK joins base URL and path as they are)', async () => {
    const res = await request(t.emu.url).post('//emails').set('authorization', `Bearer ${t.emu.apiKey}`).send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'S', text: 'x' });
    expect(res.status).toBe(200);
    expect((await t.api.get(`/emails/${res.body.id}`)).body.subject).toBe('S');
  });

  it('answers 405 on a known path with another method and 404 on an unknown path, in the error shape', async () => {
    const put = await t.api.put('/emails').send({});
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ statusCode: 405, name: 'method_not_allowed', message: 'Method is not allowed for the requested path.' });
    const none = await t.api.get('/nothing-here');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ statusCode: 404, name: 'not_found', message: 'The requested endpoint does not exist.' });
    // A malformed percent-encoding in a parameter finds no operation either.
    expect((await t.api.get('/emails/%E0%A4%A')).status).toBe(404);
  });

  it('decodes percent-encoded parameters', async () => {
    const created = await t.api.post('/contacts').send({ email: 'a+b@example.com' });
    expect(created.status).toBe(201);
    const res = await t.api.get('/contacts/' + encodeURIComponent('a+b@example.com'));
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.id);
  });

  it('finds every operation of the document by its method and path, HEAD as GET, and no other method there', async () => {
    const { operations } = await loadSpec();
    const router = routerOf(operations);
    const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    operations.forEach((op, index) => {
      const path = op.routePath.replace(/:([^/]+)/g, (_m, name: string) => `${name}-Value`);
      const match = router.find(op.method, path);
      expect(match?.index, `${op.method} ${op.path}`).toBe(index);
      for (const name of op.routePath.match(/:([^/]+)/g) ?? []) expect(match?.params[name.slice(1)]).toBe(`${name.slice(1)}-Value`);
      if (op.method === 'GET') expect(router.find('HEAD', path)?.index).toBe(index);
      for (const other of METHODS) {
        if (!operations.some((o) => o.routePath === op.routePath && o.method === other)) expect(router.find(other, path), `${other} ${op.path}`).toBeNull();
      }
      expect(router.knowsPath(path)).toBe(true);
    });
    expect(router.find('GET', '/nothing-here')).toBeNull();
    expect(router.knowsPath('/nothing-here')).toBe(false);
  });

  it('answers HEAD on a path with no GET as another method: 405', async () => {
    const res = await request(t.emu.url).head('/emails/batch').set('authorization', `Bearer ${t.emu.apiKey}`);
    expect(res.status).toBe(405);
  });
});
