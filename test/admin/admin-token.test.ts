/**
 * `--admin-token` / `startServer({ adminToken })` (issue 13, "A protected
 * admin API when it is exposed"; src/admin/guard.ts): every `/_emulator`
 * route but health needs `Authorization: Bearer TOKEN` or the inbox page's
 * cookie; the page itself loads (and asks for it); the links the API hands
 * to others still work; the `startServer()` and `resend-emulator/vitest`
 * helpers keep working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { ADMIN_COOKIE } from '../../src/admin/guard.js';
import { useEmulator as useVitestEmulator } from '../../src/vitest.js';
import { FIXTURES } from '../helpers.js';
import { send } from './raw-request.js';
import { storeOf } from '../../src/internals.js';

const TOKEN = 'admin-secret-1';

describe('admin token', () => {
  let emu: EmulatorServer;
  afterEach(async () => {
    await emu?.close();
  });

  /** A contact, so a reset that got through would show. */
  async function addContact(): Promise<void> {
    const res = await fetch(`${emu.url}/contacts`, { method: 'POST', headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@example.net' }) });
    expect(res.status).toBe(201);
  }
  const contactCount = () => (storeOf(emu).prepare('SELECT COUNT(*) AS n FROM contacts WHERE email = ?').get('kept@example.net') as { n: number }).n;

  it('every admin route but health needs it: 401 without, 401 wrong, 200 with the header or the inbox cookie', async () => {
    emu = await startServer({ adminToken: TOKEN });
    await addContact();
    const missing = await send(emu.url, 'POST', '/_emulator/reset');
    expect(missing).toEqual({ status: 401, body: { statusCode: 401, name: 'missing_admin_token', message: expect.any(String) } });
    expect((await send(emu.url, 'POST', '/_emulator/reset', { authorization: 'Bearer nope' })).body.name).toBe('invalid_admin_token');
    // An API key is not the admin token.
    expect((await send(emu.url, 'GET', '/_emulator/emails', { authorization: `Bearer ${emu.apiKey}` })).status).toBe(401);
    for (const path of ['/_emulator/emails', '/_emulator/teams', '/_emulator/clock', '/_emulator/snapshot', '/_emulator/webhook-deliveries', `/_emulator/teams/${FIXTURES.defaultTeamId}/contacts`, '/_emulator/events', '/_emulator/emails/latest/raw']) {
      expect((await send(emu.url, 'GET', path)).status, path).toBe(401);
    }
    expect((await send(emu.url, 'POST', '/_emulator/teams', { 'content-type': 'application/json' }, '{}')).status).toBe(401);
    expect(contactCount()).toBe(1);
    expect((await send(emu.url, 'GET', '/_emulator/health')).status).toBe(200);
    // The page holds no data: it loads, then asks for the token.
    const page = await send(emu.url, 'GET', '/_emulator/');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain(ADMIN_COOKIE);

    expect((await send(emu.url, 'GET', '/_emulator/clock', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await send(emu.url, 'GET', '/_emulator/clock', { cookie: `theme=dark; ${ADMIN_COOKIE}=${TOKEN}` })).status).toBe(200);
    expect((await send(emu.url, 'GET', '/_emulator/clock', { cookie: `${ADMIN_COOKIE}=wrong` })).status).toBe(401);
    expect((await send(emu.url, 'POST', '/_emulator/reset', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect(contactCount()).toBe(0);
  });

  it('the Origin and Host checks still apply with the token', async () => {
    emu = await startServer({ adminToken: TOKEN });
    expect((await send(emu.url, 'POST', '/_emulator/reset', { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await send(emu.url, 'GET', '/_emulator/clock', { authorization: `Bearer ${TOKEN}`, host: 'rebound.example' })).status).toBe(403);
  });

  it('the links the API hands out to others (attachment downloads) work without it; the email itself does not', async () => {
    emu = await startServer({ adminToken: TOKEN });
    const sent = await fetch(`${emu.url}/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'a@example.com', to: 'b@example.net', subject: 's', text: 't', attachments: [{ filename: 'a.txt', content: Buffer.from('hello').toString('base64') }] }),
    });
    const { id } = (await sent.json()) as { id: string };
    const list = (await (await fetch(`${emu.url}/emails/${id}/attachments`, { headers: { authorization: `Bearer ${emu.apiKey}` } })).json()) as { data: { download_url: string }[] };
    const download = await fetch(list.data[0].download_url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('hello');
    expect((await send(emu.url, 'GET', `/_emulator/emails/${id}`)).status).toBe(401);
  });

  it('the startServer() helpers keep working with it set', async () => {
    emu = await startServer({ adminToken: TOKEN });
    await addContact();
    await fetch(`${emu.url}/emails`, { method: 'POST', headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ from: 'a@example.com', to: 'b@example.net', subject: 'helpers', text: 't' }) });
    expect(emu.emails({ subject: 'helpers' })).toHaveLength(1);
    expect((await emu.waitForEmail({ subject: 'helpers' })).subject).toBe('helpers');
    await emu.clock.advance('5s');
    expect(emu.emails({ subject: 'helpers' })[0].last_event).toBe('delivered');
    expect(emu.webhookDeliveries()).toEqual([]);
    await emu.reset();
    expect(contactCount()).toBe(0);
  });
});

describe('resend-emulator/vitest with an admin token', () => {
  const v = useVitestEmulator({ adminToken: TOKEN });

  it('sends through the SDK, finds the email, advances the clock and resets', async () => {
    const { error } = await v.resend.emails.send({ from: 'a@example.com', to: 'ada@example.net', subject: 'Welcome', text: 'hi' });
    expect(error).toBeNull();
    expect(v).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });
    await v.clock.advance('5s');
    expect(v.emails({ to: 'ada@example.net' })[0].last_event).toBe('delivered');
    expect((await send(v.url, 'GET', '/_emulator/emails')).status).toBe(401);
    await v.reset();
    expect(v.emails({ to: 'ada@example.net' })).toEqual([]);
  });
});
