/**
 * `buildMime`: the JSON form of the admin inbound composed by nodemailer's
 * MailComposer and read back by the parser; a fixtures email's raw message
 * composed on its first download.
 */
import { describe, expect, it } from 'vitest';
import { buildMime, parseMessage, type InboundJson } from '../../../src/resources/receiving/mime.js';
import { PDF_BYTES } from './helpers.js';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

const PNG = Buffer.from('\x89PNG\r\n\x1a\nnot really', 'latin1');
const AT = Date.UTC(2026, 0, 2, 3, 4, 5);

/** Inputs that reach every shape of tree `buildMime` makes. */
const INPUTS: Record<string, InboundJson> = {
  'text only': { from: 'a@sender.test', to: 'b@example.com', subject: 'Hi', text: 'Hello' },
  'no body at all': { from: 'a@sender.test', to: 'b@example.com', subject: 'Empty' },
  'html only, non-ASCII': { from: 'Zoë <z@sender.test>', to: ['b@example.com'], subject: 'Grüße ✓', html: '<p>Grüße aus Köln</p>' },
  'text and html with a long line': { from: 'a@sender.test', to: 'b@example.com', subject: 's', text: 'x'.repeat(300), html: '<p>hi</p>' },
  'attachments, inline and not': {
    from: 'a@sender.test', to: 'b@example.com', cc: 'C <c@example.com>', reply_to: 'r@sender.test', subject: 'files',
    text: 't', html: '<img src="cid:logo">',
    attachments: [
      { filename: 'invoice.pdf', content: PDF_BYTES.toString('base64') },
      { filename: 'logo.png', content: [...PNG], content_id: 'logo' },
      { filename: 'notes.txt', content: { type: 'Buffer', data: [...Buffer.from('line one\r\nline two\n')] }, content_disposition: 'inline' },
      { filename: 'résumé.pdf', content: 'JVBERg==' },
    ],
  },
  'attachment without a body': { from: 'a@sender.test', to: 'b@example.com', subject: 's', attachments: [{ filename: 'a.csv', content: 'YSxi' }] },
};

