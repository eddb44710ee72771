import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { PDF_BYTES, postJson, postRaw, rawMessage } from './helpers.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Path part of an absolute URL the emulator handed out. */
const pathOf = (url: string) => new URL(url).pathname;

describe('received emails', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('receives JSON fields and shows them in the list and the single email', async () => {
    const res = await postJson(t, {
      from: 'Bob Builder <bob@sender.test>',
      to: ['support@example.com'],
      cc: 'Carol <carol@elsewhere.test>',
      reply_to: 'replies@sender.test',
      subject: 'Help with my order',
      text: 'Where is it?',
      html: '<p>Where is it?</p>',
      headers: { 'X-Ticket': '42' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'inbound',
      id: expect.any(String),
      team_id: FIXTURES.defaultTeamId,
      received_for: ['support@example.com'],
      emails: [{ id: res.body.id, team_id: FIXTURES.defaultTeamId, received_for: ['support@example.com'] }],
    });

    const list = await t.api.get('/emails/receiving');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    expect(list.body.has_more).toBe(false);
    const item = list.body.data[0];
    expect(Object.keys(item).sort()).toEqual(['attachments', 'bcc', 'cc', 'created_at', 'from', 'id', 'message_id', 'received_for', 'reply_to', 'subject', 'to']);
    expect(item).toMatchObject({
      id: res.body.id,
      from: 'Bob Builder <bob@sender.test>',
      to: ['support@example.com'],
      cc: ['carol@elsewhere.test'],
      bcc: [],
      reply_to: ['replies@sender.test'],
      subject: 'Help with my order',
      attachments: [],
    });
    expect(item.created_at).toMatch(ISO_Z);
    expect(item.created_at).toBe(t.emu.clock.now().toISOString());
    expect(item.message_id).toMatch(/^<[^@]+@sender\.test>$/);

    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ object: 'email', id: res.body.id, text: 'Where is it?', html: '<p>Where is it?</p>', message_id: item.message_id });
    expect(one.body.headers['x-ticket']).toBe('42');
    expect(one.body.headers.subject).toBe('Help with my order');
    expect(one.body.raw.download_url).toContain(`/_emulator/inbound/emails/${res.body.id}/raw`);
  });

  it('receives a raw MIME message with an attachment whose download gives the same bytes', async () => {
    const res = await postRaw(t, rawMessage());
    expect(res.status).toBe(201);
    const id = res.body.id;

    const one = await t.api.get(`/emails/receiving/${id}`);
    expect(one.body).toMatchObject({
      from: 'Ada Lovelace <ada@sender.test>',
      to: ['support@example.com'],
      subject: 'Invoice attached',
      message_id: '<raw-1@sender.test>',
    });
    expect(one.body.html.trim()).toBe('<p>Please find the <b>invoice</b> attached.</p>');
    expect(one.body.text).toContain('Please find the invoice attached.');
    expect(one.body.headers['x-custom-header']).toBe('hello');
    expect(one.body.attachments).toEqual([
      { id: expect.any(String), filename: 'invoice.pdf', size: PDF_BYTES.length, content_type: 'application/pdf', content_id: null, content_disposition: 'attachment' },
    ]);
    const attId = one.body.attachments[0].id;

    const list = await t.api.get(`/emails/receiving/${id}/attachments`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      object: 'list',
      has_more: false,
      data: [{
        id: attId,
        filename: 'invoice.pdf',
        size: PDF_BYTES.length,
        content_type: 'application/pdf',
        content_disposition: 'attachment',
        download_url: `${t.emu.url}/_emulator/inbound/attachments/${attId}`,
        expires_at: new Date(t.emu.clock.now().getTime() + 3600_000).toISOString(),
      }],
    });

    const att = await t.api.get(`/emails/receiving/${id}/attachments/${attId}`);
    expect(att.status).toBe(200);
    expect(att.body).toMatchObject({ object: 'attachment', id: attId, filename: 'invoice.pdf' });

    const dl = await t.anon.get(pathOf(att.body.download_url)).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toBe('attachment; filename="invoice.pdf"');
    expect(Buffer.compare(dl.body as Buffer, PDF_BYTES)).toBe(0);
  });

  it('keeps attachments in message order and pages through them', async () => {
    const res = await postJson(t, {
      from: 'a@sender.test', to: 'in@example.com', subject: 's', text: 't',
      attachments: ['one.txt', 'two.txt', 'three.txt'].map((f) => ({ filename: f, content: Buffer.from(f).toString('base64') })),
    });
    const all = await t.api.get(`/emails/receiving/${res.body.id}/attachments`);
    expect(all.body.data.map((a: any) => a.filename)).toEqual(['one.txt', 'two.txt', 'three.txt']);
    expect(all.body.data.map((a: any) => a.content_type)).toEqual(['text/plain', 'text/plain', 'text/plain']);
    const page = await t.api.get(`/emails/receiving/${res.body.id}/attachments?limit=2`);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data.map((a: any) => a.filename)).toEqual(['one.txt', 'two.txt']);
    const next = await t.api.get(`/emails/receiving/${res.body.id}/attachments?limit=2&after=${page.body.data[1].id}`);
    expect(next.body).toMatchObject({ has_more: false, data: [{ filename: 'three.txt' }] });
  });

  it('lists newest first, all items without a limit, pages with one', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await postJson(t, { from: 'a@sender.test', to: 'in@example.com', subject: `n${i}`, text: 'x' })).body.id);
      await t.emu.clock.advance('1s');
    }
    const all = await t.api.get('/emails/receiving');
    expect(all.body.data.map((e: any) => e.id)).toEqual([...ids].reverse());
    const first = await t.api.get('/emails/receiving?limit=2');
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((e: any) => e.subject)).toEqual(['n2', 'n1']);
    const back = await t.api.get(`/emails/receiving?before=${ids[0]}`);
    expect(back.body.data.map((e: any) => e.subject)).toEqual(['n2', 'n1']);
    const bad = await t.api.get('/emails/receiving?limit=101');
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('validation_error');
  });

  it('inlines cid images as data URIs by default and keeps them with html_format=cid', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');
    const res = await postJson(t, {
      from: 'a@sender.test', to: 'in@example.com', subject: 'logo', html: '<img src="cid:logo@x">',
      attachments: [{ filename: 'logo.png', content: png, content_id: 'logo@x' }],
    });
    const dataUri = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(dataUri.body.html).toBe(`<img src="data:image/png;base64,${png}">`);
    expect(dataUri.body.attachments[0]).toMatchObject({ content_id: 'logo@x', content_disposition: 'inline' });
    const cid = await t.api.get(`/emails/receiving/${res.body.id}?html_format=cid`);
    expect(cid.body.html).toBe('<img src="cid:logo@x">');
  });

  it('records bcc recipients and received_for from the envelope', async () => {
    const res = await postJson(t, { from: 'a@sender.test', to: 'public@example.com', bcc: ['Secret <secret@example.com>', 'x@nowhere.test'], subject: 's', text: 't' });
    expect(res.status).toBe(201);
    expect(res.body.received_for).toEqual(['public@example.com', 'secret@example.com']);
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(one.body.to).toEqual(['public@example.com']);
    expect(one.body.bcc).toEqual(['secret@example.com']);
    expect(one.body.headers.bcc).toBeUndefined();
  });

  it('raises email.received for a subscribed webhook', async () => {
    const hook = await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/in', events: ['email.received'] });
    expect(hook.status).toBe(201);
    const other = await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/sent', events: ['email.sent'] });
    const res = await postRaw(t, rawMessage({ cc: 'Team <team@example.com>' }));
    await t.emu.clock.advance(0);
    const deliveries = t.emu.webhookDeliveries({ event_type: 'email.received' });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].webhook_id).toBe(hook.body.id);
    expect(deliveries[0].status).toBe('recorded');
    const one = await t.api.get(`/emails/receiving/${res.body.id}`);
    expect(deliveries[0].payload).toEqual({
      type: 'email.received',
      created_at: one.body.created_at,
      data: {
        email_id: res.body.id,
        created_at: one.body.created_at,
        from: 'ada@sender.test',
        to: ['support@example.com'],
        cc: ['team@example.com'],
        bcc: [],
        received_for: ['support@example.com', 'team@example.com'],
        message_id: '<raw-1@sender.test>',
        subject: 'Invoice attached',
        attachments: [{ id: one.body.attachments[0].id, filename: 'invoice.pdf', content_type: 'application/pdf', content_disposition: 'attachment', content_id: null }],
      },
    });
    expect(t.emu.webhookDeliveries({ webhook_id: other.body.id })).toHaveLength(0);
  });

  it('answers 422 naming the domain when no recipient domain receives mail', async () => {
    // claimable.dev belongs to the second team, without the receiving capability.
    const res = await postJson(t, { from: 'a@sender.test', to: ['x@claimable.dev', 'y@unknown.test'], subject: 's', text: 't' });
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toContain('`claimable.dev`');
    expect(res.body.message).toContain('`unknown.test`');
    expect((await t.api.get('/emails/receiving')).body.data).toHaveLength(0);
    const raw = await postRaw(t, rawMessage({ to: 'someone@claimable.dev' }));
    expect(raw.status).toBe(422);
    expect(raw.body.message).toContain('`claimable.dev`');
  });

  it("keeps teams apart: another team's email and attachments are 404", async () => {
    const res = await postRaw(t, rawMessage());
    const attId = (await t.api.get(`/emails/receiving/${res.body.id}`)).body.attachments[0].id;
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get('/emails/receiving')).body.data).toEqual([]);
    const get = await other.get(`/emails/receiving/${res.body.id}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ statusCode: 404, message: 'Email not found', name: 'not_found' });
    expect((await other.get(`/emails/receiving/${res.body.id}/attachments`)).status).toBe(404);
    expect((await other.get(`/emails/receiving/${res.body.id}/attachments/${attId}`)).status).toBe(404);
  });

  it('delivers a copy to each team that receives for a recipient', async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    const dom = await other.post('/domains').send({ name: 'second.test', capabilities: { sending: 'enabled', receiving: 'enabled' } });
    expect(dom.status).toBe(201);
    const res = await postJson(t, { from: 'a@sender.test', to: ['one@example.com', 'two@second.test'], subject: 'both', text: 't' });
    expect(res.body.emails).toHaveLength(2);
    const mine = (await t.api.get('/emails/receiving')).body.data;
    const theirs = (await other.get('/emails/receiving')).body.data;
    expect(mine.map((e: any) => e.received_for)).toEqual([['one@example.com']]);
    expect(theirs.map((e: any) => e.received_for)).toEqual([['two@second.test']]);
    expect(mine[0].id).not.toBe(theirs[0].id);
    expect(theirs[0].to).toEqual(['one@example.com', 'two@second.test']);
  });

  it('answers 404 for unknown ids and 422 for malformed ones', async () => {
    const unknown = await t.api.get('/emails/receiving/7f1c9f3e-4b2a-4c6d-8e9f-0a1b2c3d4e5f');
    expect(unknown.status).toBe(404);
    const res = await postRaw(t, rawMessage());
    const att = await t.api.get(`/emails/receiving/${res.body.id}/attachments/7f1c9f3e-4b2a-4c6d-8e9f-0a1b2c3d4e5f`);
    expect(att.body).toEqual({ statusCode: 404, message: 'Attachment not found', name: 'not_found' });
    const bad = await t.api.get('/emails/receiving/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('invalid_parameter');
  });
});
