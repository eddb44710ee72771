/**
 * The admin API's guard (src/admin/guard.ts; issue 13, defect 6): no web
 * page may drive `/_emulator/*` — neither by a cross-origin request (a form
 * or `fetch` posting to `/_emulator/reset`) nor by DNS rebinding (a foreign
 * name in `Host`). The admin token: admin-token.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { send } from './raw-request.js';
import { storeOf } from '../../src/internals.js';

describe('admin API guard', () => {
  let emu: EmulatorServer;
  afterEach(async () => {
    await emu?.close();
  });

  /** A contact, so a reset that got through would show. */
  async function addContact(): Promise<string> {
    const res = await fetch(`${emu.url}/contacts`, { method: 'POST', headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.net' }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const contactCount = () => (storeOf(emu).prepare('SELECT COUNT(*) AS n FROM contacts WHERE email = ?').get('kept@example.net') as { n: number }).n;

  it('refuses a foreign Host name (DNS rebinding) with 403 in the error shape; health and the public API still answer', async () => {
    emu = await startServer();
    await addContact();
    const port = new URL(emu.url).port;
    for (const [method, path] of [['GET', '/_emulator/emails'], ['POST', '/_emulator/reset'], ['GET', '/_emulator/'], ['GET', '/_emulator/events'], ['GET', '/_EMULATOR/snapshot']] as const) {
      const r = await send(emu.url, method, path, { host: `rebound.example:${port}` });
      expect(r, `${method} ${path}`).toEqual({ status: 403, body: { statusCode: 403, name: 'forbidden_host', message: expect.stringContaining('rebound.example') } });
    }
    expect(contactCount()).toBe(1);
    expect((await send(emu.url, 'GET', '/_emulator/health', { host: `rebound.example:${port}` })).status).toBe(200);
    expect((await send(emu.url, 'GET', '/domains', { host: `rebound.example:${port}`, authorization: `Bearer ${emu.apiKey}` })).status).toBe(200);
  });

  it('answers to loopback names, IP addresses and --public-url\'s host', async () => {
    emu = await startServer({ publicUrl: 'http://resend:4400' });
    const port = new URL(emu.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `10.0.0.7:${port}`, 'resend:4400', 'RESEND', `localhost`]) {
      expect((await send(emu.url, 'GET', '/_emulator/clock', { host })).status, host).toBe(200);
    }
    expect((await send(emu.url, 'GET', '/_emulator/clock', { host: 'resend.example:4400' })).status).toBe(403);
  });

  it('refuses cross-origin browser requests (another site, a null origin): no reset, no injected email', async () => {
    emu = await startServer();
    await addContact();
    // What a page on another site can send without a preflight: a text/plain POST.
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:1`, 'https://localhost']) {
      const reset = await send(emu.url, 'POST', '/_emulator/reset', { origin, 'content-type': 'text/plain' }, 'x');
      expect(reset, origin).toEqual({ status: 403, body: { statusCode: 403, name: 'forbidden_origin', message: expect.any(String) } });
    }
    const raw = 'From: a@example.net\r\nTo: someone@example.com\r\nSubject: injected\r\n\r\nhi';
    expect((await send(emu.url, 'POST', '/_emulator/inbound', { origin: 'http://evil.example', 'content-type': 'text/plain' }, raw)).status).toBe(403);
    expect(contactCount()).toBe(1);
    // The default fixtures receive nothing: no received email at all.
    expect((storeOf(emu).prepare('SELECT COUNT(*) AS n FROM received_emails').get() as { n: number }).n).toBe(0);

    // The emulator's own pages (same origin) and clients without Origin (curl, SDK, tests) pass.
    const own = await send(emu.url, 'POST', '/_emulator/clock/advance', { origin: emu.url, 'content-type': 'application/json' }, '{"ms":0}');
    expect(own.status).toBe(200);
    expect((await send(emu.url, 'POST', '/_emulator/reset')).status).toBe(200);
    expect(contactCount()).toBe(0);
  });

  it('accepts --public-url\'s origin (the emulator behind a proxy)', async () => {
    emu = await startServer({ publicUrl: 'https://emu.example.org/' });
    expect((await send(emu.url, 'GET', '/_emulator/clock', { origin: 'https://emu.example.org' })).status).toBe(200);
    expect((await send(emu.url, 'GET', '/_emulator/clock', { origin: 'http://emu.example.org' })).status).toBe(403);
  });
});
