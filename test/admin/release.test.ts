/**
 * Releasing a stored email to a real mail server (issue 39 item 4):
 * `POST /_emulator/emails/{id}/release` `{to}` through `--relay`
 * (`startServer({ relay, relayAllow })`), against an SMTP server the test
 * starts on 127.0.0.1 (./smtp-sink.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { FIXTURES, client } from '../helpers.js';
import { startSink, type Sink } from './smtp-sink.js';

const FROM = `Acme <hello@${FIXTURES.verifiedDomain}>`;
let sink: Sink;
let emu: EmulatorServer | undefined;
beforeEach(async () => {
  sink = await startSink({ refuse: 'nobody@example.org' });
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  await sink.close();
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  emu = await startServer({ validateResponses: true, ...options });
  const api = client(emu.url, emu.apiKey);
  const admin = client(emu.url);
  const id = (await api.post('/emails').send({ from: FROM, to: ['delivered@resend.dev'], cc: 'cc@example.org', subject: 'Release me', html: '<p>Hello <b>there</b></p>', text: 'Hello there' }).expect(200)).body.id as string;
  return { api, admin, id };
}

describe('POST /_emulator/emails/{id}/release', () => {
  it('without a relay answers 409 relay_not_configured, naming the flag', async () => {
    const { admin, id } = await start();
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(409);
    expect(res.body).toEqual({ statusCode: 409, name: 'relay_not_configured', message: expect.stringContaining('--relay smtp://user:pass@host:port') });
    expect(sink.messages).toEqual([]);
  });

  it('sends the stored raw message as GET .../raw builds it, and answers the relay and its reply', async () => {
    const { admin, id } = await start({ relay: sink.url() });
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(200);
    expect(res.body).toEqual({ object: 'email_release', id, to: ['me@example.org'], relay: `127.0.0.1:${sink.port}`, response: expect.stringContaining('250') });
    const raw = (await admin.get(`/_emulator/emails/${id}/raw`).buffer(true).parse((r, cb) => { let s = ''; r.setEncoding('utf8'); r.on('data', (c: string) => (s += c)); r.on('end', () => cb(null, s)); }).expect(200)).body as string;
    expect(sink.messages).toHaveLength(1);
    // The same builder makes both: equal but for the MIME boundary, drawn at random each time.
    const same = (m: string) => m.replace(/_NmP-[0-9a-f]+-Part_/g, '_NmP-BOUNDARY-Part_').replace(/\r\n$/, '');
    expect(same(sink.messages[0]!.raw)).toBe(same(raw));
    expect(raw).toContain('Subject: Release me');
  });

  it("uses the email's From as the envelope sender and only the typed address as recipient (not its To or Cc)", async () => {
    const { admin, id } = await start({ relay: sink.url() });
    await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'Me <me@example.org>' }).expect(200);
    expect(sink.messages.map((m) => [m.from, m.to])).toEqual([[`hello@${FIXTURES.verifiedDomain}`, ['me@example.org']]]);
  });

  it('upgrades to TLS with STARTTLS when the server offers it, and logs in with the URL user', async () => {
    const { admin, id } = await start({ relay: sink.url('alice', 'pw') });
    await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(200);
    expect(sink.messages.map((m) => [m.secure, m.user])).toEqual([[true, 'alice']]);
  });

  it('never relays on its own: a send and the whole lifecycle reach the relay with nothing', async () => {
    const { api } = await start({ relay: sink.url() });
    await api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Not relayed', text: 'x' }).expect(200);
    await emu!.clock.advance('1m');
    expect(sink.messages).toEqual([]);
  });

  it('refuses an address outside --relay-allow (403 recipient_not_allowed) and sends nothing', async () => {
    const { admin, id } = await start({ relay: sink.url(), relayAllow: ['*@example.com', 'me@x.org'] });
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: ['me@x.org', 'me@example.org'] }).expect(403);
    expect(res.body).toEqual({ statusCode: 403, name: 'recipient_not_allowed', message: expect.stringContaining('me@example.org is not allowed by --relay-allow (*@example.com, me@x.org)') });
    expect(sink.messages).toEqual([]);
  });

  it('sends to addresses the allow-list matches (patterns, any case)', async () => {
    const { admin, id } = await start({ relay: sink.url(), relayAllow: ['*@example.com', 'me@x.org'] });
    await admin.post(`/_emulator/emails/${id}/release`).send({ to: ['Dev@Example.com', 'me@x.org'] }).expect(200);
    expect(sink.messages[0]!.to.map((a) => a.toLowerCase())).toEqual(['dev@example.com', 'me@x.org']);
  });

  it('answers 422 validation_error for a `to` that is not an address', async () => {
    const { admin, id } = await start({ relay: sink.url() });
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'not an address' }).expect(422);
    expect(res.body.name).toBe('validation_error');
  });

  it("answers 502 relay_failed with the server's reply when it refuses the recipient", async () => {
    const { admin, id } = await start({ relay: sink.url() });
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'nobody@example.org' }).expect(502);
    expect(res.body).toEqual({ statusCode: 502, name: 'relay_failed', message: expect.stringMatching(/^The relay 127\.0\.0\.1:\d+ did not take the message: .*550/) });
  });

  it('answers 502 relay_failed when the relay cannot be reached', async () => {
    const closed = sink.port;
    await sink.close();
    sink = await startSink();
    const { admin, id } = await start({ relay: `smtp://127.0.0.1:${closed}` });
    const res = await admin.post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(502);
    expect(res.body.name).toBe('relay_failed');
    expect(res.body.message).toContain(`127.0.0.1:${closed}`);
  });

  it('answers 404 for an unknown email', async () => {
    const { admin } = await start({ relay: sink.url() });
    await admin.post('/_emulator/emails/4ef9a417-02e9-4d39-ad75-9611e0fcc33c/release').send({ to: 'me@example.org' }).expect(404);
  });

  it('is guarded by --admin-token like every admin route', async () => {
    const { id } = await start({ relay: sink.url(), adminToken: 'secret-token-123' });
    expect((await client(emu!.url).post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(401)).body.name).toBe('missing_admin_token');
    await client(emu!.url, 'secret-token-123').post(`/_emulator/emails/${id}/release`).send({ to: 'me@example.org' }).expect(200);
    expect(sink.messages).toHaveLength(1);
  });
});

describe('startServer({ relay })', () => {
  it('throws a TypeError for a relay that is not an smtp:// or smtps:// URL', async () => {
    await expect(startServer({ relay: 'http://example.org' })).rejects.toThrow(/must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});
