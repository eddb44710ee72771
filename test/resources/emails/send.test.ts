import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const FROM = 'Acme <hello@example.com>';

describe('POST /emails', () => {
  const t = useFreshEmulatorPerTest();

  const send = (body: Record<string, unknown>) => t.api.post('/emails').send(body);
  const expectError = (res: any, status: number, name: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toEqual({ statusCode: status, message: expect.any(String), name });
  };

  it('accepts every field of a send and stores it', async () => {
    const res = await send({
      from: FROM,
      to: ['delivered@resend.dev', 'Bob <delivered+bob@resend.dev>'],
      cc: 'delivered+cc@resend.dev',
      bcc: ['delivered+bcc@resend.dev'],
      reply_to: 'support@example.com',
      subject: 'Hello',
      html: '<p>Hi <a href="https://example.com/x">there</a></p>',
      headers: { 'X-Entity-Ref-ID': '123' },
      tags: [{ name: 'category', value: 'confirm_email' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const got = await t.api.get(`/emails/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      object: 'email',
      id: res.body.id,
      from: FROM,
      to: ['delivered@resend.dev', 'Bob <delivered+bob@resend.dev>'],
      cc: ['delivered+cc@resend.dev'],
      bcc: ['delivered+bcc@resend.dev'],
      reply_to: ['support@example.com'],
      subject: 'Hello',
      last_event: 'queued',
      scheduled_at: null,
      tags: [{ name: 'category', value: 'confirm_email' }],
    });
    expect(got.body.text).toContain('Hi there');
    expect(got.body.text).toContain('https://example.com/x');
    expect(got.body.message_id).toMatch(/^<.+@example\.com>$/);
  });

  it('keeps a given text, and `text: ""` opts out of the generated one', async () => {
    const a = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', html: '<b>x</b>', text: 'plain' });
    expect((await t.api.get(`/emails/${a.body.id}`)).body.text).toBe('plain');
    const b = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', html: '<b>x</b>', text: '' });
    expect((await t.api.get(`/emails/${b.body.id}`)).body.text).toBeNull();
  });

  it('requires to, from and subject', async () => {
    expectError(await send({ from: FROM, subject: 's', html: 'x' }), 422, 'missing_required_field');
    const noFrom = await send({ to: 'delivered@resend.dev', subject: 's', html: 'x' });
    expectError(noFrom, 422, 'missing_required_field');
    expect(noFrom.body.message).toBe('Missing `from` field.');
    const noSubject = await send({ from: FROM, to: 'delivered@resend.dev', html: 'x' });
    expect(noSubject.body.message).toBe('Missing `subject` field.');
  });

  it('rejects malformed addresses with 422 validation_error', async () => {
    expectError(await send({ from: 'not an address', to: 'delivered@resend.dev', subject: 's' }), 422, 'validation_error');
    const badTo = await send({ from: FROM, to: ['delivered@resend.dev', 'nope'], subject: 's' });
    expectError(badTo, 422, 'validation_error');
    expect(badTo.body.message).toContain('`to`');
    expectError(await send({ from: FROM, to: 'delivered@resend.dev', cc: 'x@', subject: 's' }), 422, 'validation_error');
  });

  it('allows at most 50 recipients in `to`', async () => {
    const to = Array.from({ length: 51 }, (_, i) => `delivered+${i}@resend.dev`);
    const res = await send({ from: FROM, to, subject: 's', text: 'x' });
    expectError(res, 422, 'validation_error');
    expect(res.body.message).toContain('50');
    expect((await send({ from: FROM, to: to.slice(0, 50), subject: 's', text: 'x' })).status).toBe(200);
  });

  it('checks tags: [A-Za-z0-9_-], at most 256 characters', async () => {
    const bad = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', tags: [{ name: 'has space', value: 'x' }] });
    expectError(bad, 422, 'validation_error');
    expect(bad.body.message).toContain('tags[0].name');
    expectError(await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', tags: [{ name: 'ok', value: 'é' }] }), 422, 'validation_error');
    expectError(await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', tags: [{ name: 'a'.repeat(257), value: 'v' }] }), 422, 'validation_error');
    expect((await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', tags: [{ name: 'a'.repeat(256), value: 'A-b_9' }] })).status).toBe(200);
  });

  it('refuses a `from` domain that is not a verified domain of the team (403)', async () => {
    const res = await send({ from: 'me@x.com', to: 'delivered@resend.dev', subject: 's' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, name: 'validation_error', message: 'The `x.com` domain is not verified. Please, add and verify your domain.' });
    const created = await t.api.post('/domains').send({ name: 'fresh.example.org' });
    expect(created.status).toBe(201);
    const pending = await send({ from: 'me@fresh.example.org', to: 'delivered@resend.dev', subject: 's' });
    expect(pending.status).toBe(403);
    expect(pending.body.message).toContain('`fresh.example.org`');
    // Another team's verified domain is not ours.
    expect((await send({ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 's' })).status).toBe(403);
  });

  it('lets onboarding@resend.dev mail only the owner and @resend.dev addresses', async () => {
    const owner = await send({ from: 'Acme <onboarding@resend.dev>', to: FIXTURES.ownerEmail, subject: 's', text: 'x' });
    expect(owner.status).toBe(200);
    expect((await send({ from: 'onboarding@resend.dev', to: ['delivered@resend.dev', 'OWNER@example.com'], subject: 's' })).status).toBe(200);
    const stranger = await send({ from: 'onboarding@resend.dev', to: 'someone@gmail.com', subject: 's' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.name).toBe('validation_error');
    expect(stranger.body.message).toContain(FIXTURES.ownerEmail);
    expect((await send({ from: 'onboarding@resend.dev', to: FIXTURES.ownerEmail, bcc: 'spy@gmail.com', subject: 's' })).status).toBe(403);
  });

  it('lets a sending_access key send, only from the domain it is restricted to', async () => {
    const open = await t.api.post('/api-keys').send({ name: 's', permission: 'sending_access' });
    const sender = t.as(open.body.token);
    expect((await sender.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's' })).status).toBe(200);
    expect((await sender.get('/emails')).status).toBe(401);

    const bound = await t.api.post('/api-keys').send({ name: 'b', permission: 'sending_access', domain_id: FIXTURES.verifiedDomainId });
    const b = t.as(bound.body.token);
    expect((await b.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's' })).status).toBe(200);
    const other = await b.post('/emails').send({ from: 'onboarding@resend.dev', to: FIXTURES.ownerEmail, subject: 's' });
    expect(other.status).toBe(403);
    expect(other.body.name).toBe('validation_error');

    const dom = await t.api.post('/domains').send({ name: 'other.example.org' });
    const restricted = await t.api.post('/api-keys').send({ name: 'r', permission: 'sending_access', domain_id: dom.body.id });
    const r = await t.as(restricted.body.token).post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's' });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('other.example.org');
  });

  it('takes attachments by content (base64) or path, else 422 invalid_attachment', async () => {
    const res = await send({
      from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x',
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 hello').toString('base64') },
        { path: 'https://files.example.com/report.csv' },
        { filename: 'logo.png', content: Buffer.from('png').toString('base64'), content_id: 'logo' },
      ],
    });
    expect(res.status).toBe(200);
    const list = await t.api.get(`/emails/${res.body.id}/attachments`);
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.data.map((a: any) => [a.filename, a]));
    expect(byName['invoice.pdf']).toMatchObject({ content_type: 'application/pdf', size: 14, content_disposition: 'attachment' });
    expect(byName['invoice.pdf']).not.toHaveProperty('content_id');
    expect(byName['report.csv']).toMatchObject({ content_type: 'text/csv', download_url: 'https://files.example.com/report.csv' });
    expect(byName['logo.png']).toMatchObject({ content_type: 'image/png', content_disposition: 'inline', content_id: 'logo' });
    const one = await t.api.get(`/emails/${res.body.id}/attachments/${byName['invoice.pdf'].id}`);
    expect(one.body).toMatchObject({ object: 'attachment', id: byName['invoice.pdf'].id, filename: 'invoice.pdf' });
    const download = await t.anon.get(new URL(one.body.download_url).pathname);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toContain('application/pdf');
    expect(Buffer.from(download.body).toString()).toBe('%PDF-1.4 hello');

    const missing = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', attachments: [{ filename: 'a.txt' }] });
    expectError(missing, 422, 'invalid_attachment');
    const notB64 = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', attachments: [{ filename: 'a.txt', content: 'not base64!' }] });
    expectError(notB64, 422, 'invalid_attachment');
    expect((await t.api.get(`/emails/${res.body.id}/attachments/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a`)).status).toBe(404);
  });

  it('downloads attachments with non-ASCII and control-character names (RFC 5987 filename*); refuses invalid content types (issue 13, defect 4)', async () => {
    const content = Buffer.from('hello').toString('base64');
    const names = ['請求書.pdf', 'nul\u0000.txt', 'quote"back\\slash.txt', 'plain.txt'];
    const res = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', attachments: names.map((filename) => ({ filename, content })) });
    expect(res.status).toBe(200);
    const list = await t.api.get(`/emails/${res.body.id}/attachments`);
    for (const name of names) {
      const a = list.body.data.find((x: any) => x.filename === name);
      expect(a, name).toBeDefined();
      const download = await t.anon.get(new URL(a.download_url).pathname).responseType('blob');
      expect(download.status, name).toBe(200);
      expect(Buffer.from(download.body).toString()).toBe('hello');
      const disposition = String(download.headers['content-disposition']);
      if (name === 'plain.txt') expect(disposition).toBe('attachment; filename="plain.txt"');
      else expect(disposition).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    }
    for (const content_type of ['text/plain; charset=✓', 'text/plain\r\nX-Injected: 1', 'not a type', 'text/']) {
      const bad = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', attachments: [{ filename: 'a.txt', content, content_type }] });
      expectError(bad, 422, 'invalid_attachment');
    }
    const ok = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', attachments: [{ filename: 'a.txt', content, content_type: 'text/plain; charset="utf-8"' }] });
    expect(ok.status).toBe(200);
  });

  it('schedules with ISO 8601 or natural language, at most 30 days ahead', async () => {
    const iso = new Date(t.emu.clock.now().getTime() + 3_600_000).toISOString();
    const a = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', scheduled_at: iso });
    expect(a.status).toBe(200);
    const got = await t.api.get(`/emails/${a.body.id}`);
    expect(got.body.last_event).toBe('scheduled');
    expect(Date.parse(got.body.scheduled_at.replace(' ', 'T').replace('+00', 'Z'))).toBe(Date.parse(iso));

    const b = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', scheduled_at: 'in 2 hours' });
    const gb = await t.api.get(`/emails/${b.body.id}`);
    expect(Date.parse(gb.body.scheduled_at.replace(' ', 'T').replace('+00', 'Z'))).toBe(t.emu.clock.now().getTime() + 7_200_000);

    expectError(await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', scheduled_at: 'next blue moon' }), 422, 'validation_error');
    expectError(await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', scheduled_at: 'in 31 days' }), 422, 'validation_error');
    expect((await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', scheduled_at: 'in 29 days' })).status).toBe(200);
  });

  it('refuses template together with html or text', async () => {
    const res = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', html: '<p>x</p>', template: { id: 'welcome' } });
    expectError(res, 422, 'validation_error');
    expect(res.body.message).toContain('template');
  });

  it("never shows another team's emails", async () => {
    const res = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's' });
    const other = t.as(FIXTURES.secondTeamKey);
    const got = await other.get(`/emails/${res.body.id}`);
    expect(got.status).toBe(404);
    expect(got.body).toEqual({ statusCode: 404, message: 'Email not found', name: 'not_found' });
    expect((await other.get('/emails')).body.data.map((e: any) => e.id)).not.toContain(res.body.id);
  });
});
