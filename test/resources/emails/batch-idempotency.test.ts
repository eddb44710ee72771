import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const FROM = 'Acme <hello@example.com>';
const item = (i: number, extra: Record<string, unknown> = {}) => ({ from: FROM, to: `delivered+${i}@resend.dev`, subject: `n${i}`, text: 'x', ...extra });

describe('POST /emails/batch', () => {
  const t = useFreshEmulatorPerTest();
  const count = async () => (await t.api.get('/emails?limit=100')).body.data.length;

  it('sends up to 100 emails, ids in input order, all queued', async () => {
    const before = await count();
    const res = await t.api.post('/emails/batch').send([item(1), item(2), item(3)]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ id: expect.any(String) }, { id: expect.any(String) }, { id: expect.any(String) }] });
    for (const [i, { id }] of res.body.data.entries()) {
      const got = await t.api.get(`/emails/${id}`);
      expect(got.body.subject).toBe(`n${i + 1}`);
      expect(got.body.last_event).toBe('queued');
    }
    expect(await count()).toBe(before + 3);
    await t.emu.clock.advance('3s');
    expect((await t.api.get(`/emails/${res.body.data[0].id}`)).body.last_event).toBe('delivered');
  });

  it('refuses more than 100 emails and an empty batch (422)', async () => {
    const big = await t.api.post('/emails/batch').send(Array.from({ length: 101 }, (_, i) => item(i)));
    expect(big.status).toBe(422);
    expect(big.body.name).toBe('validation_error');
    expect((await t.api.post('/emails/batch').send([])).status).toBe(422);
  });

  it('strict (default): one bad item fails the whole batch and nothing is sent', async () => {
    const before = await count();
    const res = await t.api.post('/emails/batch').send([item(1), item(2, { from: 'me@x.com' })]);
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('validation_error');
    const missing = await t.api.post('/emails/batch').set('x-batch-validation', 'strict').send([item(1), { from: FROM, subject: 's' }]);
    expect(missing.status).toBe(422);
    expect(missing.body.name).toBe('missing_required_field');
    expect(await count()).toBe(before);
  });

  it('refuses attachments in a batch', async () => {
    const res = await t.api.post('/emails/batch').send([item(1, { attachments: [{ filename: 'a.txt', content: 'eA==' }] })]);
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toContain('Attachments');
  });

  it('permissive: valid items are sent, bad ones reported by index', async () => {
    const before = await count();
    const res = await t.api
      .post('/emails/batch')
      .set('x-batch-validation', 'permissive')
      .send([item(0), item(1, { from: 'me@x.com' }), item(2), { from: FROM, to: 'bad', subject: 's' }, item(4, { tags: [{ name: 'a b', value: 'c' }] })]);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.errors).toEqual([
      { index: 1, message: 'The `x.com` domain is not verified. Please, add and verify your domain.' },
      { index: 3, message: expect.stringContaining('`to`') },
      { index: 4, message: expect.stringContaining('tags[0].name') },
    ]);
    expect(await count()).toBe(before + 2);
    const subjects = await Promise.all(res.body.data.map(async (d: any) => (await t.api.get(`/emails/${d.id}`)).body.subject));
    expect(subjects).toEqual(['n0', 'n2']);
  });

  it('refuses an unknown x-batch-validation value', async () => {
    const res = await t.api.post('/emails/batch').set('x-batch-validation', 'lenient').send([item(1)]);
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
  });
});

describe('Idempotency-Key', () => {
  const t = useFreshEmulatorPerTest();
  const count = async () => (await t.api.get('/emails?limit=100')).body.data.length;
  const body = { from: FROM, to: 'delivered@resend.dev', subject: 'once', text: 'x' };

  it('same key and body within 24 h answer the first response, with no second email', async () => {
    const before = await count();
    const a = await t.api.post('/emails').set('Idempotency-Key', 'welcome-user-1').send(body);
    expect(a.status).toBe(200);
    const b = await t.api.post('/emails').set('Idempotency-Key', 'welcome-user-1').send({ text: 'x', subject: 'once', to: 'delivered@resend.dev', from: FROM });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await count()).toBe(before + 1);
    await t.emu.clock.advance('23h');
    expect((await t.api.post('/emails').set('Idempotency-Key', 'welcome-user-1').send(body)).body).toEqual(a.body);
    expect(await count()).toBe(before + 1);
  });

  it('after 24 h the key is free again', async () => {
    const a = await t.api.post('/emails').set('Idempotency-Key', 'k').send(body);
    await t.emu.clock.advance('24h');
    const b = await t.api.post('/emails').set('Idempotency-Key', 'k').send(body);
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('same key with another body → 409 invalid_idempotent_request', async () => {
    await t.api.post('/emails').set('Idempotency-Key', 'k2').send(body);
    const res = await t.api.post('/emails').set('Idempotency-Key', 'k2').send({ ...body, subject: 'other' });
    expect(res.status).toBe(409);
    expect(res.body.name).toBe('invalid_idempotent_request');
  });

  it('an empty key or one over 256 characters → 400 invalid_idempotency_key', async () => {
    const empty = await t.api.post('/emails').set('Idempotency-Key', '').send(body);
    expect(empty.status).toBe(400);
    expect(empty.body.name).toBe('invalid_idempotency_key');
    const long = await t.api.post('/emails').set('Idempotency-Key', 'k'.repeat(257)).send(body);
    expect(long.status).toBe(400);
    expect(long.body.name).toBe('invalid_idempotency_key');
    expect((await t.api.post('/emails').set('Idempotency-Key', 'k'.repeat(256)).send(body)).status).toBe(200);
  });

  it('does not remember failed requests, and keys are per team', async () => {
    const bad = await t.api.post('/emails').set('Idempotency-Key', 'k3').send({ ...body, from: 'me@x.com' });
    expect(bad.status).toBe(403);
    const ok = await t.api.post('/emails').set('Idempotency-Key', 'k3').send(body);
    expect(ok.status).toBe(200);
    const other = await t.as(FIXTURES.secondTeamKey).post('/emails').set('Idempotency-Key', 'k3').send({ ...body, from: 'me@claimable.dev' });
    expect(other.status).toBe(200);
    expect(other.body.id).not.toBe(ok.body.id);
  });

  it('works on /emails/batch', async () => {
    const batch = [body, { ...body, subject: 'twice' }];
    const a = await t.api.post('/emails/batch').set('Idempotency-Key', 'b1').send(batch);
    const before = await count();
    const b = await t.api.post('/emails/batch').set('Idempotency-Key', 'b1').send(batch);
    expect(b.body).toEqual(a.body);
    expect(await count()).toBe(before);
    expect((await t.api.post('/emails/batch').set('Idempotency-Key', 'b1').send([body])).status).toBe(409);
  });
});
