import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { findContact, lastMembershipSeq, segmentContactsPage } from '../../../src/resources/contacts/service.js';
import { contextOf } from '../../../src/internals.js';

const NIL = '00000000-0000-0000-0000-000000000000';
const NEWSLETTER = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const BETA = '0f1a2b3c-4d5e-4f6a-9b7c-8d9e0f1a2b3c';
const PRODUCT = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const PROMOTIONS = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const ALICE = '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';
const BOB = '2b3c4d5e-6f7a-4b8c-9d9e-0f1a2b3c4d5e';

describe('contact segments', () => {
  const t = useFreshEmulatorPerTest();

  it('removes a contact from a segment answering {id, audienceId, deleted} (SPEC), by id or email', async () => {
    const res = await t.api.delete(`/contacts/${ALICE}/segments/${BETA}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: ALICE, audienceId: BETA, deleted: true });
    expect(Object.keys(res.body)).toEqual(['id', 'audienceId', 'deleted']);
    const byEmail = await t.api.delete(`/contacts/alice@example.org/segments/${NEWSLETTER}`);
    expect(byEmail.body).toEqual({ id: ALICE, audienceId: NEWSLETTER, deleted: true });
    expect((await t.api.get(`/contacts/${ALICE}/segments`)).body.data).toEqual([]);
    expect((await t.api.get(`/contacts/${ALICE}`)).status).toBe(200);
  });

  it('rejects a path that is neither an id nor an email, and unknown contact or segment', async () => {
    const bad = await t.api.delete(`/contacts/nobody/segments/${BETA}`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ statusCode: 422, message: 'Missing `id` or `email` field.', name: 'missing_required_field' });
    const unknownContact = await t.api.delete(`/contacts/${NIL}/segments/${BETA}`);
    expect(unknownContact.status).toBe(404);
    expect(unknownContact.body.message).toBe('Contact not found');
    const unknownSegment = await t.api.delete(`/contacts/${ALICE}/segments/${NIL}`);
    expect(unknownSegment.status).toBe(404);
    expect(unknownSegment.body.message).toBe('Audience not found');
    expect((await t.api.delete(`/contacts/${ALICE}/segments/not-a-uuid`)).status).toBe(422);
  });

  it('adds a contact to a segment idempotently and lists its segments newest first', async () => {
    const add = await t.api.post(`/contacts/bob@example.org/segments/${BETA}`);
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ id: BETA });
    await t.api.post(`/contacts/${BOB}/segments/${BETA}`);
    const list = await t.api.get(`/contacts/${BOB}/segments`);
    expect(list.body).toEqual({
      object: 'list', has_more: false,
      data: [
        { id: BETA, name: 'Beta testers', created_at: expect.any(String) },
        { id: NEWSLETTER, name: 'Newsletter', created_at: expect.any(String) },
      ],
    });
    const page = await t.api.get(`/contacts/${BOB}/segments?limit=1`);
    expect(page.body.has_more).toBe(true);
    expect((await t.api.post(`/contacts/${BOB}/segments/${NIL}`)).status).toBe(404);
  });

  it("does not touch another team's memberships", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.delete(`/contacts/${ALICE}/segments/${BETA}`)).status).toBe(404);
    expect((await other.post(`/contacts/${ALICE}/segments/${BETA}`)).status).toBe(404);
    expect((await t.api.get(`/contacts/${ALICE}/segments`)).body.data).toHaveLength(2);
  });
});

describe('contact topics', () => {
  const t = useFreshEmulatorPerTest();

  it('lists every topic with the explicit subscription or the topic default', async () => {
    const res = await t.api.get(`/contacts/${BOB}/topics`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: PROMOTIONS, name: 'Promotions', description: 'Offers and discounts', subscription: 'opt_out', created_at: '2026-01-03 00:00:01.000000+00' },
      { id: PRODUCT, name: 'Product updates', description: 'News about features and releases', subscription: 'opt_in', created_at: '2026-01-03 00:00:00.000000+00' },
    ]);
    const alice = await t.api.get('/contacts/alice@example.org/topics');
    expect(alice.body.data.find((x: any) => x.id === PROMOTIONS).subscription).toBe('opt_in');
  });

  it('updates subscriptions from the bare array (SDK) or {topics}', async () => {
    const bare = await t.api.patch(`/contacts/${BOB}/topics`).send([{ id: PRODUCT, subscription: 'opt_out' }]);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ id: BOB });
    const wrapped = await t.api.patch('/contacts/bob@example.org/topics').send({ topics: [{ id: PROMOTIONS, subscription: 'opt_in' }] });
    expect(wrapped.body).toEqual({ id: BOB });
    const list = await t.api.get(`/contacts/${BOB}/topics`);
    expect(Object.fromEntries(list.body.data.map((x: any) => [x.id, x.subscription]))).toEqual({ [PRODUCT]: 'opt_out', [PROMOTIONS]: 'opt_in' });
  });

  it('rejects unknown topics (nothing written) and malformed bodies', async () => {
    const unknown = await t.api.patch(`/contacts/${BOB}/topics`).send([{ id: PRODUCT, subscription: 'opt_out' }, { id: NIL, subscription: 'opt_in' }]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Topic not found');
    const list = await t.api.get(`/contacts/${BOB}/topics`);
    expect(list.body.data.find((x: any) => x.id === PRODUCT).subscription).toBe('opt_in');
    const bad = await t.api.patch(`/contacts/${BOB}/topics`).send([{ id: PRODUCT, subscription: 'sometimes' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('validation_error');
    expect((await t.api.patch(`/contacts/${NIL}/topics`).send([])).status).toBe(404);
  });
});

describe('segmentContactsPage (a broadcast batch\'s read)', () => {
  const t = useFreshEmulatorPerTest();

  it('gives each member as findContact does, in membership order, within the cursor', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'Paged' })).body.id as string;
    const made: string[] = [];
    for (const [i, body] of [{ first_name: 'Ada', last_name: 'L' }, { unsubscribed: true }, { properties: { company: 'Acme' } }].entries()) {
      const res = await t.api.post('/contacts').send({ email: `paged${i}@example.org`, ...body, segments: [{ id: seg }] });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const ctx = contextOf(t.emu);
    const until = lastMembershipSeq(ctx, seg);
    const page = segmentContactsPage(ctx, FIXTURES.defaultTeamId, seg, { afterSeq: 0, untilSeq: until, limit: 10 });
    expect(page.map((p) => p.contact)).toEqual(made.map((id) => findContact(ctx, FIXTURES.defaultTeamId, id)));
    expect(page.map((p) => p.seq)).toEqual([...page.map((p) => p.seq)].sort((a, b) => a - b));
    expect(page.at(-1)!.seq).toBe(until);
    const rest = segmentContactsPage(ctx, FIXTURES.defaultTeamId, seg, { afterSeq: page[0].seq, untilSeq: until, limit: 1 });
    expect(rest.map((p) => p.contact.id)).toEqual([made[1]]);
  });
});
