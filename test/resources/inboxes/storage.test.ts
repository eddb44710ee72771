/**
 * One fact, one row (issue 30 item 2): an inbox's thread emails are the
 * received and sent emails the emulator stores, referenced by id; their
 * bodies and attachments are read from there, never copied into the inbox's
 * tables. Deleting a thread or an inbox leaves the emails where they are
 * stored; a sent draft's bodies and files are its email's. A snapshot of
 * schema version 14 (0.x: the inbox kept copies) does not map onto this
 * schema and is refused (docs/admin-api.md#snapshots).
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { postJson } from '../receiving/helpers.js';
import { storeOf } from '../../../src/internals.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/snapshots');

/** The inbox tables of a snapshot (`GET /_emulator/snapshot`), as JSON text. */
async function inboxTablesText(t: TestEmulator): Promise<string> {
  const snap = (await t.api.get('/_emulator/snapshot')).body;
  return JSON.stringify(Object.entries(snap.tables).filter(([name]) => name.startsWith('inbox')));
}

async function makeInbox(t: TestEmulator, address: string): Promise<string> {
  const res = await t.api.post('/inboxes').send({ email_address: address });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('inbox storage: one fact, one row', () => {
  const t = useFreshEmulatorPerTest();

  it('a received email and a reply are stored once: the inbox tables hold no body, address or file of them', async () => {
    const inbox = await makeInbox(t, 'once@example.com');
    const marker = 'Zebra-marker-received';
    const got = await postJson(t, {
      from: 'Ada <ada@sender.test>', to: 'once@example.com', subject: 'Stored once', text: `${marker} text`, html: `<p>${marker} html</p>`,
      attachments: [{ filename: 'note.txt', content: b64('note body'), content_type: 'text/plain' }],
    });
    expect(got.status, JSON.stringify(got.body)).toBe(201);
    const [thread] = (await t.api.get(`/inboxes/${inbox}/threads`)).body.data;
    const emails = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body.data;
    expect(emails).toHaveLength(1);
    const received = (await t.api.get(`/emails/receiving/${emails[0].id}`)).body;
    // The thread email is the received email: same id, same bodies, same attachment ids.
    expect(emails[0]).toMatchObject({ from: 'Ada <ada@sender.test>', subject: 'Stored once', text: received.text, html: received.html });
    expect(emails[0].attachments).toEqual(received.attachments.map((a: any) => ({ id: a.id, filename: a.filename, size: a.size })));
    const reply = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${emails[0].id}/reply`).send({ text: 'Zebra-marker-reply', attachments: [{ filename: 'r.txt', content: b64('reply file') }] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const sent = (await t.api.get(`/emails/${reply.body.id}`)).body;
    const replied = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails/${reply.body.id}`)).body;
    expect(replied).toMatchObject({ direction: 'outbound', text: sent.text, from: sent.from, subject: sent.subject, message_id: sent.message_id });
    const sentFiles = (await t.api.get(`/emails/${reply.body.id}/attachments`)).body.data;
    expect(replied.attachments).toEqual(sentFiles.map((a: any) => ({ id: a.id, filename: a.filename, size: a.size })));
    // (The thread's own `subject` is the thread's, docs/reference/inboxes.md#state.)
    const text = await inboxTablesText(t);
    for (const fact of ['Zebra-marker', 'ada@sender.test', 'note.txt', 'r.txt', b64('note body'), b64('reply file')]) expect(text).not.toContain(fact);
  });

  it('a sent draft keeps no copy of its bodies and files: they are its email\'s', async () => {
    const inbox = await makeInbox(t, 'drafts@example.com');
    const draft = await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'bob@example.net', subject: 'Hello', html: '<p>Zebra draft</p>', attachments: [{ filename: 'd.txt', content: b64('draft file') }] });
    expect(draft.status).toBe(201);
    const unsent = (await t.api.get(`/inboxes/${inbox}/drafts/${draft.body.id}`)).body;
    expect(unsent).toMatchObject({ html: '<p>Zebra draft</p>', text: null, attachments: [{ filename: 'd.txt', size: 10 }] });
    const sent = await t.api.post(`/inboxes/${inbox}/drafts/${draft.body.id}/send`);
    expect(sent.status).toBe(200);
    const email = (await t.api.get(`/emails/${sent.body.id}`)).body;
    const files = (await t.api.get(`/emails/${sent.body.id}/attachments`)).body.data;
    const after = (await t.api.get(`/inboxes/${inbox}/drafts/${draft.body.id}`)).body;
    expect(after).toMatchObject({ email_id: sent.body.id, html: email.html, text: email.text, subject: 'Hello' });
    expect(after.attachments).toEqual(files.map((a: any) => ({ id: a.id, filename: a.filename, content_type: a.content_type, size: a.size })));
    const text = await inboxTablesText(t);
    expect(text).not.toContain('Zebra draft');
    expect(text).not.toContain(b64('draft file'));
  });

  it('deleting a thread or an inbox leaves its emails stored; received mail after that is a received email only', async () => {
    const inbox = await makeInbox(t, 'gone@example.com');
    await postJson(t, { from: 'a@sender.test', to: 'gone@example.com', subject: 'Keep me', text: 'kept' });
    const [thread] = (await t.api.get(`/inboxes/${inbox}/threads`)).body.data;
    const [email] = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body.data;
    const reply = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${email.id}/reply`).send({ text: 'answer' });
    expect((await t.api.delete(`/inboxes/${inbox}/threads/${thread.id}`)).body.deleted).toBe(true);
    await t.emu.clock.advance('31d'); // the trash purge deletes the thread
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}`)).status).toBe(404);
    expect((await t.api.get(`/emails/receiving/${email.id}`)).body.text).toBe('kept');
    expect((await t.api.get(`/emails/${reply.body.id}`)).body.text).toBe('answer');
    expect((await t.api.delete(`/inboxes/${inbox}`)).status).toBe(200);
    const later = await postJson(t, { from: 'a@sender.test', to: 'gone@example.com', subject: 'After', text: 'still received' });
    expect(later.status).toBe(201);
    const list = (await t.api.get('/emails/receiving')).body.data.map((e: any) => e.id);
    expect(list).toEqual(expect.arrayContaining([email.id, later.body.id]));
    expect(await inboxTablesText(t)).not.toContain(email.id);
  });

  it('a thread email whose email is not stored is not shown: not listed, 404, not counted (a snapshot without it)', async () => {
    const inbox = await makeInbox(t, 'partial@example.com');
    await postJson(t, { from: 'a@sender.test', to: 'partial@example.com', subject: 'Kept', text: 'one', message_id: '<k1@sender.test>' });
    const gone = await postJson(t, { from: 'a@sender.test', to: 'partial@example.com', subject: 'Re: Kept', text: 'two', headers: { 'In-Reply-To': '<k1@sender.test>' } });
    const snap = (await t.api.get('/_emulator/snapshot')).body;
    snap.tables.received_emails = snap.tables.received_emails.filter((r: any) => r.id !== gone.body.id);
    expect((await t.api.post('/_emulator/snapshot').send(snap)).status).toBe(200);
    const [thread] = (await t.api.get(`/inboxes/${inbox}/threads`)).body.data;
    expect(thread).toMatchObject({ subject: 'Kept', email_count: 1 });
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body.data.map((e: any) => e.text)).toEqual(['one']);
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails/${gone.body.id}`)).status).toBe(404);
    expect(t.emu.inboxThreads({ inbox }).flatMap((v) => v.emails.map((e) => e.text))).toEqual(['one']);
  });

  it('pages a thread\'s emails oldest first with after and before, 422 on both or an unknown cursor', async () => {
    const inbox = await makeInbox(t, 'pages@example.com');
    await postJson(t, { from: 'a@sender.test', to: 'pages@example.com', subject: 'Paged', text: 'first', message_id: '<p0@sender.test>' });
    const [thread] = (await t.api.get(`/inboxes/${inbox}/threads`)).body.data;
    for (let i = 1; i < 5; i++) {
      await t.emu.clock.advance('1m');
      await postJson(t, { from: 'a@sender.test', to: 'pages@example.com', subject: 'Re: Paged', text: `n${i}`, headers: { 'In-Reply-To': `<p${i - 1}@sender.test>` }, message_id: `<p${i}@sender.test>` });
    }
    const all = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body;
    expect(all.data.map((e: any) => e.text)).toEqual(['first', 'n1', 'n2', 'n3', 'n4']);
    const ids = all.data.map((e: any) => e.id);
    const p1 = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?limit=2`)).body;
    expect([p1.data.map((e: any) => e.id), p1.has_more]).toEqual([ids.slice(0, 2), true]);
    const p2 = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?limit=2&after=${ids[1]}`)).body;
    expect([p2.data.map((e: any) => e.id), p2.has_more]).toEqual([ids.slice(2, 4), true]);
    const p3 = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?limit=2&after=${ids[3]}`)).body;
    expect([p3.data.map((e: any) => e.id), p3.has_more]).toEqual([ids.slice(4), false]);
    const back = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?limit=2&before=${ids[4]}`)).body;
    expect([back.data.map((e: any) => e.id), back.has_more]).toEqual([ids.slice(2, 4), true]);
    const backAll = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?limit=5&before=${ids[2]}`)).body;
    expect([backAll.data.map((e: any) => e.id), backAll.has_more]).toEqual([ids.slice(0, 2), false]);
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?after=${ids[0]}&before=${ids[2]}`)).status).toBe(422);
    const unknown = await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails?after=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(422);
  });

  it('a schema 14 snapshot (0.x), whose inbox kept copies of its thread emails, is refused naming the copied column, and changes nothing', async () => {
    const snap = JSON.parse(fs.readFileSync(path.join(fixtures, 'v14.json'), 'utf8'));
    expect(snap.schema_version).toBe(14);
    expect(snap.tables.inbox_messages[0]).toHaveProperty('from_addr');
    const before = (await t.api.get('/_emulator/snapshot')).body;
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Invalid snapshot: a snapshot of schema version 14 \(resend-emulator 0\.x\) has column `inbox_messages\.from_addr`, which this version \(schema version \d+\) does not have; it cannot be imported\.$/);
    expect((await t.api.get('/_emulator/snapshot')).body).toEqual(before);
  });
});
