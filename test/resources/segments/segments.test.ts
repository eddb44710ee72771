import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const NIL = '00000000-0000-0000-0000-000000000000';
const NEWSLETTER = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';

describe('segments and audiences', () => {
  const t = useFreshEmulatorPerTest();

  it('creates, gets, lists and deletes a segment with the recorded shapes', async () => {
    const created = await t.api.post('/segments').send({ name: 'Test Segment' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ object: 'segment', id: expect.any(String), name: 'Test Segment' });
    expect(Object.keys(created.body)).toEqual(['object', 'id', 'name']);
    const id = created.body.id;
    const got = await t.api.get(`/segments/${id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body)).toEqual(['object', 'id', 'name', 'created_at']);
    expect(got.body).toMatchObject({ object: 'segment', id, name: 'Test Segment' });
    expect(got.body.created_at).toMatch(TS);
    const list = await t.api.get('/segments');
    expect(list.body.object).toBe('list');
    expect(list.body.has_more).toBe(false);
    expect(list.body.data[0]).toEqual({ id, name: 'Test Segment', created_at: got.body.created_at });
    expect(list.body.data.map((s: any) => s.id)).toContain(NEWSLETTER);
    const del = await t.api.delete(`/segments/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'segment', id, deleted: true });
    const gone = await t.api.get(`/segments/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ statusCode: 404, message: 'Audience not found', name: 'not_found' });
  });

  it('answers 422 missing_required_field without a name', async () => {
    for (const path of ['/segments', '/audiences']) {
      const res = await t.api.post(path).send({});
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
    }
  });

  it('answers 404 Audience not found for an unknown segment, and deleted:true when deleting one', async () => {
    const get = await t.api.get(`/segments/${NIL}`);
    expect(get.status).toBe(404);
    expect(get.body.message).toBe('Audience not found');
    const del = await t.api.delete(`/segments/${NIL}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'segment', id: NIL, deleted: true });
    const bad = await t.api.get('/segments/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('invalid_parameter');
  });

  it('renames a segment', async () => {
    const s = await t.api.post('/segments').send({ name: 'a' });
    const upd = await t.api.patch(`/segments/${s.body.id}`).send({ name: 'b' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'segment', id: s.body.id });
    expect((await t.api.get(`/segments/${s.body.id}`)).body.name).toBe('b');
    expect((await t.api.patch(`/segments/${NIL}`).send({ name: 'x' })).status).toBe(404);
  });

  it('serves the same records as audiences', async () => {
    const a = await t.api.post('/audiences').send({ name: 'Registered Users' });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ object: 'audience', id: expect.any(String), name: 'Registered Users' });
    const asSegment = await t.api.get(`/segments/${a.body.id}`);
    expect(asSegment.body.object).toBe('segment');
    const got = await t.api.get(`/audiences/${a.body.id}`);
    expect(got.body).toMatchObject({ object: 'audience', id: a.body.id, name: 'Registered Users' });
    const list = await t.api.get('/audiences');
    expect(list.body.data[0]).toEqual({ id: a.body.id, name: 'Registered Users', created_at: expect.stringMatching(TS) });
    const del = await t.api.delete(`/audiences/${a.body.id}`);
    expect(del.body).toEqual({ object: 'audience', id: a.body.id, deleted: true });
    const gone = await t.api.get(`/audiences/${a.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Audience not found');
    expect((await t.api.delete(`/audiences/${NIL}`)).body).toEqual({ object: 'audience', id: NIL, deleted: true });
  });

  it('lists a segment\'s contacts newest first, paginated, and keeps them when the segment is deleted', async () => {
    const s = await t.api.post('/segments').send({ name: 'listing' });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const c = await t.api.post(`/audiences/${s.body.id}/contacts`).send({ email: `test.${i}@example.com` });
      ids.push(c.body.id);
      await t.emu.clock.advance('1s');
    }
    const all = await t.api.get(`/segments/${s.body.id}/contacts`);
    expect(all.body.has_more).toBe(false);
    expect(all.body.data.map((c: any) => c.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.data[0])).toEqual(['id', 'email', 'first_name', 'last_name', 'created_at', 'unsubscribed']);
    const page = await t.api.get(`/segments/${s.body.id}/contacts?limit=5`);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data).toHaveLength(5);
    const next = await t.api.get(`/segments/${s.body.id}/contacts?limit=5&after=${page.body.data[4].id}`);
    expect(next.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(next.body.has_more).toBe(false);
    await t.api.delete(`/segments/${s.body.id}`);
    const c = await t.api.get(`/contacts/${ids[0]}`);
    expect(c.status).toBe(200);
    expect((await t.api.get(`/segments/${s.body.id}/contacts`)).status).toBe(404);
  });

  it("hides another team's segments", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/segments/${NEWSLETTER}`)).status).toBe(404);
    expect((await other.get(`/audiences/${NEWSLETTER}`)).status).toBe(404);
    expect((await other.get('/segments')).body.data).toEqual([]);
    expect((await other.get(`/segments/${NEWSLETTER}/contacts`)).status).toBe(404);
    expect((await other.patch(`/segments/${NEWSLETTER}`).send({ name: 'x' })).status).toBe(404);
    await other.delete(`/segments/${NEWSLETTER}`);
    expect((await t.api.get(`/segments/${NEWSLETTER}`)).status).toBe(200);
  });

  it('serves the fixture segments with their contacts', async () => {
    const res = await t.api.get(`/segments/${NEWSLETTER}/contacts`);
    expect(res.body.data.map((c: any) => c.email)).toEqual(['carol@example.org', 'bob@example.org', 'alice@example.org']);
  });
});

describe('audiences list pagination (docs/reference/interface-spec.md#pagination rule 3: limit optional → all)', () => {
  const t = useFreshEmulatorPerTest();

  it('lists every audience without limit, and pages with limit and after', async () => {
    const ids: string[] = [];
    for (const name of ['A1', 'A2', 'A3']) ids.push((await t.api.post('/audiences').send({ name })).body.id);
    const all = await t.api.get('/audiences');
    expect(all.body.has_more).toBe(false);
    expect(all.body.data.slice(0, 3).map((a: any) => a.id)).toEqual([...ids].reverse());
    const total = all.body.data.length;
    const page = await t.api.get('/audiences?limit=2');
    expect(page.body.data.map((a: any) => a.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.has_more).toBe(true);
    const next = await t.api.get(`/audiences?limit=100&after=${ids[1]}`);
    expect(next.body.data.length).toBe(total - 2);
    expect(next.body.data[0].id).toBe(ids[0]);
    expect(next.body.has_more).toBe(false);
  });
});
