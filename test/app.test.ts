/**
 * The express application as a public way in (src/app.ts, `createApp` in
 * src/index.ts): driven by supertest with no port, mounted under a prefix in
 * a user's own express server (every handed-out URL then carries the
 * prefix), and returned by `startServer()` too.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { Resend } from 'resend';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startServer, type EmulatorInstance, type EmulatorServer } from '../src/index.js';

const email = { from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'Hello', html: '<p>Hi</p>' };

let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.reverse()) await o.close();
  open = [];
});

/** Listens on a free loopback port; resolves the server's origin. */
async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({ close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function app(): Promise<EmulatorInstance> {
  const emu = await createApp();
  open.push(emu);
  return emu;
}

describe('createApp(): the express app and the helpers, no port', () => {
  it('supertest drives a send through its lifecycle on the emulated clock', async () => {
    const emu = await app();
    expect('url' in emu).toBe(false);
    const auth = `Bearer ${emu.apiKey}`;
    const sent = await request(emu.app).post('/emails').set('Authorization', auth).send(email);
    expect(sent.status).toBe(200);
    expect(sent.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request(emu.app).get(`/emails/${sent.body.id}`).set('Authorization', auth)).body.last_event).toBe('queued');
    await emu.clock.advance('1m');
    expect((await request(emu.app).get(`/emails/${sent.body.id}`).set('Authorization', auth)).body.last_event).toBe('delivered');
    expect(emu.emails({ subject: 'Hello' })).toHaveLength(1);
    expect((await emu.waitForEmail({ to: 'delivered@resend.dev' })).id).toBe(sent.body.id);
    await emu.reset();
    expect(emu.emails().map((e) => e.id)).not.toContain(sent.body.id);
  });

  it('answers every refusal in the service shape through its error middleware', async () => {
    const emu = await app();
    const missing = await request(emu.app).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: expect.any(String), name: 'not_found' });
    const noKey = await request(emu.app).post('/emails').send(email);
    expect(noKey.status).toBe(401);
    expect(noKey.body).toEqual({ statusCode: 401, message: expect.any(String), name: 'missing_api_key' });
    const malformed = await request(emu.app).post('/emails').set('Authorization', `Bearer ${emu.apiKey}`).set('Content-Type', 'application/json').send('{"from":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.name).toBe('validation_error');
    const wrongMethod = await request(emu.app).put('/emails');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ statusCode: 405, message: expect.any(String), name: 'method_not_allowed' });
    expect(missing.headers['x-powered-by']).toBeUndefined();
  });

  it('hands out URLs on the origin the request came to', async () => {
    const emu = await app();
    const sent = await request(emu.app).post('/emails').set('Authorization', `Bearer ${emu.apiKey}`).set('Host', 'emulator.test:8080').send(email);
    const share = await request(emu.app).post(`/emails/${sent.body.id}/share`).set('Authorization', `Bearer ${emu.apiKey}`).set('Host', 'emulator.test:8080').send({});
    expect(share.body.url).toMatch(/^http:\/\/emulator\.test:8080\/_emulator\/emails\//);
  });

  it('a request refused or unrouted, whatever its Host, does not move the origin of handed-out URLs', async () => {
    const emu = await app();
    const auth = `Bearer ${emu.apiKey}`;
    const sent = await request(emu.app).post('/emails').set('Authorization', auth).set('Host', 'emulator.test:8080').send(email);
    expect((await request(emu.app).get('/nope').set('Host', 'evil.example')).status).toBe(404);
    expect((await request(emu.app).get('/emails').set('Host', 'evil.example')).status).toBe(401);
    expect((await request(emu.app).get('/emails').set('Authorization', 'Bearer re_wrong').set('Host', 'evil.example')).status).toBe(403);
    const share = await request(emu.app).post(`/emails/${sent.body.id}/share`).set('Authorization', auth).set('Host', 'emulator.test:8080').send({});
    expect(share.body.url).toMatch(/^http:\/\/emulator\.test:8080\//);
    // The download URL of an attachment is built from the same base, with no request of its own Host behind it.
    const withFile = await request(emu.app).post('/emails').set('Authorization', auth).set('Host', 'emulator.test:8080')
      .send({ ...email, attachments: [{ filename: 'a.txt', content: Buffer.from('hi').toString('base64') }] });
    await request(emu.app).get('/nope').set('Host', 'evil.example');
    const attachments = await request(emu.app).get(`/emails/${withFile.body.id}/attachments`).set('Authorization', auth).set('Host', 'emulator.test:8080');
    expect(attachments.body.data[0].download_url).toMatch(/^http:\/\/emulator\.test:8080\//);
  });
});

describe('mounted in a user\'s own express server', () => {
  /** A parent app with middleware of its own and the emulator under `/resend`. */
  async function mounted() {
    const emu = await app();
    const seen: string[] = [];
    const parent = express();
    parent.use((req, _res, next) => {
      seen.push(`${req.method} ${req.originalUrl}`);
      next();
    });
    parent.get('/own', (_req, res) => res.json({ own: true }));
    parent.use('/resend', emu.app);
    const origin = await listen(parent);
    return { emu, origin, base: `${origin}/resend`, seen, resend: new Resend(emu.apiKey, { baseUrl: `${origin}/resend` }) };
  }

  it('the SDK works through the prefix and the parent keeps its own routes and middleware', async () => {
    const { emu, origin, base, seen, resend } = await mounted();
    const { data, error } = await resend.emails.send({ ...email, attachments: [{ filename: 'a.txt', content: Buffer.from('attached').toString('base64') }] });
    expect(error).toBeNull();
    expect(seen).toContain('POST /resend/emails');
    expect(await (await fetch(`${origin}/own`)).json()).toEqual({ own: true });
    const listed = await resend.emails.attachments.list({ emailId: data!.id });
    expect(listed.error).toBeNull();
    const url = listed.data!.data[0].download_url;
    expect(url.startsWith(`${base}/_emulator/emails/${data!.id}/attachments/`)).toBe(true);
    expect(await (await fetch(url)).text()).toBe('attached');
    await emu.clock.advance('1m');
    expect((await resend.emails.get(data!.id)).data?.last_event).toBe('delivered');
  });

  it('raw links of received mail, unsubscribe links and share URLs carry the prefix', async () => {
    const { emu, base, resend } = await mounted();
    const inbound = await fetch(`${base}/_emulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Ada <ada@sender.test>', to: 'support@example.com', subject: 'Hi', text: 'hello' }),
    });
    expect(inbound.status).toBe(201);
    const received = await resend.emails.receiving.list();
    const got = await resend.emails.receiving.get(received.data!.data[0].id);
    expect(got.data!.raw!.download_url.startsWith(`${base}/_emulator/inbound/emails/`)).toBe(true);
    expect(await (await fetch(got.data!.raw!.download_url)).text()).toContain('Subject: Hi');

    const segment = (await resend.segments.create({ name: 'R' })).data!.id;
    await resend.contacts.create({ email: 'ada@example.net', segments: [{ id: segment }] });
    await resend.broadcasts.create({ segmentId: segment, from: 'Acme <news@example.com>', subject: 's', html: '<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">u</a>', send: true });
    await emu.clock.advance('1s');
    const [news] = emu.emails({ to: 'ada@example.net' });
    expect(news.links.some((l) => l.startsWith(`${base}/_emulator/unsubscribe/`))).toBe(true);
  });

  it('the inbox page and its live stream are served under the prefix', async () => {
    const { base } = await mounted();
    const page = await fetch(`${base}/_emulator/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<base href="/resend/_emulator/">');
    const controller = new AbortController();
    const stream = await fetch(`${base}/_emulator/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/retry: 2000|event: hello/);
    controller.abort();
  });
});

describe('startServer()', () => {
  it('returns its app, which supertest can drive without the port', async () => {
    const emu: EmulatorServer = await startServer();
    open.push(emu);
    const health = await request(emu.app).get('/_emulator/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
  });

  it('serves under mountPath: url ends with it and the SDK reaches the API there', async () => {
    const emu = await startServer({ mountPath: 'resend/' });
    open.push(emu);
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/resend$/);
    const resend = new Resend(emu.apiKey, { baseUrl: emu.url });
    expect((await resend.emails.send(email)).error).toBeNull();
    const outside = await fetch(emu.url.replace(/\/resend$/, '/emails'));
    expect(outside.status).toBe(404);
    expect((await outside.json()).name).toBe('not_found');
  });
});

describe('an app after close() (issue 36: nothing of a closed emulator stays reachable)', () => {
  it('answers 503 service_unavailable, in the error shape, through supertest', async () => {
    const emu = await createApp();
    await emu.close();
    const res = await request(emu.app).get('/emails').set('Authorization', `Bearer ${emu.apiKey}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: { statusCode: 503, message: 'The emulator is closed.', name: 'service_unavailable' } });
  });

  it('keeps none of its express state: only `handle` remains of what express put on it', async () => {
    const emu = await createApp();
    await emu.close();
    expect(Object.keys(emu.app)).toEqual(['handle']);
  });
});
