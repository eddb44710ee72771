import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const NIL = '00000000-0000-0000-0000-000000000000';
const NEWSLETTER = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const PROMOTIONS = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const ALICE = '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';

describe('contacts', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('creates a contact and reads it by id and by raw email with the recorded shape', async () => {
    const res = await t.api.post('/contacts').send({ email: 'test-get@example.com' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'contact', id: expect.any(String) });
    for (const ref of [res.body.id, 'test-get@example.com', 'TEST-GET@example.com', 'test-get%40example.com']) {
      const got = await t.api.get(`/contacts/${ref}`);
      expect(got.status).toBe(200);
      expect(Object.keys(got.body)).toEqual(['object', 'id', 'email', 'first_name', 'last_name', 'created_at', 'unsubscribed', 'properties']);
      expect(got.body).toMatchObject({ object: 'contact', id: res.body.id, email: 'test-get@example.com', first_name: null, last_name: null, unsubscribed: false });
      expect(got.body.created_at).toMatch(TS);
    }
  });

  it('answers 422 ``Missing `email` field.`` and rejects a malformed email', async () => {
    const res = await t.api.post('/contacts').send({});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, message: 'Missing `email` field.', name: 'missing_required_field' });
    const bad = await t.api.post('/contacts').send({ email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('validation_error');
    expect(bad.body.message).toContain('email');
    const type = await t.api.post('/contacts').send({ email: 'x@example.com', unsubscribed: 'yes' });
    expect(type.status).toBe(400);
    expect(type.body.name).toBe('validation_error');
  });

  it('answers 201 with the existing id when the email already exists', async () => {
    const a = await t.api.post('/contacts').send({ email: 'dup@example.com', first_name: 'A' });
    await t.emu.clock.advance('1m');
    const b = await t.api.post('/contacts').send({ email: 'Dup@Example.com', first_name: 'B' });
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect((await t.api.get(`/contacts/${a.body.id}`)).body.first_name).toBe('A');
    expect((await t.api.get('/contacts')).body.data.filter((c: any) => c.email.toLowerCase() === 'dup@example.com')).toHaveLength(1);
  });

  it('404s an unknown contact with "Contact not found" and 422s a path that is neither id nor email', async () => {
    const res = await t.api.get(`/contacts/${NIL}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Contact not found', name: 'not_found' });
    expect((await t.api.get('/contacts/nobody@example.com')).status).toBe(404);
    expect((await t.api.patch(`/contacts/${NIL}`).send({ first_name: 'x' })).status).toBe(404);
    expect((await t.api.delete(`/contacts/${NIL}`)).status).toBe(404);
    const bad = await t.api.get('/contacts/garbage');
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ statusCode: 422, message: 'Missing `id` or `email` field.', name: 'missing_required_field' });
  });

  it('updates fields and clears names with null', async () => {
    const c = await t.api.post('/contacts').send({ email: 'upd@example.com', first_name: 'Old', last_name: 'Name' });
    const upd = await t.api.patch(`/contacts/${c.body.id}`).send({ first_name: 'Updated', last_name: null, unsubscribed: true });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'contact', id: c.body.id });
    const got = await t.api.get('/contacts/upd@example.com');
    expect(got.body).toMatchObject({ first_name: 'Updated', last_name: null, unsubscribed: true });
    const byEmail = await t.api.patch('/contacts/upd@example.com').send({ email: 'new@example.com' });
    expect(byEmail.body.id).toBe(c.body.id);
    expect((await t.api.get('/contacts/new@example.com')).body.id).toBe(c.body.id);
    const taken = await t.api.patch('/contacts/new@example.com').send({ email: 'alice@example.org' });
    expect(taken.status).toBe(422);
  });

  it('deletes by id or email answering the key `contact` with the UUID', async () => {
    const a = await t.api.post('/contacts').send({ email: 'del-a@example.com' });
    const b = await t.api.post('/contacts').send({ email: 'del-b@example.com' });
    const byId = await t.api.delete(`/contacts/${a.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ object: 'contact', contact: a.body.id, deleted: true });
    const byEmail = await t.api.delete('/contacts/del-b@example.com');
    expect(byEmail.body).toEqual({ object: 'contact', contact: b.body.id, deleted: true });
    expect((await t.api.get(`/contacts/${b.body.id}`)).status).toBe(404);
  });

  it('lists all contacts newest first without limit, and pages with limit/after/before', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await t.api.post('/contacts').send({ email: `test.${i}@example.com` })).body.id);
      await t.emu.clock.advance('1s');
    }
    const all = await t.api.get('/contacts');
    expect(all.body.has_more).toBe(false);
    expect(all.body.data).toHaveLength(9); // 6 + 3 fixtures
    expect(all.body.data.slice(0, 6).map((c: any) => c.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.data[0])).toEqual(['id', 'created_at', 'email', 'unsubscribed', 'first_name', 'last_name']);
    const p1 = await t.api.get('/contacts?limit=5');
    expect(p1.body.has_more).toBe(true);
    expect(p1.body.data).toHaveLength(5);
    const p2 = await t.api.get(`/contacts?limit=5&after=${p1.body.data[4].id}`);
    expect(p2.body.data).toHaveLength(4);
    expect(p2.body.has_more).toBe(false);
    const back = await t.api.get(`/contacts?limit=5&before=${p2.body.data[0].id}`);
    expect(back.body.data.map((c: any) => c.id)).toEqual(p1.body.data.map((c: any) => c.id));
    const both = await t.api.get(`/contacts?after=${ids[0]}&before=${ids[1]}`);
    expect(both.status).toBe(422);
    expect(both.body.name).toBe('validation_error');
    expect((await t.api.get('/contacts?limit=101')).status).toBe(422);
    const seg = await t.api.get(`/contacts?segment_id=${NEWSLETTER}`);
    expect(seg.body.data.map((c: any) => c.email)).toEqual(['carol@example.org', 'bob@example.org', 'alice@example.org']);
  });

  it('creates with segments (objects or ids) and topics, checking they exist', async () => {
    const s2 = (await t.api.post('/segments').send({ name: 'second' })).body.id;
    const res = await t.api.post('/contacts').send({
      email: 'test@example.com', first_name: 'Test', last_name: 'User',
      segments: [{ id: NEWSLETTER }, s2], topics: [{ id: PROMOTIONS, subscription: 'opt_in' }],
    });
    expect(res.status).toBe(201);
    const segs = await t.api.get('/contacts/test@example.com/segments');
    expect(segs.body.data.map((s: any) => s.id).sort()).toEqual([NEWSLETTER, s2].sort());
    const topics = await t.api.get(`/contacts/${res.body.id}/topics`);
    expect(topics.body.data.find((x: any) => x.id === PROMOTIONS).subscription).toBe('opt_in');
    const unknownSeg = await t.api.post('/contacts').send({ email: 'x@example.com', segments: [{ id: NIL }] });
    expect(unknownSeg.status).toBe(404);
    expect(unknownSeg.body.message).toBe('Audience not found');
    const unknownTopic = await t.api.post('/contacts').send({ email: 'x@example.com', topics: [{ id: NIL, subscription: 'opt_in' }] });
    expect(unknownTopic.status).toBe(404);
    expect(unknownTopic.body.message).toBe('Topic not found');
    expect((await t.api.get('/contacts/x@example.com')).status).toBe(404);
    const badSub = await t.api.post('/contacts').send({ email: 'x@example.com', topics: [{ id: PROMOTIONS, subscription: 'maybe' }] });
    expect(badSub.status).toBe(400);
  });

  it('types properties per contact property and applies fallbacks', async () => {
    const prop = await t.api.post('/contact-properties').send({ key: 'test_property_for_contacts_api', type: 'string', fallback_value: 'unknown' });
    expect(prop.status).toBe(201);
    const c = await t.api.post('/contacts').send({ email: 'p@example.com', properties: { test_property_for_contacts_api: 'updated value', plan_seats: 3 } });
    expect(c.status).toBe(201);
    const got = await t.api.get(`/contacts/${c.body.id}`);
    expect(got.body.properties).toEqual({ test_property_for_contacts_api: { type: 'string', value: 'updated value' }, plan_seats: { type: 'number', value: 3 }, company: { type: 'string', value: 'your company' } });
    const wrongType = await t.api.patch(`/contacts/${c.body.id}`).send({ properties: { plan_seats: 'many' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.message).toContain('plan_seats');
    const unknown = await t.api.patch(`/contacts/${c.body.id}`).send({ properties: { nope: 'x' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.name).toBe('validation_error');
    await t.api.patch(`/contacts/${c.body.id}`).send({ properties: { plan_seats: null } });
    expect((await t.api.get(`/contacts/${c.body.id}`)).body.properties.plan_seats).toEqual({ type: 'number', value: 1 });
    const alice = await t.api.get(`/contacts/${ALICE}`);
    expect(alice.body.properties).toEqual({ company: { type: 'string', value: 'Acme' }, plan_seats: { type: 'number', value: 5 }, test_property_for_contacts_api: { type: 'string', value: 'unknown' } });
  });

  it('raises contact.created, contact.updated and contact.deleted with the documented data', async () => {
    const hook = await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.com/r', events: ['contact.created', 'contact.updated', 'contact.deleted'] });
    expect(hook.status).toBe(201);
    const c = await t.api.post('/contacts').send({ email: 'ev@example.com', first_name: 'Ev', segments: [{ id: NEWSLETTER }] });
    await t.api.post('/contacts').send({ email: 'ev@example.com' }); // existing: no second created
    await t.api.patch('/contacts/ev@example.com').send({ last_name: 'Ent' });
    await t.api.delete(`/contacts/${c.body.id}`);
    const types = t.emu.webhookDeliveries().map((d) => d.event_type);
    expect(types).toEqual(['contact.created', 'contact.updated', 'contact.deleted']);
    const [created, updated, deleted] = t.emu.webhookDeliveries().map((d) => d.payload);
    expect(created.data).toEqual({
      id: c.body.id, audience_id: NEWSLETTER, segment_ids: [NEWSLETTER],
      created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/),
      email: 'ev@example.com', first_name: 'Ev', last_name: null, unsubscribed: false,
    });
    expect(updated.data.last_name).toBe('Ent');
    expect(deleted.data).toMatchObject({ id: c.body.id, email: 'ev@example.com', segment_ids: [NEWSLETTER] });
  });

  it("isolates teams: another team's key gets 404 and its own list", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/contacts/${ALICE}`)).status).toBe(404);
    expect((await other.get('/contacts/alice@example.org')).status).toBe(404);
    expect((await other.patch(`/contacts/${ALICE}`).send({ first_name: 'x' })).status).toBe(404);
    expect((await other.delete(`/contacts/${ALICE}`)).status).toBe(404);
    expect((await other.get('/contacts')).body.data).toEqual([]);
    expect((await other.get(`/contacts/${ALICE}/segments`)).status).toBe(404);
    // The same email may exist in both teams, as separate contacts.
    const mine = await other.post('/contacts').send({ email: 'alice@example.org' });
    expect(mine.status).toBe(201);
    expect(mine.body.id).not.toBe(ALICE);
    expect((await t.api.get(`/contacts/${ALICE}`)).body.first_name).toBe('Alice');
  });
});

describe('legacy /audiences/{id}/contacts', () => {
  const t = useFreshEmulatorPerTest();

  it('creates in the audience, gets, updates, lists and deletes as recorded', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'Test segment for update 2' })).body.id;
    const c = await t.api.post(`/audiences/${seg}/contacts`).send({ email: 'test-update@example.com' });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ object: 'contact', id: expect.any(String) });
    const upd = await t.api.patch(`/audiences/${seg}/contacts/${c.body.id}`).send({ first_name: 'Updated', last_name: 'Name' });
    expect(upd.body).toEqual({ object: 'contact', id: c.body.id });
    const got = await t.api.get(`/audiences/${seg}/contacts/${c.body.id}`);
    expect(got.body).toMatchObject({ object: 'contact', email: 'test-update@example.com', first_name: 'Updated', last_name: 'Name', properties: {} });
    const byEmail = await t.api.get(`/audiences/${seg}/contacts/test-update@example.com`);
    expect(byEmail.body.id).toBe(c.body.id);
    const list = await t.api.get(`/audiences/${seg}/contacts`);
    expect(list.body.data.map((x: any) => x.id)).toEqual([c.body.id]);
    const del = await t.api.delete(`/audiences/${seg}/contacts/test-update@example.com`);
    expect(del.body).toEqual({ object: 'contact', contact: 'test-update@example.com', deleted: true });
    const gone = await t.api.get(`/audiences/${seg}/contacts/test-update@example.com`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Contact not found');
  });

  it('answers deleted for a contact that never existed, even after the segment is gone', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'x' })).body.id;
    const del = await t.api.delete(`/audiences/${seg}/contacts/${NIL}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'contact', contact: NIL, deleted: true });
    await t.api.delete(`/segments/${seg}`);
    expect((await t.api.delete(`/audiences/${seg}/contacts/${NIL}`)).status).toBe(200);
  });

  it('needs an existing audience to create, and the legacy create of an existing email returns its id and adds the membership', async () => {
    const missing = await t.api.post(`/audiences/${NIL}/contacts`).send({ email: 'a@example.com' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Audience not found');
    const seg = (await t.api.post('/segments').send({ name: 'x' })).body.id;
    const again = await t.api.post(`/audiences/${seg}/contacts`).send({ email: 'alice@example.org' });
    expect(again.body.id).toBe(ALICE);
    expect((await t.api.get(`/segments/${seg}/contacts`)).body.data.map((c: any) => c.id)).toEqual([ALICE]);
    const invalid = await t.api.post(`/audiences/${seg}/contacts`).send({});
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('Missing `email` field.');
  });
});
