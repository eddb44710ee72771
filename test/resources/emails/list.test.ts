import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { loadEmail, toListItem } from '../../../src/resources/emails/store.js';
import { contextOf } from '../../../src/internals.js';

const FROM = 'Acme <hello@example.com>';

describe('GET /emails: items built from cached parts (issue 10)', () => {
  const t = useFreshEmulatorPerTest();
  /** What each listed item must be: `toListItem` of the row as stored now. */
  const expected = (ids: string[]) => ids.map((id) => toListItem(loadEmail(contextOf(t.emu), id)!));

  it('every item equals toListItem of its stored row, before and after its last_event and scheduled_at change', async () => {
    const sent = [
      { from: FROM, to: 'delivered@resend.dev', subject: 'plain "quoted" \u00e9', text: 'x' },
      { from: FROM, to: ['a@resend.dev', 'b@resend.dev'], cc: 'c@resend.dev', bcc: ['d@resend.dev'], reply_to: 'r@example.com', subject: 'lists', html: '<p>h</p>' },
      { from: FROM, to: 'delivered@resend.dev', subject: 'later', text: 'x', scheduled_at: 'in 1 hour' },
    ];
    const ids: string[] = [];
    for (const body of sent) ids.push((await t.api.post('/emails').send(body)).body.id);
    const page = async () => (await t.api.get('/emails?limit=3')).body;
    const first = await page();
    expect(first.data.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect(first.data).toEqual(expected([...ids].reverse()));
    expect(first.data[1]).toMatchObject({ cc: ['c@resend.dev'], bcc: ['d@resend.dev'], reply_to: ['r@example.com'], last_event: 'queued' });
    expect(first.data[0].scheduled_at).not.toBeNull();

    // The changing fields are read fresh: delivery moves last_event, PATCH moves scheduled_at.
    await t.emu.clock.advance('5s');
    const moved = await t.api.patch(`/emails/${ids[2]}`).send({ scheduled_at: 'in 2 hours' });
    expect(moved.status).toBe(200);
    const second = await page();
    expect(second.data).toEqual(expected([...ids].reverse()));
    expect(second.data[2].last_event).toBe('delivered');
    expect(second.data[0].scheduled_at).not.toBe(first.data[0].scheduled_at);
    // The text written is the one JSON.stringify gives.
    const raw = await t.api.get('/emails?limit=3').buffer(true).parse((res, cb) => { let s = ''; res.on('data', (c: Buffer) => (s += c)); res.on('end', () => cb(null, s)); });
    expect(raw.body).toBe(JSON.stringify({ object: 'list', has_more: second.has_more, data: expected([...ids].reverse()) }));
  });

  it('cursors and has_more work on the cached path', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: `n${i}`, text: 'x' })).body.id);
    const a = (await t.api.get('/emails?limit=2')).body;
    expect(a.has_more).toBe(true);
    expect(a.data.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    const b = (await t.api.get(`/emails?limit=2&after=${ids[3]}`)).body;
    expect(b.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    const c = (await t.api.get(`/emails?limit=2&before=${ids[2]}`)).body;
    expect(c.data).toEqual(expected([ids[4], ids[3]]));
  });
});
