import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';

const NEWSLETTER = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const PROMOTIONS = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const NIL = '00000000-0000-0000-0000-000000000000';

describe('SDK: contacts family', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('resend.segments.* and resend.audiences.*', async () => {
    const resend = sdk();
    const created = await resend.segments.create({ name: 'SDK segment' });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'segment', id: expect.any(String), name: 'SDK segment' });
    const id = created.data!.id;
    const got = await resend.segments.get(id);
    expect(got.data).toMatchObject({ object: 'segment', id, name: 'SDK segment' });
    const upd = await resend.segments.update(id, { name: 'Renamed' });
    expect(upd.data).toEqual({ object: 'segment', id });
    const list = await resend.segments.list({ limit: 1 });
    expect(list.data!.data).toEqual([{ id, name: 'Renamed', created_at: expect.any(String) }]);
    expect(list.data!.has_more).toBe(true);
    const viaAudiences = await resend.audiences.get(id);
    expect(viaAudiences.data!.name).toBe('Renamed');
    const removed = await resend.segments.remove(id);
    expect(removed.data).toEqual({ object: 'segment', id, deleted: true });
    const missing = await resend.segments.get(id);
    expect(missing.error).toEqual({ statusCode: 404, message: 'Audience not found', name: 'not_found' });
    const invalid = await resend.segments.create({} as any);
    expect(invalid.error).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
  });

  it('resend.audiences.* (deprecated alias of segments)', async () => {
    const resend = sdk();
    const created = await resend.audiences.create({ name: 'Legacy audience' });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'segment', id: expect.any(String), name: 'Legacy audience' });
    const id = created.data!.id;
    const upd = await resend.audiences.update(id, { name: 'Renamed audience' });
    expect(upd.data).toEqual({ object: 'segment', id });
    const list = await resend.audiences.list();
    expect(list.data!.object).toBe('list');
    expect(list.data!.data[0]).toEqual({ id, name: 'Renamed audience', created_at: expect.any(String) });
    expect(list.data!.data.map((s) => s.id)).toContain(NEWSLETTER);
    expect((await resend.segments.get(id)).data).toMatchObject({ object: 'segment', id, name: 'Renamed audience' });
    const removed = await resend.audiences.remove(id);
    expect(removed.data).toEqual({ object: 'segment', id, deleted: true });
    expect((await resend.audiences.list()).data!.data.map((s) => s.id)).not.toContain(id);
    expect((await resend.audiences.get(id)).error).toEqual({ statusCode: 404, message: 'Audience not found', name: 'not_found' });
    // As recorded: removing it again still answers deleted: true (docs/reference/resources.md#segments-and-audiences).
    expect((await resend.audiences.remove(id)).data).toEqual({ object: 'segment', id, deleted: true });
  });

  it('resend.contacts.* including segments and topics sub-APIs', async () => {
    const resend = sdk();
    await resend.contactProperties.create({ key: 'tier', type: 'string', fallbackValue: 'free' });
    const created = await resend.contacts.create({
      email: 'sdk+user@example.com', firstName: 'Sdk', lastName: 'User', properties: { tier: 'pro' },
      segments: [{ id: NEWSLETTER }], topics: [{ id: PROMOTIONS, subscription: 'opt_in' }],
    });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'contact', id: expect.any(String) });
    const id = created.data!.id;

    const byEmail = await resend.contacts.get({ email: 'sdk+user@example.com' });
    expect(byEmail.data).toMatchObject({ object: 'contact', id, email: 'sdk+user@example.com', first_name: 'Sdk', last_name: 'User', unsubscribed: false });
    expect(byEmail.data!.properties).toMatchObject({ tier: { type: 'string', value: 'pro' }, company: { type: 'string', value: 'your company' } });
    expect((await resend.contacts.get(id)).data!.id).toBe(id);

    const upd = await resend.contacts.update({ id, firstName: 'Changed', unsubscribed: true });
    expect(upd.data).toEqual({ object: 'contact', id });
    expect((await resend.contacts.get({ id })).data).toMatchObject({ first_name: 'Changed', unsubscribed: true });

    const list = await resend.contacts.list();
    expect(list.data!.data[0]).toMatchObject({ id, email: 'sdk+user@example.com' });
    const inSegment = await resend.contacts.list({ segmentId: NEWSLETTER, limit: 1 });
    expect(inSegment.data!.data.map((c) => c.id)).toEqual([id]);
    expect(inSegment.data!.has_more).toBe(true);

    const segs = await resend.contacts.segments.list({ email: 'sdk+user@example.com' });
    expect(segs.data!.data.map((s) => s.id)).toEqual([NEWSLETTER]);
    const seg2 = (await resend.segments.create({ name: 'Two' })).data!.id;
    expect((await resend.contacts.segments.add({ contactId: id, segmentId: seg2 })).data).toEqual({ id: seg2 });
    const rm = await resend.contacts.segments.remove({ email: 'sdk+user@example.com', segmentId: NEWSLETTER });
    expect(rm.data).toEqual({ id, audienceId: NEWSLETTER, deleted: true });
    expect((await resend.contacts.segments.list({ contactId: id })).data!.data.map((s) => s.id)).toEqual([seg2]);

    const topics = await resend.contacts.topics.list({ id });
    expect(topics.data!.data.find((x) => x.id === PROMOTIONS)!.subscription).toBe('opt_in');
    const setTopics = await resend.contacts.topics.update({ email: 'sdk+user@example.com', topics: [{ id: PROMOTIONS, subscription: 'opt_out' }] });
    expect(setTopics.error).toBeNull();
    expect(setTopics.data).toEqual({ id });
    expect((await resend.contacts.topics.list({ id })).data!.data.find((x) => x.id === PROMOTIONS)!.subscription).toBe('opt_out');

    const removed = await resend.contacts.remove({ email: 'sdk+user@example.com' });
    expect(removed.data).toEqual({ object: 'contact', contact: id, deleted: true });
    const gone = await resend.contacts.get({ id });
    expect(gone.error).toEqual({ statusCode: 404, message: 'Contact not found', name: 'not_found' });
    const missing = await resend.contacts.create({} as any);
    expect(missing.error!.message).toBe('Missing `email` field.');
  });

  it('resend.contacts.* with the deprecated audienceId (legacy paths)', async () => {
    const resend = sdk();
    const seg = (await resend.segments.create({ name: 'Legacy' })).data!.id;
    const created = await resend.contacts.create({ audienceId: seg, email: 'legacy@example.com', firstName: 'Leg' });
    expect(created.data).toEqual({ object: 'contact', id: expect.any(String) });
    const got = await resend.contacts.get({ audienceId: seg, email: 'legacy@example.com' });
    expect(got.data).toMatchObject({ id: created.data!.id, first_name: 'Leg' });
    const upd = await resend.contacts.update({ audienceId: seg, id: created.data!.id, lastName: 'Acy' });
    expect(upd.data).toEqual({ object: 'contact', id: created.data!.id });
    const list = await resend.contacts.list({ audienceId: seg });
    expect(list.data!.data.map((c) => c.email)).toEqual(['legacy@example.com']);
    const removed = await resend.contacts.remove({ audienceId: seg, email: 'legacy@example.com' });
    expect(removed.data).toEqual({ object: 'contact', contact: 'legacy@example.com', deleted: true });
    const never = await resend.contacts.remove({ audienceId: seg, id: NIL });
    expect(never.data).toEqual({ object: 'contact', contact: NIL, deleted: true });
  });

  it('resend.topics.*', async () => {
    const resend = sdk();
    const created = await resend.topics.create({ name: 'Weekly digest', defaultSubscription: 'opt_in', description: 'Once a week' });
    expect(created.data).toEqual({ object: 'topic', id: expect.any(String) });
    const id = created.data!.id;
    const got = await resend.topics.get(id);
    expect(got.data).toMatchObject({ object: 'topic', id, name: 'Weekly digest', description: 'Once a week', default_subscription: 'opt_in', visibility: 'private' });
    const upd = await resend.topics.update({ id, name: 'Digest' });
    expect(upd.error).toBeNull();
    expect(upd.data).toEqual({ object: 'topic', id });
    const list = await resend.topics.list();
    expect(list.data!.data[0]).toMatchObject({ id, name: 'Digest' });
    const removed = await resend.topics.remove(id);
    expect(removed.data).toEqual({ object: 'topic', id, deleted: true });
    expect((await resend.topics.get(id)).error!.statusCode).toBe(404);
  });

  it('resend.contactProperties.*', async () => {
    const resend = sdk();
    const created = await resend.contactProperties.create({ key: 'company_name', type: 'string', fallbackValue: 'Acme Corp' });
    expect(created.data).toEqual({ object: 'contact_property', id: expect.any(String) });
    const id = created.data!.id;
    const got = await resend.contactProperties.get(id);
    expect(got.data).toEqual({ object: 'contact_property', id, key: 'company_name', type: 'string', fallbackValue: 'Acme Corp', createdAt: expect.any(String) });
    const upd = await resend.contactProperties.update({ id, fallbackValue: 'Initech' });
    expect(upd.data).toEqual({ object: 'contact_property', id });
    const list = await resend.contactProperties.list();
    expect(list.data!.data[0]).toMatchObject({ id, key: 'company_name', fallbackValue: 'Initech' });
    const removed = await resend.contactProperties.remove(id);
    expect(removed.data).toEqual({ object: 'contact_property', deleted: true, id });
    const bad = await resend.contactProperties.create({ key: 'n', type: 'number', fallbackValue: 'x' as any });
    expect(bad.error!.statusCode).toBe(422);
  });

  it('resend.contacts.imports.*', async () => {
    const resend = sdk();
    const file = new Blob(['Email,Name,Seats\nimp1@example.com,One,2\nimp2@example.com,Two,x\nalice@example.org,Alice2,\n'], { type: 'text/csv' });
    const created = await resend.contacts.imports.create({
      file,
      columnMap: { email: 'Email', firstName: 'Name', properties: { plan_seats: { column: 'Seats', type: 'number' } } },
      onConflict: 'skip',
      segments: [{ id: NEWSLETTER }],
      topics: [{ id: PROMOTIONS, subscription: 'opt_in' }],
    });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'contact_import', id: expect.any(String) });
    const id = created.data!.id;
    expect((await resend.contacts.imports.get(id)).data!.status).toBe('queued');
    await emu.server.clock.advance('2s');
    const done = await resend.contacts.imports.get(id);
    expect(done.data).toMatchObject({ object: 'contact_import', id, status: 'completed', counts: { total: 3, created: 1, updated: 0, skipped: 1, failed: 1 } });
    const imported = await resend.contacts.get({ email: 'imp1@example.com' });
    expect(imported.data).toMatchObject({ first_name: 'One', properties: { plan_seats: { type: 'number', value: 2 } } });
    const list = await resend.contacts.imports.list({ status: 'completed' });
    expect(list.data!.data.map((i) => i.id)).toEqual([id]);
  });
});
