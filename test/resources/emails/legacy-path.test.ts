/**
 * `POST /email`, the path of the Node SDK's 0.x line, which published code
 * still pins (Strapi's provider, `resend` 0.11.1): served as an alias of
 * `POST /emails`, with the same body, rules, idempotency and answers
 * (docs/reference/transport.md#the-0x-sdks-path-email; issue 37).
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';

const BODY = { from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'Hi', html: '<p>Hi</p>' };

describe('POST /email (0.x SDKs)', () => {
  const t = useFreshEmulatorPerTest();

  it('sends the email: the answer is {id}, and the email is one of GET /emails', async () => {
    const res = await t.api.post('/email').send(BODY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id']);
    const got = await t.api.get(`/emails/${res.body.id}`);
    expect(got.body).toMatchObject({ subject: 'Hi', to: ['delivered@resend.dev'], html: '<p>Hi</p>' });
    expect((await t.api.get('/emails')).body.data.map((e: any) => e.id)).toContain(res.body.id);
  });

  it('refuses what POST /emails refuses, with the same error', async () => {
    const bad = { ...BODY, to: 'not an address' };
    const viaEmails = await t.api.post('/emails').send(bad);
    const viaEmail = await t.api.post('/email').send(bad);
    expect(viaEmails.status).toBeGreaterThanOrEqual(400);
    expect([viaEmail.status, viaEmail.body]).toEqual([viaEmails.status, viaEmails.body]);
  });

  it('applies the absent-values rule of POST /emails (Payload\'s "" for no cc)', async () => {
    const res = await t.api.post('/email').send({ ...BODY, cc: '', reply_to: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const viaEmails = await t.api.post('/emails').send({ ...BODY, cc: '', reply_to: null });
    const stored = async (id: string) => {
      const { cc, reply_to } = (await t.api.get(`/emails/${id}`).expect(200)).body;
      return { cc, reply_to };
    };
    // Stored as if never given, exactly as the same body through POST /emails is.
    expect(await stored(res.body.id)).toEqual(await stored(viaEmails.body.id));
    expect((await stored(res.body.id)).cc).not.toContain('');
  });

  it('honours an Idempotency-Key: the same key and body answer the first id, another body is 409', async () => {
    const first = await t.api.post('/email').set('Idempotency-Key', 'welcome/42').send(BODY);
    const again = await t.api.post('/email').set('Idempotency-Key', 'welcome/42').send(BODY);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await t.api.post('/email').set('Idempotency-Key', 'welcome/42').send({ ...BODY, subject: 'Other' });
    expect([other.status, other.body.name]).toEqual([409, 'invalid_idempotent_request']);
    expect((await t.api.get('/emails')).body.data).toHaveLength(1);
  });

  it('is open to a sending_access key, as POST /emails is', async () => {
    const key = (await t.api.post('/api-keys').send({ name: 'sender', permission: 'sending_access' })).body.token;
    const res = await t.anon.post('/email').set('Authorization', `Bearer ${key}`).send(BODY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('POST /email (0.x SDKs) on a plan', () => {
  const t = useFreshEmulatorPerTest({ plan: 'free' });

  it('counts against the quota and answers its headers, as POST /emails does', async () => {
    const a = await t.api.post('/emails').send(BODY);
    const b = await t.api.post('/email').send(BODY);
    expect(b.status).toBe(200);
    expect(Number(b.headers['x-resend-daily-quota'])).toBe(Number(a.headers['x-resend-daily-quota']) + 1);
    expect(Number(b.headers['x-resend-monthly-quota'])).toBe(Number(a.headers['x-resend-monthly-quota']) + 1);
  });
});
