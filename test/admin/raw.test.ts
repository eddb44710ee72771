/**
 * `GET /_emulator/emails/{id}/raw` (src/admin/raw.ts): the message parsed
 * back with postal-mime gives the fields the email was sent with.
 */
import { describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { PDF_BYTES } from '../resources/receiving/helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

describe('admin: raw message of a sent email', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  const raw = async (id: string) => {
    const res = await t.anon.get(`/_emulator/emails/${id}/raw`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('message/rfc822');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${id}.eml"`);
    return res.body as Buffer;
  };

  it('has every header, both bodies, attachments and inline images, and no Bcc', async () => {
    const sent = await t.api.post('/emails').send({
      from: 'Acme Support <support@example.com>',
      to: ['Ada <delivered+ada@resend.dev>', 'delivered+bob@resend.dev'],
      cc: 'delivered+cc@resend.dev',
      bcc: 'secret-auditor@example.org',
      reply_to: ['help@example.com'],
      subject: 'Your invoice ✓',
      html: '<p>Invoice attached. <img src="cid:logo"></p>',
      text: 'Invoice attached.',
      headers: { 'X-Entity-Ref-ID': 'inv-42' },
      attachments: [
        { filename: 'invoice.pdf', content: PDF_BYTES.toString('base64') },
        { filename: 'logo.png', content: PNG.toString('base64'), content_id: 'logo' },
      ],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await t.emu.clock.advance('5s');
    const email = (await t.anon.get(`/_emulator/emails/${sent.body.id}`)).body;
    const bytes = await raw(sent.body.id);
    const text = bytes.toString('utf8');
    expect(text).toMatch(/^MIME-Version: 1\.0\r$/m);
    expect(text).not.toMatch(/^Bcc:/im);
    expect(text).not.toContain('secret-auditor');
    expect(text).toContain('multipart/alternative');

    const parsed = await PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer' });
    expect(parsed.from).toEqual({ name: 'Acme Support', address: 'support@example.com' });
    expect(parsed.to).toEqual([{ name: 'Ada', address: 'delivered+ada@resend.dev' }, { name: '', address: 'delivered+bob@resend.dev' }]);
    expect(parsed.cc).toEqual([{ name: '', address: 'delivered+cc@resend.dev' }]);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.replyTo).toEqual([{ name: '', address: 'help@example.com' }]);
    expect(parsed.subject).toBe('Your invoice ✓');
    expect(parsed.messageId).toBe(email.message_id);
    const sentAt = email.events.find((e: any) => e.type === 'sent').at;
    expect(new Date(parsed.date!).getTime()).toBe(Math.floor(Date.parse(sentAt) / 1000) * 1000);
    expect(parsed.headers.find((h) => h.key === 'x-entity-ref-id')?.value).toBe('inv-42');
    expect(parsed.text?.trim()).toBe('Invoice attached.');
    expect(parsed.html?.trim()).toBe('<p>Invoice attached. <img src="cid:logo"></p>');
    const pdf = parsed.attachments.find((a) => a.filename === 'invoice.pdf')!;
    expect(pdf.mimeType).toBe('application/pdf');
    expect(pdf.disposition).toBe('attachment');
    expect(Buffer.compare(Buffer.from(pdf.content as ArrayBuffer), PDF_BYTES)).toBe(0);
    const logo = parsed.attachments.find((a) => a.filename === 'logo.png')!;
    expect(logo.contentId).toBe('<logo>');
    expect(logo.disposition).toBe('inline');
    expect(Buffer.compare(Buffer.from(logo.content as ArrayBuffer), PNG)).toBe(0);
  });

  it('keeps a nameless inline attachment nameless (no generated file name), with its Content-ID', async () => {
    const sent = await t.api.post('/emails').send({
      from: 'a@example.com', to: 'delivered@resend.dev', subject: 'Logo', html: '<img src="cid:logo@x">',
      attachments: [{ content: PNG.toString('base64'), content_type: 'image/png', content_id: 'logo@x' }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const bytes = await raw(sent.body.id);
    expect(bytes.toString('utf8')).not.toMatch(/name=/);
    const parsed = await PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer' });
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({ filename: null, mimeType: 'image/png', contentId: '<logo@x>', disposition: 'inline' });
    expect(Buffer.compare(Buffer.from(parsed.attachments[0].content as ArrayBuffer), PNG)).toBe(0);
  });

  it('dates an email not sent yet at its scheduled time; a text-only email is a single part', async () => {
    const at = new Date(t.emu.clock.now().getTime() + 3_600_000).toISOString();
    const sent = await t.api.post('/emails').send({ from: 'a@example.com', to: 'delivered@resend.dev', subject: 'Later', text: 'Later.', scheduled_at: at });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const bytes = await raw(sent.body.id);
    expect(bytes.toString('utf8')).not.toContain('multipart');
    const parsed = await PostalMime.parse(bytes);
    expect(new Date(parsed.date!).toISOString()).toBe(new Date(Math.floor(Date.parse(at) / 1000) * 1000).toISOString());
    expect(parsed.text?.trim()).toBe('Later.');
    expect(parsed.html).toBeUndefined();
  });

  it('carries List-Unsubscribe on a broadcast email', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
    expect((await t.api.post('/contacts').send({ email: 'ada@example.org', segments: [{ id: seg }] })).status).toBe(201);
    const b = await t.api.post('/broadcasts').send({ name: 'News', segment_id: seg, from: 'news@example.com', subject: 'News', html: '<p>Hi</p>' });
    expect(b.status).toBe(201);
    expect((await t.api.post(`/broadcasts/${b.body.id}/send`).send({})).status).toBe(200);
    await t.emu.clock.advance('1s');
    const [email] = t.emu.emails({ to: 'ada@example.org' });
    expect(email.broadcast_id).toBe(b.body.id);
    const parsed = await PostalMime.parse(await raw(email.id));
    const unsubscribe = parsed.headers.find((h) => h.key === 'list-unsubscribe')?.value;
    expect(unsubscribe).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/_emulator\/unsubscribe\/.+>$/);
    expect(parsed.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click');
  });

  it('answers 404 for an unknown email', async () => {
    const res = await t.anon.get('/_emulator/emails/nope/raw');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Email not found', name: 'not_found' });
  });
});
