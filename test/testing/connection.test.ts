/**
 * src/testing/connection.ts: the same calls over an emulator started
 * in-process (`localConnection`) and over a running one's admin API
 * (`remoteConnection`, here pointed at a `startServer()` of this file):
 * emails, deliveries, `waitForEmail` on the `wait` long-poll (the email is
 * sent after the wait began), `code` and `link` with their failures, reset,
 * the admin token and an unreachable URL. Plus `structuralEquals`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { DEFAULT_TIMEOUT_MS, localConnection, remoteConnection, WaitTimeoutError, type EmulatorConnection } from '../../src/testing/connection.js';
import { WaitTimeoutError as CoreWaitTimeoutError, DEFAULT_TIMEOUT_MS as CORE_DEFAULT_TIMEOUT_MS } from '../../src/index.js';
import { structuralEquals } from '../../src/testing/matchers.js';

let server: EmulatorServer;
let guarded: EmulatorServer;
let resend: Resend;

beforeAll(async () => {
  server = await startServer({ webhooks: 'record' });
  guarded = await startServer({ adminToken: 'admin-secret' });
  resend = new Resend(server.apiKey, { baseUrl: server.url });
});
afterAll(async () => {
  await server.close();
  await guarded.close();
});
beforeEach(() => server.reset());

async function send(to: string, subject: string, html: string) {
  const { data, error } = await resend.emails.send({ from: 'Acme <hello@example.com>', to, subject, html });
  expect(error).toBeNull();
  return data!.id;
}

const HTML = '<p>Your code is 482913.</p><p><a href="https://app.example.com/verify?token=abc">Verify</a> or <a href="https://app.example.com/help">help</a></p>';

describe.each([
  ['localConnection', () => localConnection(server)],
  ['remoteConnection', () => remoteConnection(`${server.url}/`)],
])('%s', (_name, connect: () => EmulatorConnection) => {
  it('hands the URL and key, the emails (filtered, newest first) and the deliveries', async () => {
    const conn = connect();
    expect(conn.url).toBe(server.url);
    expect(conn.apiKey).toBe('re_emulator_default_key');
    await send('ada@example.net', 'First', '<p>1</p>');
    const id = await send('ada@example.net', 'Second', '<p>2</p>');
    expect((await conn.emails({ to: 'ADA@' })).map((e) => e.subject)).toEqual(['Second', 'First']);
    expect((await conn.emails({ subject: 'second' }))[0].id).toBe(id);
    await resend.webhooks.create({ endpoint: 'https://hooks.example.net/in', events: ['email.sent'] });
    await send('grace@example.net', 'Third', '<p>3</p>');
    await server.clock.advance('10s');
    // All three are sent (1 s after queued) during the advance, after the webhook exists.
    const sent = await conn.webhookDeliveries({ event_type: 'email.sent', status: 'recorded' });
    expect(sent.map((d) => d.payload.data.subject).sort()).toEqual(['First', 'Second', 'Third']);
    expect(await conn.webhookDeliveries({ event_type: 'email.bounced' })).toEqual([]);
  });

  it('waitForEmail resolves when the email arrives after the wait began, and rejects on timeout', async () => {
    const conn = connect();
    const waiting = conn.waitForEmail({ to: 'late@example.net' }, { timeout: 5000 });
    const id = await send('late@example.net', 'Late', '<p>hi</p>');
    await expect(waiting).resolves.toMatchObject({ id, subject: 'Late' });
    await expect(conn.waitForEmail({ to: 'nobody@example.net' }, { timeout: 50 })).rejects.toThrow('waitForEmail: no email matched {"to":"nobody@example.net"} within 50 ms');
    // One error class for a timeout, in-process or over the admin API: what the Playwright matcher checks with instanceof.
    const timedOut = await conn.waitForEmail({ to: 'nobody@example.net' }, { timeout: 20 }).catch((err: unknown) => err);
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    expect(timedOut).toMatchObject({ name: 'WaitTimeoutError', timeoutMs: 20, filter: { to: 'nobody@example.net' } });
    // Any other failure is not one.
    await expect(conn.waitForEmail({ subjct: 'x' } as never, { timeout: 20 }).catch((err: unknown) => err)).resolves.not.toBeInstanceOf(WaitTimeoutError);
  });

  it('code and link read the newest matching email, or say why not', async () => {
    const conn = connect();
    await send('ada@example.net', 'Sign in', HTML);
    expect(await conn.code({ to: 'ada@example.net' })).toBe('482913');
    expect(await conn.link({ to: 'ada@example.net' })).toBe('https://app.example.com/verify?token=abc');
    expect(await conn.link({ to: 'ada@example.net' }, '/help')).toBe('https://app.example.com/help');
    expect(await conn.link({ to: 'ada@example.net' }, /token=\w+$/g)).toBe('https://app.example.com/verify?token=abc');
    await expect(conn.link({ to: 'ada@example.net' }, 'unsubscribe')).rejects.toThrow(/has no link containing "unsubscribe"; its links: \["https:\/\/app\.example\.com\/verify\?token=abc","https:\/\/app\.example\.com\/help"\]/);
    await send('bob@example.net', 'Hello', '<p>No digits here.</p>');
    await expect(conn.code({ to: 'bob@example.net' })).rejects.toThrow(/^code: the newest email matching \{"to":"bob@example.net"\} \(\S+ "Hello"\) holds no one-time code; its text: "No digits here\."$/);
  });

  it('rejects a misspelt filter key with a TypeError, and reset() puts the fixtures back', async () => {
    const conn = connect();
    await expect(conn.emails({ subjct: 'x' } as never)).rejects.toThrow(TypeError);
    await expect(conn.emails({ subjct: 'x' } as never)).rejects.toThrow('unknown email filter key "subjct" (did you mean "subject"?)');
    await send('ada@example.net', 'Gone after reset', '<p>hi</p>');
    await conn.reset();
    expect(await conn.emails({ to: 'ada@example.net' })).toEqual([]);
  });
});

describe('remoteConnection', () => {
  it('is null-server, sends the admin token, and names the URL it cannot reach', async () => {
    expect(remoteConnection(server.url).server).toBeNull();
    expect(localConnection(server).server).toBe(server);
    await expect(remoteConnection(guarded.url).emails()).rejects.toThrow(new RegExp(`^GET ${guarded.url}/_emulator/emails: 401 `));
    expect(await remoteConnection(guarded.url, { adminToken: 'admin-secret', apiKey: 're_other' }).emails({ to: 'nobody@example.net' })).toEqual([]);
    expect(remoteConnection(guarded.url, { apiKey: 're_other' }).apiKey).toBe('re_other');
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    await expect(remoteConnection(url).emails()).rejects.toThrow(`cannot reach the emulator at ${url} (EMULATOR_URL / RESEND_BASE_URL)`);
  });
});

describe('WaitTimeoutError and DEFAULT_TIMEOUT_MS', () => {
  it('are the same ones from the main entry and the testing core', () => {
    expect(WaitTimeoutError).toBe(CoreWaitTimeoutError);
    expect(DEFAULT_TIMEOUT_MS).toBe(CORE_DEFAULT_TIMEOUT_MS);
    expect(DEFAULT_TIMEOUT_MS).toBe(5000);
  });
});

describe('structuralEquals', () => {
  it('compares JSON values deeply', () => {
    expect(structuralEquals({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(structuralEquals({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(structuralEquals({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(structuralEquals([1], { 0: 1 })).toBe(false);
    expect(structuralEquals(null, {})).toBe(false);
  });
});