describe('buildMime', () => {
  for (const [name, input] of Object.entries(INPUTS)) {
    it(`composes a message the parser reads back with its sender, subject and MIME-Version: ${name}`, async () => {
      const { raw, messageId } = await buildMime(input, AT);
      expect(raw.toString('latin1')).toMatch(/^MIME-Version: 1\.0\r$/m);
      expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
      const parsed = await parseMessage(raw);
      expect(parsed).toMatchObject({ subject: input.subject, messageId });
      expect(parsed.fromAddress).toBe(input.from.replace(/^.*<|>$/g, ''));
    });
  }

  it('gives the Message-ID it wrote: message_id first, else a Message-ID header, else a generated one on the sender domain', async () => {
    const given = await buildMime({ ...INPUTS['text only'], message_id: '<given@sender.test>', headers: { 'Message-ID': '<header@sender.test>' } }, AT);
    expect(given.messageId).toBe('<given@sender.test>');
    expect((await parseMessage(given.raw)).messageId).toBe('<given@sender.test>');
    const fromHeader = await buildMime({ ...INPUTS['text only'], headers: { 'message-id': '<header@sender.test>' } }, AT);
    expect(fromHeader.messageId).toBe('<header@sender.test>');
    const generated = await buildMime(INPUTS['text only'], AT);
    expect(generated.messageId).toMatch(/^<[^<>@\s]+@sender\.test>$/);
    expect((await parseMessage(generated.raw)).messageId).toBe(generated.messageId);
  });

  it('dates the message with the emulated time, unless a Date header is given', async () => {
    expect((await buildMime(INPUTS['text only'], AT)).raw.toString()).toMatch(/^Date: Fri, 02 Jan 2026 03:04:05 \+0000\r$/m);
    const custom = await buildMime({ ...INPUTS['text only'], headers: { Date: 'Mon, 01 Jan 2024 00:00:00 +0000' } }, AT);
    expect(custom.raw.toString()).toMatch(/^Date: Mon, 01 Jan 2024 00:00:00 \+0000\r$/m);
  });

  it('writes no Bcc header, and keeps custom headers but never one that would replace a structural header', async () => {
    const { raw } = await buildMime({ ...INPUTS['text only'], bcc: 'hidden@example.com', headers: { 'X-Ticket': 'Nº 42', 'In-Reply-To': '<p@x>', Subject: 'forged', 'Content-Type': 'text/html', 'bad name': 'x' } }, AT);
    const text = raw.toString();
    expect(text).not.toMatch(/^Bcc:/im);
    expect(text).not.toContain('hidden@example.com');
    expect(text).not.toContain('forged');
    expect(text).not.toMatch(/^bad name:/m);
    const parsed = await parseMessage(raw);
    expect(parsed.subject).toBe('Hi');
    expect(parsed.headers['x-ticket']).toBe('Nº 42');
    expect(parsed.headers['in-reply-to']).toBe('<p@x>');
    expect(parsed.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('puts a line break of a header value on one line', async () => {
    const parsed = await parseMessage((await buildMime({ ...INPUTS['text only'], subject: 'one\r\ntwo', headers: { 'X-Note': 'a\nInjected: yes' } }, AT)).raw);
    expect(parsed.subject).toBe('one two');
    expect(parsed.headers['x-note']).toBe('a Injected: yes');
    expect(parsed.headers['injected']).toBeUndefined();
  });

  it('reads back names, non-ASCII text and every attachment with its bytes, type, disposition and Content-ID', async () => {
    const parsed = await parseMessage((await buildMime(INPUTS['attachments, inline and not'], AT)).raw);
    expect(parsed.fromHeader).toBe('a@sender.test');
    expect(parsed.cc).toEqual(['c@example.com']);
    expect(parsed.replyTo).toEqual(['r@sender.test']);
    // The inline text/plain attachment reads as more body text (why the JSON form stores `givenParts` instead).
    expect(parsed.html).toMatch(/^<img src="cid:logo">\n/);
    const byName = Object.fromEntries(parsed.attachments.map((a) => [a.filename, a]));
    expect(byName['invoice.pdf']).toMatchObject({ contentType: 'application/pdf', disposition: 'attachment', contentId: null });
    expect(byName['invoice.pdf'].content.equals(PDF_BYTES)).toBe(true);
    expect(byName['logo.png']).toMatchObject({ contentType: 'image/png', disposition: 'inline', contentId: 'logo' });
    expect(byName['logo.png'].content.equals(PNG)).toBe(true);
    expect(byName['résumé.pdf'].content.toString('latin1')).toBe('%PDF');
    const html = await parseMessage((await buildMime(INPUTS['html only, non-ASCII'], AT)).raw);
    expect(html).toMatchObject({ fromHeader: 'Zoë <z@sender.test>', subject: 'Grüße ✓' });
    // The part's last line break is the one before the end of the message, which a parser keeps.
    expect(html.html?.trimEnd()).toBe('<p>Grüße aus Köln</p>');
  });

  it('refuses an invalid address with 422 validation_error naming the field', async () => {
    await expect(buildMime({ ...INPUTS['text only'], to: 'not an address' }, AT)).rejects.toMatchObject({ statusCode: 422, name: 'validation_error', message: expect.stringContaining('`to`') });
  });
});

describe("a fixtures inbox email's raw message", () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });
  // The demo fixtures' shared-inbox thread email (fixtures/demo.json).
  const ID = '8f9a0b1c-3d4e-4f6a-8b7c-8d9e0f1a2b03';
  const stored = () => storeOf(t.emu).prepare('SELECT raw, message_id FROM received_emails WHERE id = ?').get(ID) as { raw: string; message_id: string };
  const download = async () => {
    const res = await t.anon.get(`/_emulator/inbound/emails/${ID}/raw`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('message/rfc822');
    return res.body as Buffer;
  };

  it('is not composed when the fixtures are seeded (start-up composes no MIME)', () => {
    expect(stored()).toEqual({ raw: '', message_id: '<order-question@example.org>' });
  });

  it('is composed on its first download from the stored fields, dated at its received time', async () => {
    const parsed = await parseMessage(await download());
    expect(parsed).toMatchObject({ fromHeader: 'Alice <alice@example.org>', to: ['shared@example.com'], subject: 'Where is my order?', messageId: '<order-question@example.org>' });
    expect(parsed.text?.trim()).toBe('Hi, my order has not arrived yet.');
    expect(parsed.headers.date).toBe('Mon, 05 Jan 2026 08:30:00 +0000');
  });

  it('is kept once composed: every download gives the same bytes', async () => {
    const first = await download();
    expect(Buffer.from(stored().raw, 'base64').equals(first)).toBe(true);
    expect((await download()).equals(first)).toBe(true);
  });
});
