/**
 * The delete rules of contacts, segments and topics kept by the schema's
 * foreign keys (contacts' migration 39): deleting a contact, a segment or a
 * topic through the API removes the memberships and topic choices that
 * name it, and only those.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

/** A contact in both segments and with a choice of both topics, returning the ids. */
async function setUp(t: TestEmulator) {
  const seg = async (name: string) => (await t.api.post('/segments').send({ name })).body.id as string;
  const topic = async (name: string) => (await t.api.post('/topics').send({ name, default_subscription: 'opt_in' })).body.id as string;
  const segments = [await seg('S1'), await seg('S2')];
  const topics = [await topic('T1'), await topic('T2')];
  const contact = async (email: string) => {
    const res = await t.api.post('/contacts').send({ email });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const s of segments) expect((await t.api.post(`/contacts/${res.body.id}/segments/${s}`)).status).toBe(200);
    const choices = await t.api.patch(`/contacts/${res.body.id}/topics`).send(topics.map((id) => ({ id, subscription: 'opt_out' })));
    expect(choices.status, JSON.stringify(choices.body)).toBe(200);
    return res.body.id as string;
  };
  return { segments, topics, a: await contact('a@example.net'), b: await contact('b@example.net') };
}

const count = (t: TestEmulator, sql: string, ...params: unknown[]) => (storeOf(t.emu).prepare(`SELECT COUNT(*) AS n FROM ${sql}`).get(...params) as { n: number }).n;

describe('memberships and topic choices go with what they name', () => {
  const t = useFreshEmulatorPerTest();

  it('deleting a contact removes its memberships and topic choices, not another contact\'s', async () => {
    const { a, b } = await setUp(t);
    expect(count(t, 'contact_segments WHERE contact_id = ?', a)).toBe(2);
    expect((await t.api.delete(`/contacts/${a}`)).status).toBe(200);
    expect(count(t, 'contact_segments WHERE contact_id = ?', a)).toBe(0);
    expect(count(t, 'contact_topics WHERE contact_id = ?', a)).toBe(0);
    expect(count(t, 'contact_segments WHERE contact_id = ?', b)).toBe(2);
    expect(count(t, 'contact_topics WHERE contact_id = ?', b)).toBe(2);
  });

  it('deleting a segment removes its memberships; its contacts stay, with their other memberships', async () => {
    const { segments, a, b } = await setUp(t);
    expect((await t.api.delete(`/segments/${segments[0]}`)).status).toBe(200);
    expect(count(t, 'contact_segments WHERE segment_id = ?', segments[0])).toBe(0);
    expect(count(t, 'contact_segments WHERE segment_id = ?', segments[1])).toBe(2);
    for (const id of [a, b]) expect((await t.api.get(`/contacts/${id}`)).status).toBe(200);
    expect((await t.api.get(`/contacts/${a}/segments`)).body.data.map((s: { id: string }) => s.id)).toEqual([segments[1]]);
  });

  it('deleting a topic removes the contacts\' choices of it, not of another topic', async () => {
    const { topics, a } = await setUp(t);
    expect((await t.api.delete(`/topics/${topics[0]}`)).status).toBe(200);
    expect(count(t, 'contact_topics WHERE topic_id = ?', topics[0])).toBe(0);
    expect(count(t, 'contact_topics WHERE topic_id = ?', topics[1])).toBe(2);
    const listed = (await t.api.get(`/contacts/${a}/topics`)).body.data.map((x: { id: string }) => x.id);
    expect(listed).not.toContain(topics[0]);
  });

  it('a membership naming no contact or segment is refused by the store', async () => {
    const { segments } = await setUp(t);
    const insert = storeOf(t.emu).prepare('INSERT INTO contact_segments (team_id, contact_id, segment_id, created_at) VALUES (?, ?, ?, 0)');
    expect(() => insert.run('t', '00000000-0000-4000-8000-000000000000', segments[0])).toThrow(/FOREIGN KEY constraint failed/);
  });
});
