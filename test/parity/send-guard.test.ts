import { describe, expect, it } from 'vitest';
import { isTestAddress, sendRefusal } from '../../src/parity/send-guard.js';
import { operationOf } from '../../src/parity/compare.js';
import { REDACTED, redactEntry, redactText } from '../../src/parity/redact.js';
import type { ParityEntry } from '../../src/parity/har.js';

describe('what the recording proxy forwards (src/parity/send-guard.ts)', () => {
  it.each(['delivered@resend.dev', 'bounced+x@resend.dev', 'Complained@Resend.dev', 'suppressed@resend.dev', 'Me <delivered+signup@resend.dev>'])('%s is a test address', (a) => {
    expect(isTestAddress(a)).toBe(true);
  });

  it.each(['someone@example.com', 'suppressed+x@resend.dev', 'onboarding@resend.dev', 'delivered@resend.dev.example.com'])('%s is not', (a) => {
    expect(isTestAddress(a)).toBe(false);
  });

  it('forwards a send whose to, cc and bcc are all test addresses', () => {
    expect(sendRefusal('emails/send', { to: ['delivered@resend.dev'], cc: 'bounced@resend.dev', bcc: ['complained@resend.dev'] })).toBeNull();
  });

  it('refuses a send with one other recipient, naming it', () => {
    expect(sendRefusal('emails/send', { to: ['delivered@resend.dev'], bcc: 'boss@example.com' })).toContain('boss@example.com');
  });

  it('checks every email of a batch', () => {
    expect(sendRefusal('emails/send-batch', [{ to: 'delivered@resend.dev' }, { to: 'x@example.com' }])).toContain('x@example.com');
  });

  it.each(['broadcasts/send', 'events/send', 'inboxes/drafts/send'])('refuses %s, whose recipients it cannot check', (op) => {
    expect(sendRefusal(op, {})).toContain(op);
  });

  it('refuses a broadcast created with send: true', () => {
    expect(sendRefusal('broadcasts/create', { send: true })).not.toBeNull();
  });

  it.each([
    ['POST', '/broadcasts/b1/send'],
    ['POST', '/events/send'],
    ['POST', '/inboxes/i1/threads/t1/emails/e1/reply'],
    ['POST', '/inboxes/i1/threads/t1/emails/e1/forward'],
    ['POST', '/inboxes/i1/drafts/d1/send'],
  ])('refuses %s %s as the proxy reaches it (the route\'s operation is one the guard names)', async (method, path) => {
    expect(sendRefusal((await operationOf(method, path))?.operationId, {})).not.toBeNull();
  });

  it.each([
    ['POST', '/emails', { to: 'x@example.com' }],
    ['POST', '/email', { to: 'x@example.com' }],
    ['POST', '/emails/batch', [{ to: 'x@example.com' }]],
  ])('checks the recipients of %s %s as the proxy reaches it', async (method, path, body) => {
    expect(sendRefusal((await operationOf(method, path))?.operationId, body)).toContain('x@example.com');
  });

  it('forwards what sends nothing', () => {
    expect(sendRefusal('segments/create', { name: 'x', to: 'someone@example.com' })).toBeNull();
  });
});

describe('what a HAR never carries (src/parity/redact.ts)', () => {
  const entry = (): ParityEntry => ({
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url: 'https://api.example/api-keys',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'Authorization', value: 'Bearer re_live_secret_123' }, { name: 'content-type', value: 'application/json' }],
      queryString: [],
      postData: { mimeType: 'application/json', text: '{"name":"k","note":"my key is re_live_secret_123"}' },
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 201,
      statusText: 'Created',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'application/json', text: '{"id":"abc","token":"re_new_token_456","signing_secret":"whsec_abcdefgh"}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  });

  it('drops the Authorization header', () => {
    expect(redactEntry(entry()).request.headers.map((h) => h.name)).toEqual(['content-type']);
  });

  it('replaces a key named in a body', () => {
    expect(redactEntry(entry(), ['re_live_secret_123']).request.postData!.text).not.toContain('re_live_secret_123');
  });

  it('replaces tokens and secrets in an answer', () => {
    const text = redactEntry(entry()).response.content.text!;
    expect(JSON.parse(text)).toEqual({ id: 'abc', token: REDACTED, signing_secret: REDACTED });
  });

  it('replaces a re_ key in text that is not JSON', () => {
    expect(redactText('key=re_abcdefghijkl;')).toBe(`key=${REDACTED};`);
  });
});
