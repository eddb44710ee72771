import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { createBroadcast } from './helpers.js';

describe('broadcast unsubscribe links (/_emulator/unsubscribe/{token})', () => {
  const t = useFreshEmulatorPerTest();

  async function sentTo(email: string) {
    const segment = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
    const contact = (await t.api.post('/contacts').send({ email, first_name: 'Ada', segments: [{ id: segment }] })).body.id;
    const html = '<p>Hi</p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a>';
    const broadcast = await createBroadcast(t, { segment_id: segment, html, send: true });
    await t.emu.clock.advance('1s');
    const [sent] = t.emu.emails({ to: email });
    const link = sent.links.find((l: string) => l.includes('/_emulator/unsubscribe/'))!;
    return { segment, contact, broadcast, link };
  }

  it('following the link unsubscribes the contact, once, and later broadcasts skip it', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hook', events: ['contact.updated'] });
    const { segment, contact, link } = await sentTo('ada@example.net');
    expect(link.startsWith(t.emu.url)).toBe(true);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('ada@example.net');
    expect((await t.api.get(`/contacts/${contact}`)).body.unsubscribed).toBe(true);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200); // one-click, idempotent
    await t.emu.clock.advance(0);
    expect(t.emu.webhookDeliveries({ event_type: 'contact.updated' }).map((d) => d.payload.data.unsubscribed)).toEqual([true]);

    await createBroadcast(t, { segment_id: segment, send: true });
    await t.emu.clock.advance('1s');
    expect(t.emu.emails({ to: 'ada@example.net' })).toHaveLength(1);
  });

  it('each broadcast email carries List-Unsubscribe (its own URL) and List-Unsubscribe-Post; a one-click POST unsubscribes', async () => {
    const segment = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
    const ada = (await t.api.post('/contacts').send({ email: 'ada@example.net', segments: [{ id: segment }] })).body.id;
    await t.api.post('/contacts').send({ email: 'bo@example.net', segments: [{ id: segment }] });
    // No {{{RESEND_UNSUBSCRIBE_URL}}} in the body: the headers are there anyway.
    await createBroadcast(t, { segment_id: segment, html: '<p>News</p>', send: true });
    await t.emu.clock.advance('1s');
    const [toAda] = t.emu.emails({ to: 'ada@example.net' });
    const [toBo] = t.emu.emails({ to: 'bo@example.net' });
    expect(toAda.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const m = /^<(http:\/\/[^>]+)>$/.exec(toAda.headers['List-Unsubscribe']);
    expect(m, toAda.headers['List-Unsubscribe']).not.toBeNull();
    const url = m![1];
    expect(url.startsWith(`${t.emu.url}/_emulator/unsubscribe/`)).toBe(true);
    expect(toBo.headers['List-Unsubscribe']).not.toBe(toAda.headers['List-Unsubscribe']);
    // What a mail client sends for RFC 8058 one-click.
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    expect((await t.api.get(`/contacts/${ada}`)).body.unsubscribed).toBe(true);
    expect((await t.api.get('/contacts/bo@example.net')).body.unsubscribed).toBe(false);
  });

  it('answers 404 for a token that is not one of ours', async () => {
    for (const token of ['nope', Buffer.from('{"b":"x","c":"y"}').toString('base64url')]) {
      const res = await t.anon.get(`/_emulator/unsubscribe/${token}`);
      expect(res.status).toBe(404);
      expect(res.body.name).toBe('not_found');
    }
  });
});
