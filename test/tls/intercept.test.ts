/**
 * `interceptResendApi` (src/intercept.ts): requests to https://api.resend.com
 * through global fetch, node:https and the official SDK with no baseUrl
 * reach the emulator in-process (no port, no certificate) or at its `url`
 * (unreachable: a network error in the caller); every other host, and
 * api.resend.com on another port or over http, is untouched; restore() and
 * close() undo it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Resend } from 'resend';
import { interceptResendApi, startServer, type EmulatorServer, type ResendApiInterception } from '../../src/index.js';

/** The functions an interception replaces, to compare before and after. */
const patched = () => ({ fetch: globalThis.fetch, httpRequest: http.request, httpGet: http.get, httpsRequest: https.request, httpsGet: https.get, ClientRequest: http.ClientRequest });

/** GET or POST with node:https; resolves with the status and the body as JSON. */
function httpsJson(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('interceptResendApi', () => {
  let emu: EmulatorServer;
  let interception: ResendApiInterception | undefined;
  beforeEach(async () => {
    emu = await startServer();
  });
  afterEach(async () => {
    interception?.restore();
    interception = undefined;
    await emu.close();
  });

  it('routes global fetch to https://api.resend.com into the emulator in-process', async () => {
    interception = interceptResendApi(emu);
    const res = await fetch('https://api.resend.com/emails', {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Through fetch', html: '<p>hi</p>' }),
    });
    expect(res.status).toBe(200);
    const { id } = await res.json();
    expect(emu.emails({ subject: 'Through fetch' }).map((e) => e.id)).toEqual([id]);
    // The service's errors come back as they are.
    const refused = await fetch('https://api.resend.com/emails', { method: 'POST', headers: { authorization: 'Bearer re_wrong' } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ statusCode: 403, name: expect.any(String) });
  });

  it('routes node:https and the official SDK with its default base URL', async () => {
    interception = interceptResendApi(emu);
    const list = await httpsJson('GET', 'https://api.resend.com/domains', { authorization: `Bearer ${emu.apiKey}` });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { name: string }) => d.name)).toContain('example.com');
    const sent = await httpsJson('POST', 'https://api.resend.com/emails', { authorization: `Bearer ${emu.apiKey}` }, { from: 'hello@example.com', to: 'ada@example.net', subject: 'Through https', text: 'hi' });
    expect(sent.status).toBe(200);
    expect(emu.emails({ subject: 'Through https' })).toHaveLength(1);

    const resend = new Resend(emu.apiKey); // no baseUrl: https://api.resend.com
    const { data, error } = await resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Through the SDK', text: 'hi' });
    expect(error).toBeNull();
    expect(emu.emails({ subject: 'Through the SDK' })[0].id).toBe(data!.id);
  });

  it('forwards to the url when the target has no app', async () => {
    interception = interceptResendApi({ url: emu.url });
    const res = await fetch('https://api.resend.com/domains', { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.map((d: { name: string }) => d.name)).toContain('example.com');
    const viaHttps = await httpsJson('GET', 'https://api.resend.com/api-keys', { authorization: `Bearer ${emu.apiKey}` });
    expect(viaHttps.status).toBe(200);
  });

  it('leaves requests to every other host untouched', async () => {
    const seen: string[] = [];
    const other = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-probe']}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ from: 'the other server' }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      interception = interceptResendApi(emu);
      const viaFetch = await fetch(`${base}/emails`, { method: 'POST', headers: { 'x-probe': 'fetch' }, body: '{}' });
      expect(await viaFetch.json()).toEqual({ from: 'the other server' });
      const viaHttp = await new Promise<string>((resolve, reject) => {
        http.get(`${base}/domains`, { headers: { 'x-probe': 'http' } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(JSON.parse(viaHttp)).toEqual({ from: 'the other server' });
      expect(seen).toEqual(['POST /emails fetch', 'GET /domains http']);
      expect(emu.emails({ to: 'ada@example.net' })).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('fails in the caller as a network error when the url cannot be reached', async () => {
    // Port 1 on the loopback: nothing listens, the connection is refused at once.
    interception = interceptResendApi({ url: 'http://127.0.0.1:1' });
    await expect(fetch('https://api.resend.com/domains', { headers: { authorization: `Bearer ${emu.apiKey}` } })).rejects.toThrow(TypeError);
    await expect(httpsJson('GET', 'https://api.resend.com/domains', { authorization: `Bearer ${emu.apiKey}` })).rejects.toThrow();
  });

  it('catches only https on port 443: api.resend.com on another port or over http goes out to the network', async () => {
    let served = 0;
    interception = interceptResendApi({
      app: (_req, res) => {
        served++;
        res.end('{}');
      },
    });
    // No network in tests: the name lookup of a request that goes out fails with this error.
    const offline = (_host: string, _options: unknown, callback: (err: Error) => void) => callback(Object.assign(new Error('no lookups in tests'), { code: 'ETESTLOOKUP' }));
    const status = (url: string) =>
      new Promise<number>((resolve, reject) => {
        (url.startsWith('https:') ? https : http).get(url, { lookup: offline as never, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        }).on('error', reject);
      });
    await expect(status('https://api.resend.com:4443/domains')).rejects.toMatchObject({ code: 'ETESTLOOKUP' });
    await expect(status('http://api.resend.com/domains')).rejects.toMatchObject({ code: 'ETESTLOOKUP' });
    expect(served).toBe(0);
    // The same request to https on 443 (by default or by name) is caught, and never looked up.
    expect(await status('https://api.resend.com/domains')).toBe(200);
    expect(await status('https://api.resend.com:443/domains')).toBe(200);
    expect(served).toBe(2);
  });

  it('restore() and the emulator close() put fetch and node:http(s) back', async () => {
    const before = patched();
    interception = interceptResendApi(emu);
    expect(globalThis.fetch).not.toBe(before.fetch);
    interception.restore();
    interception.restore(); // twice is harmless
    expect(patched()).toEqual(before);

    interceptResendApi(emu);
    expect(globalThis.fetch).not.toBe(before.fetch);
    await emu.close();
    expect(patched()).toEqual(before);
  });

  it('takes any request listener as app (an express app), and leaves that app serving its real HTTP listener', async () => {
    const app = express();
    app.use(express.json());
    app.post('/emails', (req, res) => {
      res.status(200).json({ id: 'from-express', body: req.body, host: req.headers.host });
    });
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const real = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`;
      const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subject: 'hi' }) }).then((r) => r.json());
      interception = interceptResendApi({ app });
      expect(await post('https://api.resend.com/emails')).toEqual({ id: 'from-express', body: { subject: 'hi' }, host: 'api.resend.com' });
      expect(await post(real)).toEqual({ id: 'from-express', body: { subject: 'hi' }, host: new URL(real).host });
      expect((await httpsJson('POST', 'https://api.resend.com/emails', {}, { subject: 'again' })).body).toMatchObject({ body: { subject: 'again' } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a target with neither app nor url', () => {
    expect(() => interceptResendApi({})).toThrow(TypeError);
  });
});
