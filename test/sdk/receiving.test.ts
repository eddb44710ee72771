import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator, FIXTURES } from '../helpers.js';
import { PDF_BYTES, postJson, postRaw, rawMessage } from '../resources/receiving/helpers.js';

describe('SDK: resend.emails.receiving', () => {
  const t = useEmulator({ webhooks: 'record' });
  const sdk = () => new Resend(t.emu.apiKey, { baseUrl: t.emu.url });

  it('lists and gets received emails', async () => {
    const a = await postRaw(t, rawMessage());
    await t.emu.clock.advance('1s');
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

  it("reports not_found for another team's email", async () => {
    const res = await postRaw(t, rawMessage());
    const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: t.emu.url });
    const got = await other.emails.receiving.get(res.body.id);
    expect(got.data).toBeNull();
    expect(got.error).toMatchObject({ name: 'not_found', statusCode: 404, message: 'Email not found' });
    const atts = await other.emails.receiving.attachments.list({ emailId: res.body.id });
    expect(atts.error).toMatchObject({ name: 'not_found', statusCode: 404 });
  });
});
