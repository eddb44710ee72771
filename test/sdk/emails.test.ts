import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { FIXTURES } from '../helpers.js';

const FROM = 'Acme <hello@example.com>';

describe('official SDK: emails, batch, suppressions', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('emails.send / get / list, through the lifecycle', async () => {
    const resend = sdk();
    // An earlier email, so the list below has a second page (the fixtures hold none).
    expect((await resend.emails.send({ from: FROM, to: ['delivered@resend.dev'], subject: 'An earlier one', html: '<p>1</p>' })).error).toBeNull();
    const sent = await resend.emails.send({
      from: FROM, to: ['delivered@resend.dev'], subject: 'Hello from the SDK', html: '<strong>It works!</strong>',
      replyTo: 'support@example.com', tags: [{ name: 'kind', value: 'sdk' }], headers: { 'X-Entity-Ref-ID': '42' },
      attachments: [{ filename: 'note.txt', content: Buffer.from('hi there') }],
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;
    await emu.server.clock.advance('3s');
    const got = await resend.emails.get(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ object: 'email', id, subject: 'Hello from the SDK', last_event: 'delivered', reply_to: ['support@example.com'], tags: [{ name: 'kind', value: 'sdk' }] });
    expect(got.data!.text).toContain('It works!');
    const list = await resend.emails.list({ limit: 1 });
    expect(list.error).toBeNull();
    expect(list.data!.data.map((e) => e.id)).toEqual([id]);
    expect(list.data!.has_more).toBe(true);
    const atts = await resend.emails.attachments.list({ emailId: id });
    expect(atts.error).toBeNull();
    expect(atts.data!.data[0]).toMatchObject({ filename: 'note.txt', size: 8 });
    const att = await resend.emails.attachments.get({ emailId: id, id: atts.data!.data[0].id });
    expect(att.data).toMatchObject({ object: 'attachment', filename: 'note.txt' });
    expect(emu.server.emails({ subject: 'from the SDK' })[0].attachments[0].size).toBe(8);
  });

  it('emails.create (alias of send) and batch.create (alias of batch.send)', async () => {
    const resend = sdk();
    const one = await resend.emails.create({ from: FROM, to: ['delivered@resend.dev'], cc: 'cc@example.net', subject: 'created', text: 'plain body', tags: [{ name: 'via', value: 'create' }] });
    expect(one.error).toBeNull();
    expect(one.data).toEqual({ id: expect.any(String) });
    const got = await resend.emails.get(one.data!.id);
    expect(got.data).toMatchObject({ object: 'email', id: one.data!.id, from: FROM, to: ['delivered@resend.dev'], cc: ['cc@example.net'], subject: 'created', text: 'plain body', tags: [{ name: 'via', value: 'create' }] });

    const batch = await resend.batch.create([
      { from: FROM, to: 'delivered+a@resend.dev', subject: 'batch a', text: 'a' },
      { from: FROM, to: 'delivered+b@resend.dev', subject: 'batch b', html: '<p>b</p>' },
    ]);
    expect(batch.error).toBeNull();
    expect(batch.data).toEqual({ data: [{ id: expect.any(String) }, { id: expect.any(String) }] });
    const [a, b] = batch.data!.data;
    expect((await resend.emails.get(a.id)).data).toMatchObject({ subject: 'batch a', to: ['delivered+a@resend.dev'], text: 'a' });
    expect((await resend.emails.get(b.id)).data).toMatchObject({ subject: 'batch b', to: ['delivered+b@resend.dev'], html: '<p>b</p>' });
  });

  it('emails.send maps template, topicId, bcc, scheduledAt and attachment contentType/contentId', async () => {
    const resend = sdk();
    const TOPIC = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const at = new Date(emu.server.clock.now().getTime() + 3_600_000).toISOString();
    const sent = await resend.emails.send({
      from: FROM, to: 'delivered@resend.dev', bcc: ['b@example.net'], topicId: TOPIC, scheduledAt: at,
      template: { id: 'welcome', variables: { NAME: 'Ann' } },
      attachments: [{ filename: 'logo.png', content: Buffer.from('png'), contentType: 'image/png', contentId: 'logo' }],
    });
    expect(sent.error).toBeNull();
    const got = await resend.emails.get(sent.data!.id);
    expect(got.data).toMatchObject({
      subject: 'Welcome to Acme, Ann!', html: '<p>Hi Ann, thanks for signing up for the free plan.</p>',
      bcc: ['b@example.net'], last_event: 'scheduled', topic_id: TOPIC,
    });
    expect(new Date(got.data!.scheduled_at!.replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()).toBe(at);
    const atts = await resend.emails.attachments.list({ emailId: sent.data!.id, limit: 1 });
    expect(atts.data!.data).toEqual([expect.objectContaining({ filename: 'logo.png', content_type: 'image/png', content_id: 'logo', content_disposition: 'inline', size: 3 })]);
  });

  it('emails.metrics maps startDate, endDate, timezone, granularity, domainId and emailId', async () => {
    const resend = sdk();
    const sent = await resend.emails.send({ from: FROM, to: 'delivered@resend.dev', subject: 'metrics', text: 'x' });
    await emu.server.clock.advance('3s');
    const now = emu.server.clock.now();
    const day = now.toISOString().slice(0, 10);
    const byDay = await resend.emails.metrics({
      startDate: day, endDate: now.toISOString(), timezone: 'UTC', granularity: 'daily',
      metrics: ['sent', 'delivered'], dimensions: ['period', 'domain'], domainId: [FIXTURES.verifiedDomainId],
    });
    expect(byDay.error).toBeNull();
    expect(byDay.data).toMatchObject({ object: 'metrics', granularity: 'daily', dimensions: ['period', 'domain'], metrics: ['sent', 'delivered'], totals: { sent: 1, delivered: 1 } });
    expect(byDay.data!.start_date).toBe(`${day}T00:00:00.000Z`);
    expect(byDay.data!.data).toEqual([{ period: day, domain_id: FIXTURES.verifiedDomainId, domain_name: 'example.com', sent: 1, delivered: 1 }]);
    const byEmail = await resend.emails.metrics({ emailId: [sent.data!.id], metrics: ['delivered'], dimensions: ['email'] });
    expect(byEmail.data!.data).toEqual([{ email_id: sent.data!.id, delivered: 1 }]);
    const bad = await resend.emails.metrics({ granularity: 'day' as any });
    expect(bad.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });

  it('emails.send errors come back in the SDK error shape', async () => {
    const res = await sdk().emails.send({ from: 'me@x.com', to: 'delivered@resend.dev', subject: 's', text: 'x' });
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ statusCode: 403, name: 'validation_error', message: 'The `x.com` domain is not verified. Please, add and verify your domain.' });
  });

  it('emails.send with idempotencyKey sends once', async () => {
    const resend = sdk();
    const body = { from: FROM, to: 'delivered@resend.dev', subject: 'once', text: 'x' };
    const a = await resend.emails.send(body, { idempotencyKey: 'signup/42' });
    const b = await resend.emails.send(body, { idempotencyKey: 'signup/42' });
    expect(b.data).toEqual(a.data);
    expect(emu.server.emails({ subject: 'once' })).toHaveLength(1);
  });

  it('emails.update and emails.cancel a scheduled email', async () => {
    const resend = sdk();
    const sent = await resend.emails.send({ from: FROM, to: 'delivered@resend.dev', subject: 'later', text: 'x', scheduledAt: 'in 1 hour' });
    const id = sent.data!.id;
    expect((await resend.emails.get(id)).data!.last_event).toBe('scheduled');
    const upd = await resend.emails.update({ id, scheduledAt: new Date(emu.server.clock.now().getTime() + 7_200_000).toISOString() });
    expect(upd.error).toBeNull();
    expect(upd.data).toEqual({ object: 'email', id });
    const cancel = await resend.emails.cancel(id);
    expect(cancel.error).toBeNull();
    expect(cancel.data).toEqual({ object: 'email', id });
    await emu.server.clock.advance('3h');
    expect((await resend.emails.get(id)).data!.last_event).toBe('canceled');
  });

  it('batch.send, strict and permissive', async () => {
    const resend = sdk();
    const ok = await resend.batch.send([
      { from: FROM, to: 'delivered+1@resend.dev', subject: 'b1', text: 'x' },
      { from: FROM, to: 'delivered+2@resend.dev', subject: 'b2', text: 'x' },
    ]);
    expect(ok.error).toBeNull();
    expect(ok.data!.data).toHaveLength(2);
    const strict = await resend.batch.send([
      { from: FROM, to: 'delivered+1@resend.dev', subject: 'b3', text: 'x' },
      { from: 'me@x.com', to: 'delivered+2@resend.dev', subject: 'b4', text: 'x' },
    ]);
    expect(strict.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
    const permissive = await resend.batch.send(
      [
        { from: FROM, to: 'delivered+1@resend.dev', subject: 'b5', text: 'x' },
        { from: 'me@x.com', to: 'delivered+2@resend.dev', subject: 'b6', text: 'x' },
      ],
      { batchValidation: 'permissive' },
    );
    expect(permissive.error).toBeNull();
    expect(permissive.data!.data).toHaveLength(1);
    expect(permissive.data!.errors).toEqual([{ index: 1, message: expect.stringContaining('x.com') }]);
  });

  it('emails.share and emails.metrics', async () => {
    const resend = sdk();
    const sent = await resend.emails.send({ from: FROM, to: 'delivered@resend.dev', subject: 'share me', text: 'x' });
    const share = await resend.emails.share(sent.data!.id, { expiresIn: '1 hour' });
    expect(share.error).toBeNull();
    expect(share.data).toMatchObject({ object: 'email', id: sent.data!.id });
    await emu.server.clock.advance('3s');
    const m = await resend.emails.metrics({ metrics: ['sent', 'delivered'], dimensions: ['email'] });
    expect(m.error).toBeNull();
    expect(m.data!.totals).toEqual({ sent: 1, delivered: 1 });
    expect(m.data!.data).toEqual([{ email_id: sent.data!.id, sent: 1, delivered: 1 }]);
  });

  it('suppressions.add / get / list / remove and batch add / remove', async () => {
    const resend = sdk();
    const add = await resend.suppressions.add({ email: 'someone+x@example.net' });
    expect(add.error).toBeNull();
    const got = await resend.suppressions.get('someone+x@example.net');
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ object: 'suppression', id: add.data!.id, origin: 'manual', source_id: null });
    const batch = await resend.suppressions.batch.add({ emails: ['p@example.net', 'q@example.net'] });
    expect(batch.data!.data).toEqual([{ object: 'suppression', id: expect.any(String) }, { object: 'suppression', id: expect.any(String) }]);
    const list = await resend.suppressions.list({ origin: 'manual' });
    expect(list.data!.data.map((s) => s.email)).toEqual(['q@example.net', 'p@example.net', 'someone+x@example.net']);
    const rm = await resend.suppressions.remove(add.data!.id);
    expect(rm.data).toEqual({ object: 'suppression', id: add.data!.id, deleted: true });
    const rmBatch = await resend.suppressions.batch.remove({ emails: ['p@example.net', 'q@example.net'] });
    expect(rmBatch.data!.data.map((d) => d.deleted)).toEqual([true, true]);
    const missing = await resend.suppressions.get('someone+x@example.net');
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    // A suppressed address is not mailed.
    await resend.suppressions.add({ email: FIXTURES.ownerEmail });
    const s = await resend.emails.send({ from: FROM, to: FIXTURES.ownerEmail, subject: 'x', text: 'x' });
    await emu.server.clock.advance('3s');
    expect((await resend.emails.get(s.data!.id)).data!.last_event).toBe('suppressed');
  });
});
