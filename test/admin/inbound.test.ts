import { describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';
import { PDF_BYTES, postJson, postRaw, rawMessage } from '../resources/receiving/helpers.js';
import { busOf } from '../../src/internals.js';

/** Reads a binary response body into a Buffer (supertest parses only known types). */
function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

describe('POST /_emulator/inbound', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('takes a raw message as text/plain too, without an API key', async () => {
    const res = await postRaw(t, rawMessage({ subject: 'Plain' }), 'text/plain');
    expect(res.status).toBe(201);
    expect(res.body.team_id).toBe(FIXTURES.defaultTeamId);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.body.subject).toBe('Plain');
    expect(one.body.attachments).toHaveLength(1);
  });

  it('uses rcpt_to as the envelope: recipients not in To/Cc become bcc', async () => {
    const res = await postRaw(t, rawMessage({ to: 'list@lists.test' }), 'message/rfc822', '?rcpt_to=me@example.com');
    expect(res.status).toBe(201);
    expect(res.body.received_for).toEqual(['me@example.com']);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.body.to).toEqual(['list@lists.test']);
    expect(one.body.bcc).toEqual(['me@example.com']);
    const bad = await postRaw(t, rawMessage(), 'message/rfc822', '?rcpt_to=not-an-address');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('rcpt_to');
  });

  it('serves the message as received at raw.download_url', async () => {
    const sent = rawMessage({ subject: 'Raw bytes' });
    const res = await postRaw(t, sent);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    const dl = await t.anon.get(new URL(one.body.raw.download_url).pathname).buffer(true).parse(binary);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('message/rfc822');
    expect((dl.body as Buffer).toString('utf8')).toBe(sent);
  });

  it('writes JSON fields as a MIME message that parses back to them', async () => {
    const res = await postJson(t, {
      from: 'Zoë <zoe@sender.test>', to: 'in@example.com', subject: 'Ünïcode ✓', text: 'plain ✓', html: '<p>html ✓</p>',
      message_id: '<fixed-id@sender.test>',
      attachments: [{ filename: 'report.pdf', content: PDF_BYTES.toString('base64'), content_type: 'application/pdf' }],
    });
    expect(res.status).toBe(201);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.body).toMatchObject({ from: 'Zoë <zoe@sender.test>', subject: 'Ünïcode ✓', text: 'plain ✓', html: '<p>html ✓</p>', message_id: '<fixed-id@sender.test>' });
    const dl = await t.anon.get(new URL(one.body.raw.download_url).pathname).buffer(true).parse(binary);
    const parsed = await PostalMime.parse(dl.body as Buffer, { attachmentEncoding: 'arraybuffer' });
    expect(parsed.subject).toBe('Ünïcode ✓');
    expect(parsed.messageId).toBe('<fixed-id@sender.test>');
    expect(Buffer.compare(Buffer.from(parsed.attachments[0].content as ArrayBuffer), PDF_BYTES)).toBe(0);
  });

  it('keeps every attachment of the JSON form, those with a content_id (inline) too (issue 13, defect 8)', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await postJson(t, {
      from: 'a@sender.test', to: 'in@example.com', subject: 'cid', html: '<p><img src="cid:logo"></p>', text: 'logo',
      attachments: [
        { filename: 'logo.png', content: png.toString('base64'), content_type: 'image/png', content_id: 'logo' },
        { filename: 'report.pdf', content: PDF_BYTES.toString('base64'), content_type: 'application/pdf' },
        { filename: 'sig.png', content: png.toString('base64'), content_type: 'image/png', content_id: '<sig@x>', content_disposition: 'inline' },
        { filename: 'notes.txt', content: Buffer.from('inline notes').toString('base64'), content_id: 'notes' },
        { filename: 'part.html', content: Buffer.from('<b>part</b>').toString('base64'), content_type: 'text/html', content_id: 'part', content_disposition: 'inline' },
      ],
    });
    expect(res.status).toBe(201);
    const list = await t.api.get(`/emails/receiving/${res.body.id}/attachments`);
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.data.map((a: any) => [a.filename, a]));
    expect(Object.keys(byName).sort()).toEqual(['logo.png', 'notes.txt', 'part.html', 'report.pdf', 'sig.png']);
    expect(byName['notes.txt']).toMatchObject({ content_type: 'text/plain', content_id: 'notes', content_disposition: 'inline', size: 12 });
    expect(byName['part.html']).toMatchObject({ content_type: 'text/html', content_id: 'part', content_disposition: 'inline' });
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.body.text).toBe('logo');
    expect(one.body.html).not.toContain('part');
    expect(byName['logo.png']).toMatchObject({ content_type: 'image/png', content_id: 'logo', content_disposition: 'inline', size: png.length });
    expect(byName['sig.png']).toMatchObject({ content_id: 'sig@x', content_disposition: 'inline' });
    expect(byName['report.pdf']).toMatchObject({ content_disposition: 'attachment', size: PDF_BYTES.length });
    const dl = await t.anon.get(new URL(byName['logo.png'].download_url).pathname).buffer(true).parse(binary);
    expect(Buffer.compare(dl.body as Buffer, png)).toBe(0);
  });

  it('validates the JSON form', async () => {
    const missing = await postJson(t, { to: 'in@example.com', subject: 's' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ statusCode: 422, message: 'Missing `from` field.', name: 'missing_required_field' });
    const badTo = await postJson(t, { from: 'a@sender.test', to: 'not an address', subject: 's' });
    expect(badTo.status).toBe(422);
    expect(badTo.body.message).toContain('`to`');
    const badB64 = await postJson(t, { from: 'a@sender.test', to: 'in@example.com', subject: 's', attachments: [{ filename: 'a.bin', content: 'not base64!' }] });
    expect(badB64.status).toBe(422);
    expect(badB64.body).toEqual({
      statusCode: 422,
      message: 'The `attachments[0].content` field must be base64, an array of byte values (integers 0 to 255) or a Buffer (`{"type":"Buffer","data":[...]}`).',
      name: 'invalid_attachment',
    });
    const badBytes = await postJson(t, { from: 'a@sender.test', to: 'in@example.com', subject: 's', attachments: [{ filename: 'a.bin', content: [1, 300] }] });
    expect(badBytes.status).toBe(422);
    expect(badBytes.body.name).toBe('invalid_attachment');
    expect((await t.api.get('/emails/receiving')).body.data).toHaveLength(0);
  });

  it('takes attachment content as base64, a byte array or a Buffer as JSON, as POST /emails does', async () => {
    const bytes = [0x25, 0x50, 0x44, 0x46, 0x00, 0xff];
    const res = await postJson(t, {
      from: 'a@sender.test', to: 'in@example.com', subject: 'forms', text: 'x',
      attachments: [
        { filename: 'b64.bin', content: Buffer.from(bytes).toString('base64') },
        { filename: 'array.bin', content: bytes },
        { filename: 'buffer.bin', content: { type: 'Buffer', data: bytes } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const list = (await t.api.get(`/emails/receiving/${res.body.id}/attachments`)).body.data;
    expect(list.map((a: any) => [a.filename, a.size]).sort()).toEqual([['array.bin', 6], ['b64.bin', 6], ['buffer.bin', 6]]);
  });

  it('refuses a raw message without a From address or recipients', async () => {
    const noFrom = await postRaw(t, 'To: in@example.com\r\nSubject: x\r\n\r\nbody');
    expect(noFrom.status).toBe(422);
    expect(noFrom.body.message).toContain('From');
    const noTo = await postRaw(t, 'From: a@sender.test\r\nSubject: x\r\n\r\nbody');
    expect(noTo.status).toBe(422);
    expect(noTo.body.message).toContain('recipients');
  });

  it('emits inbound on the bus with the new id', async () => {
    const seen: string[] = [];
    busOf(t.emu).on('inbound', (id: string) => seen.push(id));
    const res = await postRaw(t, rawMessage());
    expect(seen).toEqual([res.body.id]);
  });

  it('answers 404 for unknown downloads', async () => {
    const att = await t.anon.get('/_emulator/inbound/attachments/7f1c9f3e-4b2a-4c6d-8e9f-0a1b2c3d4e5f');
    expect(att.status).toBe(404);
    expect(att.body.name).toBe('not_found');
    const raw = await t.anon.get('/_emulator/inbound/emails/7f1c9f3e-4b2a-4c6d-8e9f-0a1b2c3d4e5f/raw');
    expect(raw.status).toBe(404);
  });

  it('keeps received emails through a snapshot round trip', async () => {
    const res = await postRaw(t, rawMessage());
    const snap = await t.anon.get('/_emulator/snapshot');
    await t.emu.reset();
    expect((await t.api.get('/emails/receiving')).body.data).toHaveLength(0);
    expect((await t.anon.post('/_emulator/snapshot').send(snap.body)).status).toBe(200);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    const dl = await t.anon.get(new URL((await t.api.get(`/emails/receiving/${res.body.id}/attachments`)).body.data[0].download_url).pathname).buffer(true).parse(binary);
    expect(one.body.subject).toBe('Invoice attached');
    expect(Buffer.compare(dl.body as Buffer, PDF_BYTES)).toBe(0);
  });
});
