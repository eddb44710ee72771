/**
 * The delete rules of inboxes kept by the schema's foreign keys (inboxes'
 * migration 42; docs/reference/inboxes.md "Inboxes and arriving mail",
 * "Sent drafts"): deleting an inbox removes everything in it; deleting a
 * label takes it off its threads; a thread purged from trash takes its
 * emails' places and label links with it, and its unsent drafts, while a
 * sent draft stays with `thread_id` null. The emails themselves stay.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { postJson } from '../receiving/helpers.js';
import { storeOf } from '../../../src/internals.js';

const count = (t: TestEmulator, table: string, where: string, ...params: unknown[]) => (storeOf(t.emu).prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;

/** An inbox with a received email in a labelled thread, an agent, a sent and an unsent reply draft, a standalone draft. */
async function setUp(t: TestEmulator, address: string) {
  const inbox = (await t.api.post('/inboxes').send({ email_address: address })).body.id as string;
  const first = await postJson(t, { from: 'ann@sender.test', to: address, subject: 'Q', text: 'x' });
  const second = await postJson(t, { from: 'bob@sender.test', to: address, subject: 'Re: Q', text: 'y', headers: { 'In-Reply-To': `<${first.body.message_id ?? ''}>` } });
  const thread = (await t.api.get(`/inboxes/${inbox}/threads`)).body.data.find((x: { subject: string }) => x.subject === 'Q').id as string;
  const label = (await t.api.post(`/inboxes/${inbox}/labels`).send({ name: 'L' })).body.id as string;
  expect((await t.api.post(`/inboxes/${inbox}/threads/${thread}/labels`).send({ labels: [label] })).status).toBe(200);
  expect((await t.api.patch(`/inboxes/${inbox}/agent`).send({ instructions: 'Be brief.' })).status).toBe(200);
  const sent = (await t.api.post(`/inboxes/${inbox}/drafts`).send({ thread_id: thread, reply_to_email_id: first.body.id, text: 'Answer' })).body.id as string;
  expect((await t.api.post(`/inboxes/${inbox}/drafts/${sent}/send`).set('Content-Type', 'application/json')).status).toBe(200);
  const unsent = (await t.api.post(`/inboxes/${inbox}/drafts`).send({ thread_id: thread, reply_to_email_id: first.body.id, text: 'Later' })).body.id as string;
  const standalone = (await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'c@sender.test', text: 'New' })).body.id as string;
  expect(count(t, 'inbox_drafts', 'id IN (?, ?, ?)', sent, unsent, standalone)).toBe(3);
  return { inbox, thread, label, sent, unsent, standalone, received: [first.body.id as string, second.body.id as string] };
}

describe('what goes with an inbox, a label and a thread', () => {
  const t = useFreshEmulatorPerTest();

  it('deleting an inbox removes its agent, labels, threads, their emails\' places and label links, and drafts; the emails stay; another inbox keeps its own', async () => {
    const gone = await setUp(t, 'gone@example.com');
    const kept = await setUp(t, 'kept@example.com');
    const rows = (inbox: string, thread: string, label: string) => [
      count(t, 'inbox_agents', 'inbox_id = ?', inbox), count(t, 'inbox_labels', 'inbox_id = ?', inbox), count(t, 'inbox_threads', 'inbox_id = ?', inbox),
      count(t, 'inbox_messages', 'inbox_id = ?', inbox), count(t, 'inbox_drafts', 'inbox_id = ?', inbox),
      count(t, 'inbox_thread_labels', 'thread_id = ? OR label_id = ?', thread, label),
    ];
    const keptBefore = rows(kept.inbox, kept.thread, kept.label);
    expect(rows(gone.inbox, gone.thread, gone.label).every((n) => n > 0)).toBe(true);
    expect((await t.api.delete(`/inboxes/${gone.inbox}`)).status).toBe(200);
    expect(rows(gone.inbox, gone.thread, gone.label)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(rows(kept.inbox, kept.thread, kept.label)).toEqual(keptBefore);
    for (const id of gone.received) expect((await t.api.get(`/emails/receiving/${id}`)).status).toBe(200);
  });

  it('deleting a label takes it off its threads; the threads stay', async () => {
    const s = await setUp(t, 'labels@example.com');
    expect((await t.api.delete(`/inboxes/${s.inbox}/labels/${s.label}`)).status).toBe(200);
    expect(count(t, 'inbox_thread_labels', 'label_id = ?', s.label)).toBe(0);
    expect((await t.api.get(`/inboxes/${s.inbox}/threads/${s.thread}`)).status).toBe(200);
  });

  it('a thread purged from trash takes its emails\' places, label links and unsent drafts; its sent draft stays with thread_id null; the emails stay', async () => {
    const s = await setUp(t, 'purge@example.com');
    expect((await t.api.delete(`/inboxes/${s.inbox}/threads/${s.thread}`)).status).toBe(200);
    await t.emu.clock.advance('30d');
    expect((await t.api.get(`/inboxes/${s.inbox}/threads/${s.thread}`)).status).toBe(404);
    expect(count(t, 'inbox_messages', 'thread_id = ?', s.thread)).toBe(0);
    expect(count(t, 'inbox_thread_labels', 'thread_id = ?', s.thread)).toBe(0);
    expect((await t.api.get(`/inboxes/${s.inbox}/drafts/${s.unsent}`)).status).toBe(404);
    const sent = await t.api.get(`/inboxes/${s.inbox}/drafts/${s.sent}`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: s.sent, thread_id: null, email_id: expect.any(String) });
    expect((await t.api.get(`/inboxes/${s.inbox}/drafts/${s.standalone}`)).status).toBe(200);
    for (const id of s.received) expect((await t.api.get(`/emails/receiving/${id}`)).status).toBe(200);
    expect((await t.api.get(`/emails/${sent.body.email_id}`)).status).toBe(200);
  });
});
