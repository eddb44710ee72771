/**
 * Broadcast recipients `type=opened` / `type=clicked` and clicked links with
 * real opens and clicks (simulated through `POST /_emulator/emails/{id}/events`),
 * and the batched delivery of a broadcast larger than one batch.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { emailsOfBroadcast } from '../../../src/resources/emails/service.js';
import { createBroadcast, getBroadcast } from './helpers.js';
import { contextOf, storeOf } from '../../../src/internals.js';

async function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** email → email id of the broadcast's emails. */
function emailIds(t: TestEmulator, broadcastId: string): Map<string, string> {
  return new Map(emailsOfBroadcast(contextOf(t.emu), broadcastId).map((e) => [e.to[0], e.id]));
}

async function event(t: TestEmulator, emailId: string, body: Record<string, unknown>) {
  await ok(await t.anon.post(`/_emulator/emails/${emailId}/events`).send(body), `event ${JSON.stringify(body)}`);
}

describe('broadcasts: opens and clicks', () => {
  const t = useFreshEmulatorPerTest();

  it('recipients type=opened / type=clicked and clicked-links count real opens and clicks', async () => {
    const seg = (await ok(await t.api.post('/segments').send({ name: 'Readers' }), 'segment')).id;
    const addrs = ['delivered+a@resend.dev', 'delivered+b@resend.dev', 'delivered+c@resend.dev'];
    for (const email of addrs) await ok(await t.api.post('/contacts').send({ email, segments: [{ id: seg }] }), 'contact');
    const id = await createBroadcast(t, {
      segment_id: seg,
      html: '<p>Hi</p><a href="https://example.org/one">one</a> <a href="https://example.org/two">two</a>',
      send: true,
    });
    await t.emu.clock.advance('1s');
    await t.emu.clock.advance('1h');
    expect((await getBroadcast(t, id)).status).toBe('sent');
    const ids = emailIds(t, id);
    expect(ids.size).toBe(3);
    const [a, b, c] = addrs.map((e) => ids.get(e)!);
    // a: opened, clicked `one` twice and `two` once; b: opened only; c: nothing.
    await event(t, a, { type: 'opened' });
    await event(t, a, { type: 'clicked', link: 'https://example.org/one' });
    await event(t, a, { type: 'clicked', link: 'https://example.org/one' });
    await event(t, a, { type: 'clicked', link: 'https://example.org/two' });
    await event(t, b, { type: 'opened' });
    expect(c).toBeDefined();

    const opened = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=opened`), 'opened');
    expect(opened.data.map((r: any) => r.email).sort()).toEqual(['delivered+a@resend.dev', 'delivered+b@resend.dev']);
    for (const r of opened.data) expect(r).toEqual({ id: expect.any(String), contact_id: expect.any(String), email: r.email, count: 1 });

    const clicked = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=clicked`), 'clicked');
    expect(clicked.data).toHaveLength(1);
    expect(clicked.data[0]).toEqual({
      id: expect.any(String),
      contact_id: expect.any(String),
      email: 'delivered+a@resend.dev',
      count: 3,
      clicked_links: [
        { url: 'https://example.org/one', clicks: 2 },
        { url: 'https://example.org/two', clicks: 1 },
      ],
    });

    // b clicks `two` too: `two` now has 2 clicks from 2 recipients, `one` 2 from 1.
    await event(t, b, { type: 'clicked', link: 'https://example.org/two' });
    const links = await ok(await t.api.get(`/broadcasts/${id}/clicked-links`), 'clicked links');
    expect(links.data).toEqual([
      { id: expect.any(String), url: 'https://example.org/one', clicks: 2, unique_clicks: 1 },
      { id: expect.any(String), url: 'https://example.org/two', clicks: 2, unique_clicks: 2 },
    ]);
    const clicked2 = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=clicked`), 'clicked again');
    expect(clicked2.data.map((r: any) => [r.email, r.count]).sort()).toEqual([
      ['delivered+a@resend.dev', 3],
      ['delivered+b@resend.dev', 1],
    ]);
  });

  it('delivers a segment larger than one batch in batches, each contact once, skipping those who left', async () => {
    const seg = (await ok(await t.api.post('/segments').send({ name: 'Many' }), 'segment')).id;
    const contactIds: string[] = [];
    for (let i = 0; i < 205; i++) {
      contactIds.push((await ok(await t.api.post('/contacts').send({ email: `r${i}@example.org`, first_name: `R${i}`, segments: [{ id: seg }] }), 'contact')).id);
    }
    const id = await createBroadcast(t, { segment_id: seg, subject: 'Hi {{{contact.first_name}}}', send: true });
    await t.emu.clock.advance('1s');
    expect(emailsOfBroadcast(contextOf(t.emu), id)).toHaveLength(100);
    expect((await getBroadcast(t, id)).status).toBe('queued');
    // The next batch's job holds a cursor over the memberships, not the list of those still to do.
    const pending = storeOf(t.emu).prepare(`SELECT payload FROM jobs WHERE type = 'broadcasts.deliver' AND status = 'pending'`).all() as { payload: string }[];
    expect(pending).toHaveLength(1);
    expect(Object.keys(JSON.parse(pending[0].payload)).sort()).toEqual(['after_seq', 'broadcast_id', 'until_seq']);
    // r150 leaves the segment before its batch runs; a contact who joins after the first batch is not a recipient.
    expect((await t.api.delete(`/contacts/${contactIds[150]}/segments/${seg}`)).status).toBe(200);
    await ok(await t.api.post('/contacts').send({ email: 'late@example.org', segments: [{ id: seg }] }), 'contact');
    await t.emu.clock.advance('1h');
    expect((await getBroadcast(t, id)).status).toBe('sent');
    const rows = emailsOfBroadcast(contextOf(t.emu), id).map((e) => ({ email: e.to[0] }));
    expect(rows).toHaveLength(204);
    expect(new Set(rows.map((r) => r.email)).size).toBe(204);
    expect(rows.map((r) => r.email)).not.toContain('r150@example.org');
    expect(rows.map((r) => r.email)).not.toContain('late@example.org');
    const subjects = storeOf(t.emu).prepare('SELECT subject FROM emails WHERE broadcast_id = ? AND to_addrs = ?').get(id, JSON.stringify(['r204@example.org'])) as { subject: string };
    expect(subjects.subject).toBe('Hi R204');
  });
});
