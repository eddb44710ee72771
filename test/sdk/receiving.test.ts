import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { FIXTURES, client } from '../helpers.js';
import { PDF_BYTES, postJson, postRaw, rawMessage } from '../resources/receiving/helpers.js';

describe('SDK: resend.emails.receiving', () => {
  const emu = useEmulator({ validateResponses: true, webhooks: 'record' });
  const sdk = () => emu.resend;
  /** Admin calls without a key (the inbound injection). */
  const t = { get anon() { return client(emu.url); } };

  it('lists and gets received emails', async () => {
    const a = await postRaw(t, rawMessage());
    await emu.server.clock.advance('1s');
    const b = await postJson(t, { from: 'b@sender.test', to: 'hello@example.com', subject: 'Second', text: 'hi' });
    const resend = sdk();

    const list = await resend.emails.receiving.list();
    expect(list.error).toBeNull();
    expect(list.data!.object).toBe('list');
    expect(list.data!.has_more).toBe(false);
    expect(list.data!.data.map((e) => e.id)).toEqual([b.body.id, a.body.id]);
    expect(list.data!.data[1]).toMatchObject({ from: 'Ada Lovelace <ada@sender.test>', subject: 'Invoice attached', to: ['support@example.com'] });

    const page = await resend.emails.receiving.list({ limit: 1 });
    expect(page.data!.has_more).toBe(true);
    const rest = await resend.emails.receiving.list({ limit: 1, after: page.data!.data[0].id });
    expect(rest.data!.data.map((e) => e.id)).toEqual([a.body.id]);

    const one = await resend.emails.receiving.get(a.body.id);
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({ object: 'email', id: a.body.id, message_id: '<raw-1@sender.test>', received_for: ['support@example.com'] });
    expect(one.data!.text).toContain('invoice attached');
    expect(one.data!.headers!['x-custom-header']).toBe('hello');
    expect(one.data!.attachments[0]).toMatchObject({ filename: 'invoice.pdf', size: PDF_BYTES.length, content_type: 'application/pdf' });
  });

  it('passes html_format through', async () => {
    const png = Buffer.from('png-bytes').toString('base64');
    const res = await postJson(t, { from: 'a@sender.test', to: 'in@example.com', subject: 'img', html: '<img src="cid:pic">', attachments: [{ filename: 'p.png', content: png, content_id: 'pic' }] });
    const resend = sdk();
    expect((await resend.emails.receiving.get(res.body.id)).data!.html).toBe(`<img src="data:image/png;base64,${png}">`);
    expect((await resend.emails.receiving.get(res.body.id, { html_format: 'cid' })).data!.html).toBe('<img src="cid:pic">');
  });

  it('lists and gets attachments, whose download_url serves the bytes', async () => {
    const res = await postRaw(t, rawMessage());
    const resend = sdk();
    const list = await resend.emails.receiving.attachments.list({ emailId: res.body.id });
    expect(list.error).toBeNull();
    expect(list.data!.data).toHaveLength(1);
    const item = list.data!.data[0];
    expect(item).toMatchObject({ filename: 'invoice.pdf', content_type: 'application/pdf', content_disposition: 'attachment', size: PDF_BYTES.length });

    const one = await resend.emails.receiving.attachments.get({ emailId: res.body.id, id: item.id });
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({ object: 'attachment', id: item.id, download_url: item.download_url });
    const bytes = Buffer.from(await (await fetch(one.data!.download_url)).arrayBuffer());
    expect(Buffer.compare(bytes, PDF_BYTES)).toBe(0);
  });

  it('forward (passthrough) re-sends the received content and attachments', async () => {
    const rec = await postRaw(t, rawMessage());
    const resend = sdk();
    const fwd = await resend.emails.receiving.forward({ emailId: rec.body.id, to: 'delivered@resend.dev', from: 'Support <support@example.com>' });
    expect(fwd.error).toBeNull();
    expect(fwd.data).toEqual({ id: expect.any(String) });
    const sent = await resend.emails.get(fwd.data!.id);
    expect(sent.data).toMatchObject({ object: 'email', id: fwd.data!.id, from: 'Support <support@example.com>', to: ['delivered@resend.dev'], subject: 'Invoice attached' });
    expect(sent.data!.text).toContain('Please find the invoice attached.');
    expect(sent.data!.html).toContain('<b>invoice</b>');
    const atts = await resend.emails.attachments.list({ emailId: fwd.data!.id });
    expect(atts.data!.data).toHaveLength(1);
    expect(atts.data!.data[0]).toMatchObject({ filename: 'invoice.pdf', content_type: 'application/pdf', size: PDF_BYTES.length });
    const bytes = Buffer.from(await (await fetch(atts.data!.data[0].download_url)).arrayBuffer());
    expect(Buffer.compare(bytes, PDF_BYTES)).toBe(0);
  });

  it('forward with passthrough: false wraps the original as message/rfc822', async () => {
    const rec = await postRaw(t, rawMessage());
    const resend = sdk();
    const fwd = await resend.emails.receiving.forward({ emailId: rec.body.id, to: ['delivered@resend.dev'], from: 'support@example.com', passthrough: false, text: 'FYI, see below.' });
    expect(fwd.error).toBeNull();
    expect(fwd.data).toEqual({ id: expect.any(String) });
    const sent = await resend.emails.get(fwd.data!.id);
    expect(sent.data).toMatchObject({ from: 'support@example.com', to: ['delivered@resend.dev'], subject: 'Fwd: Invoice attached', text: 'FYI, see below.' });
    const atts = await resend.emails.attachments.list({ emailId: fwd.data!.id });
    expect(atts.data!.data).toEqual([expect.objectContaining({ filename: 'forwarded_message.eml', content_type: 'message/rfc822' })]);
    const eml = Buffer.from(await (await fetch(atts.data!.data[0].download_url)).arrayBuffer()).toString('utf8');
    expect(eml).toBe(rawMessage());
    const missing = await resend.emails.receiving.forward({ emailId: '00000000-0000-4000-8000-000000000000', to: 'a@b.test', from: 'support@example.com' });
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Email not found' });
  });

  it('forward (both modes) of a received email whose inline part has no filename forwards every stored attachment, that one nameless (issue 27)', async () => {
    // An HTML mail with an inline image referenced by Content-ID and no name (no `filename`, no `name`), and a named PDF.
    const png = Buffer.from('\x89PNG\r\n\x1a\nnameless', 'latin1');
    const raw = [
      'From: ada@sender.test', 'To: support@example.com', 'Subject: Logo inside', 'Message-ID: <inline-1@sender.test>', 'MIME-Version: 1.0',
      'Content-Type: multipart/related; boundary="rel"', '',
      '--rel', 'Content-Type: text/html; charset=utf-8', '', '<p>Logo: <img src="cid:logo@x"></p>',
      '--rel', 'Content-Type: image/png', 'Content-Disposition: inline', 'Content-ID: <logo@x>', 'Content-Transfer-Encoding: base64', '', png.toString('base64'),
      '--rel', 'Content-Type: application/pdf; name="invoice.pdf"', 'Content-Disposition: attachment; filename="invoice.pdf"', 'Content-Transfer-Encoding: base64', '', PDF_BYTES.toString('base64'),
      '--rel--', '',
    ].join('\r\n');
    const rec = await postRaw(t, raw);
    expect(rec.status, JSON.stringify(rec.body)).toBe(201);
    const resend = sdk();
    const stored = (await resend.emails.receiving.attachments.list({ emailId: rec.body.id })).data!.data;
    expect(stored.map((a) => [a.filename ?? null, a.content_disposition]).sort()).toEqual([[null, 'inline'], ['invoice.pdf', 'attachment']].sort());
    for (const passthrough of [true, false]) {
      const base = { emailId: rec.body.id as string, to: 'delivered@resend.dev', from: 'support@example.com' };
      const fwd = await (passthrough ? resend.emails.receiving.forward({ ...base, passthrough: true }) : resend.emails.receiving.forward({ ...base, passthrough: false, text: 'FYI' }));
      expect(fwd.error, `passthrough ${passthrough}`).toBeNull();
      const atts = (await resend.emails.attachments.list({ emailId: fwd.data!.id })).data!.data;
      if (!passthrough) {
        expect(atts).toEqual([expect.objectContaining({ filename: 'forwarded_message.eml', content_type: 'message/rfc822' })]);
        continue;
      }
      // Every stored attachment is forwarded; the nameless inline one stays nameless, with its type and Content-ID.
      expect(atts).toHaveLength(2);
      const inline = atts.find((a) => a.content_id === 'logo@x')!;
      expect(inline).toMatchObject({ filename: null, content_type: 'image/png', content_disposition: 'inline', size: png.length });
      const bytes = Buffer.from(await (await fetch(inline.download_url)).arrayBuffer());
      expect(Buffer.compare(bytes, png)).toBe(0);
      expect(atts.find((a) => a.filename === 'invoice.pdf')).toMatchObject({ content_type: 'application/pdf', size: PDF_BYTES.length });
    }
  });

  it("reports not_found for another team's email", async () => {
    const res = await postRaw(t, rawMessage());
    const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: emu.server.url });
    const got = await other.emails.receiving.get(res.body.id);
    expect(got.data).toBeNull();
    expect(got.error).toMatchObject({ name: 'not_found', statusCode: 404, message: 'Email not found' });
    const atts = await other.emails.receiving.attachments.list({ emailId: res.body.id });
    expect(atts.error).toMatchObject({ name: 'not_found', statusCode: 404 });
  });
});
