/**
 * What clients built on the other SDKs send (spec `AttachmentContent`,
 * src/resources/emails/send.ts `attachmentBytes`): attachment `content` as
 * Base64, as an array of byte values (Python `list(f.read())`, Ruby
 * `file.bytes`) or as a JSON-serialised Node Buffer; `inline_content_id`
 * (Python's older name of `content_id`); `[]` for no `cc`/`bcc`/`reply_to`.
 */
import { describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { Resend } from 'resend';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { attachmentBytes } from '../../../src/resources/emails/send.js';

const FROM = 'Acme <hello@example.com>';
const BYTES = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80, 0x0a, 0x7f]);

/** Attachments sorted by file name (the list's order is not the point here). */
const byName = <T extends Record<string, any>>(list: T[]): T[] => [...list].sort((a: any, b: any) => String(a.filename).localeCompare(String(b.filename)));

function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

describe('attachment content forms', () => {
  const t = useFreshEmulatorPerTest();
  const send = (body: Record<string, unknown>) => t.api.post('/emails').send(body);

  it('stores Base64, a byte array and a Buffer-shaped object as the same bytes, downloadable and in /raw', async () => {
    const res = await send({
      from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x',
      attachments: [
        { filename: 'b64.bin', content: BYTES.toString('base64') },
        { filename: 'array.bin', content: [...BYTES] },
        { filename: 'buffer.bin', content: JSON.parse(JSON.stringify(BYTES)) },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = byName((await t.api.get(`/emails/${res.body.id}/attachments`)).body.data);
    expect(list.map((a: any) => [a.filename, a.size])).toEqual([['array.bin', 9], ['b64.bin', 9], ['buffer.bin', 9]]);
    for (const a of list) {
      const download = await t.anon.get(new URL(a.download_url).pathname).buffer(true).parse(binary);
      expect(download.status).toBe(200);
      expect(Buffer.compare(download.body, BYTES), a.filename).toBe(0);
    }
    const raw = await t.anon.get(`/_emulator/emails/${res.body.id}/raw`).buffer(true).parse(binary);
    const parsed = await PostalMime.parse(raw.body, { attachmentEncoding: 'arraybuffer' });
    expect(byName(parsed.attachments).map((a) => [a.filename, Buffer.compare(Buffer.from(a.content as ArrayBuffer), BYTES)])).toEqual([
      ['array.bin', 0], ['b64.bin', 0], ['buffer.bin', 0],
    ]);
  });

  it('decodes every form to the same bytes, so each counts the same toward the 40 MB limit', () => {
    const forms = [BYTES.toString('base64'), [...BYTES], { type: 'Buffer' as const, data: [...BYTES] }];
    for (const form of forms) expect(Buffer.compare(attachmentBytes(form), BYTES)).toBe(0);
    expect(attachmentBytes([]).length).toBe(0);
  });

  it('refuses a bad byte array or object with 400 validation_error naming the field', async () => {
    const before = (await t.api.get('/emails')).body.data.length;
    const cases: [unknown, string][] = [
      [[1, 256], 'attachments[0].content'],
      [[1, -1], 'attachments[0].content'],
      [[1, 2.5], 'attachments[0].content'],
      [[1, '2'], 'attachments[0].content'],
      [{ type: 'Blob', data: [1] }, 'attachments[0].content'],
      [{ type: 'Buffer', data: 'AQ==' }, 'attachments[0].content'],
      [{ type: 'Buffer', data: [1], extra: 1 }, 'attachments[0].content'],
      [42, 'attachments[0].content'],
      [true, 'attachments[0].content'],
    ];
    for (const [content, field] of cases) {
      const res = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', attachments: [{ filename: 'a.bin', content }] });
      expect(res.status, JSON.stringify(content)).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, name: 'validation_error', message: expect.stringContaining(`\`${field}\``) });
    }
    expect((await t.api.get('/emails')).body.data.length).toBe(before);
  });

  it('takes a Node Buffer through the official SDK (its `content?: string | Buffer`)', async () => {
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url } as any);
    const { data, error } = await resend.emails.send({
      from: FROM, to: 'delivered@resend.dev', subject: 'Invoice', text: 'x',
      attachments: [{ filename: 'invoice.pdf', content: BYTES }],
    });
    expect(error).toBeNull();
    const list = (await t.api.get(`/emails/${data!.id}/attachments`)).body.data;
    expect(list).toMatchObject([{ filename: 'invoice.pdf', size: 9, content_type: 'application/pdf' }]);
  });

  it('honours `inline_content_id` as `content_id` (content_id wins when both are given)', async () => {
    const res = await send({
      from: FROM, to: 'delivered@resend.dev', subject: 's', html: '<img src="cid:logo">',
      attachments: [
        { filename: 'logo.png', content: [...BYTES], inline_content_id: 'logo' },
        { filename: 'both.png', content: [...BYTES], inline_content_id: 'old', content_id: 'new' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = byName((await t.api.get(`/emails/${res.body.id}/attachments`)).body.data);
    expect(list).toMatchObject([
      { filename: 'both.png', content_id: 'new', content_disposition: 'inline' },
      { filename: 'logo.png', content_id: 'logo', content_disposition: 'inline' },
    ]);
    const raw = await t.anon.get(`/_emulator/emails/${res.body.id}/raw`).buffer(true).parse(binary);
    const parsed = await PostalMime.parse(raw.body);
    expect(parsed.attachments.find((a) => a.filename === 'logo.png')?.contentId).toBe('<logo>');
  });

  it('takes `[]` for `cc`, `bcc` and `reply_to` as none', async () => {
    const res = await send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', cc: [], bcc: [], reply_to: [] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = (await t.api.get(`/emails/${res.body.id}`)).body;
    expect(got).toMatchObject({ cc: [], bcc: [], reply_to: [] });
    const batch = await t.api.post('/emails/batch').send([{ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', cc: [], bcc: [], reply_to: [] }]);
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    // `to` keeps its minimum of one address.
    expect((await send({ from: FROM, to: [], subject: 's', text: 'x' })).status).toBe(422);
  });
});
