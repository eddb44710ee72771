/**
 * The items of `GET /contacts/{id}/topics` carry `created_at` (issue 37):
 * the Rust SDK reads them as `{id, name, description?, subscription,
 * created_at}`. The time is the topic's, as `GET /topics` shows it
 * (docs/reference/resources.md#contacts), whether or not the contact chose.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';

describe('contact topic items: created_at', () => {
  const t = useFreshEmulatorPerTest();

  it("is the topic's created_at, for a topic the contact chose and one it never did", async () => {
    const chosen = (await t.api.post('/topics').send({ name: 'Chosen', default_subscription: 'opt_out' })).body.id;
    await t.emu.clock.advance('1h');
    const untouched = (await t.api.post('/topics').send({ name: 'Untouched', default_subscription: 'opt_in' })).body.id;
    await t.emu.clock.advance('1d');
    const contact = (await t.api.post('/contacts').send({ email: 'ada@example.com' })).body.id;
    await t.emu.clock.advance('1h');
    expect((await t.api.patch(`/contacts/${contact}/topics`).send([{ id: chosen, subscription: 'opt_in' }])).status).toBe(200);

    const topics = Object.fromEntries((await t.api.get('/topics')).body.data.map((x: any) => [x.id, x.created_at]));
    const items = (await t.api.get(`/contacts/${contact}/topics`)).body.data;
    const byId = Object.fromEntries(items.map((x: any) => [x.id, x]));
    expect(byId[chosen]).toMatchObject({ subscription: 'opt_in', created_at: topics[chosen] });
    expect(byId[untouched]).toMatchObject({ subscription: 'opt_in', created_at: topics[untouched] });
    expect(topics[chosen]).not.toBe(topics[untouched]);
  });
});
