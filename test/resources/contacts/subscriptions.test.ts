/**
 * The one upsert of `contact_topics` (issue 9 item 8; the table belongs to
 * contacts): `upsertSubscriptions`, behind `setSubscriptions` (API writes)
 * and the CSV import's `contactWriter` alike.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { explicitSubscription, upsertSubscriptions } from '../../../src/resources/contacts/store.js';
import { contactWriter, findContact, setSubscriptions } from '../../../src/resources/contacts/service.js';
import { contextOf } from '../../../src/internals.js';

const PROMOTIONS = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const NIL = '00000000-0000-0000-0000-000000000000';

describe('topic subscriptions: one upsert', () => {
  const t = useFreshEmulatorPerTest();

  it('upsertSubscriptions inserts, then overwrites with the new time; setSubscriptions checks the topics first and writes nothing on a 404', async () => {
    const ctx = contextOf(t.emu);
    const id = (await t.api.post('/contacts').send({ email: 'sub@example.org' })).body.id;
    const at = () => ctx.db.prepare('SELECT subscription, updated_at FROM contact_topics WHERE contact_id = ?').all(id);
    upsertSubscriptions(ctx, id, [{ id: PROMOTIONS, subscription: 'opt_in' }], 1000);
    expect(at()).toEqual([{ subscription: 'opt_in', updated_at: 1000 }]);
    upsertSubscriptions(ctx, id, [{ id: PROMOTIONS, subscription: 'opt_out' }], 2000);
    expect(at()).toEqual([{ subscription: 'opt_out', updated_at: 2000 }]);
    expect(() => setSubscriptions(ctx, FIXTURES.defaultTeamId, id, [{ id: PROMOTIONS, subscription: 'opt_in' }, { id: NIL, subscription: 'opt_in' }])).toThrowError(/Topic not found/);
    expect(explicitSubscription(ctx, id, PROMOTIONS)).toBe('opt_out');
  });

  it("the import's path writes the same row as the API's", async () => {
    const ctx = contextOf(t.emu);
    const checked = { defs: new Map(), segments: [], topics: [{ id: PROMOTIONS, subscription: 'opt_in' as const }] };
    const tally = ctx.db.transaction(() => {
      const writer = contactWriter(ctx, FIXTURES.defaultTeamId, { checked });
      writer.add({ email: 'csv@example.org' });
      return writer.finish();
    })();
    expect(tally).toEqual({ created: 1, updated: 0, skipped: 0 });
    const id = findContact(ctx, FIXTURES.defaultTeamId, 'csv@example.org')!.id;
    expect(ctx.db.prepare('SELECT subscription, updated_at FROM contact_topics WHERE contact_id = ?').all(id)).toEqual([{ subscription: 'opt_in', updated_at: ctx.clock.nowMs() }]);
    const topics = await t.api.get(`/contacts/${id}/topics`);
    expect(topics.body.data.find((x: { id: string }) => x.id === PROMOTIONS).subscription).toBe('opt_in');
  });
});
