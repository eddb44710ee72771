/**
 * One fact, one row (issue 30 item 2): an inbox's thread emails are the
 * received and sent emails the emulator stores, referenced by id; their
 * bodies and attachments are read from there, never copied into the inbox's
 * tables. Deleting a thread or an inbox leaves the emails where they are
 * stored; a sent draft's bodies and files are its email's. A store of schema
 * version 14 (the inbox kept copies) imports with its inbox data intact:
 * migration 1601 keeps the references and moves the copies that existed
 * nowhere else (seeded thread emails) to where their kind of email lives.
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

  it('a schema 14 store whose inbox kept copies imports with its inbox data intact (migration 1601)', async () => {
    const snap = JSON.parse(fs.readFileSync(path.join(fixtures, 'v14.json'), 'utf8'));
    expect(snap.schema_version).toBe(14);
    const tables = snap.tables;
    const [inbox] = tables.inboxes;
    const [thread] = tables.inbox_threads;
    const [seeded] = tables.inbox_messages; // a fixture-seeded thread email: it exists nowhere else in v14
    expect(tables.received_emails.some((r: any) => r.id === seeded.id)).toBe(false);
    const at = seeded.received_at + 60_000;
    // An email received into the inbox (stored in both places in v14) with a file.
    const receivedId = '11111111-1111-4111-8111-111111111111';
    const receivedFile = { id: '22222222-2222-4222-8222-222222222222', filename: 'scan.pdf', size: 3, content_type: 'application/pdf', content: b64('pdf'), path: null };
    tables.received_emails.push({
      seq: 1, id: receivedId, team_id: inbox.team_id, from_header: 'Alice <alice@example.org>', from_address: 'alice@example.org', to_addresses: '["shared@example.com"]',
      cc_addresses: '[]', bcc_addresses: '[]', reply_to_addresses: '[]', received_for: '["shared@example.com"]', subject: 'Re: Where is my order?', message_id: '<follow-up@example.org>',
      html: '<p>Any news?</p>', text: 'Any news?', headers: JSON.stringify({ 'in-reply-to': seeded.message_id }), raw: b64('From: alice@example.org\r\n\r\nAny news?'), created_at: at,
    });
    tables.received_attachments.push({ seq: 1, id: receivedFile.id, team_id: inbox.team_id, email_id: receivedId, filename: 'scan.pdf', content_type: 'application/pdf', content_id: null, content_disposition: 'attachment', size: 3, content: b64('pdf'), created_at: at });
    const copy = (m: Record<string, unknown>) => ({ inbox_id: inbox.id, thread_id: thread.id, cc: '[]', bcc: '[]', reply_to: '[]', ...m });
    tables.inbox_messages.push(copy({
      seq: 2, id: receivedId, direction: 'inbound', from_addr: 'Alice <alice@example.org>', to_addrs: '["shared@example.com"]', subject: 'Re: Where is my order?',
      message_id: '<follow-up@example.org>', refs: JSON.stringify([seeded.message_id]), html: '<p>Any news?</p>', text: 'Any news?', attachments: JSON.stringify([receivedFile]), read: 0, received_at: at,
    }));
    // An outbound thread email that exists only in the inbox (seeded as sent), with a file.
    const sentId = '33333333-3333-4333-8333-333333333333';
    const sentFile = { id: '44444444-4444-4444-8444-444444444444', filename: 'label.txt', size: 5, content_type: 'text/plain', content: b64('label'), path: null };
    tables.inbox_messages.push(copy({
      seq: 3, id: sentId, direction: 'outbound', from_addr: 'Acme Support <shared@example.com>', to_addrs: '["alice@example.org"]', subject: 'Re: Where is my order?',
      message_id: '<answer@example.com>', refs: JSON.stringify([seeded.message_id, '<follow-up@example.org>']), html: null, text: 'It ships today.', attachments: JSON.stringify([sentFile]),
      read: 1, received_at: at + 60_000,
    }));
    // A sent draft (its copies are its email's now) and an unsent one (its own row).
    const draft = (d: Record<string, unknown>) => ({ inbox_id: inbox.id, cc: '[]', bcc: '[]', thread_id: null, reply_to_email_id: null, created_at: at, updated_at: at, ...d });
    tables.inbox_drafts.push(
      draft({ seq: 1, id: '55555555-5555-4555-8555-555555555555', type: 'reply', to_addrs: '["alice@example.org"]', subject: null, html: null, text: 'It ships today.', thread_id: thread.id, reply_to_email_id: receivedId, email_id: sentId, attachments: JSON.stringify([sentFile]) }),
      draft({ seq: 2, id: '66666666-6666-4666-8666-666666666666', type: 'standalone', to_addrs: null, subject: 'Later', html: '<p>Not yet</p>', text: null, email_id: null, attachments: '[]' }),
    );
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const cols = (storeOf(t.emu).prepare('PRAGMA table_info(inbox_messages)').all() as { name: string }[]).map((c) => c.name);
    expect(cols.sort()).toEqual(['direction', 'id', 'inbox_id', 'message_id', 'read', 'received_at', 'seq', 'thread_id']);
    const list = (await t.api.get(`/inboxes/${inbox.id}/threads/${thread.id}/emails`)).body;
    expect(list.data.map((e: any) => [e.id, e.direction, e.text])).toEqual([
      [seeded.id, 'inbound', seeded.text],
      [receivedId, 'inbound', 'Any news?'],
      [sentId, 'outbound', 'It ships today.'],
    ]);
    expect(list.data[0]).toMatchObject({ from: seeded.from_addr, to: JSON.parse(seeded.to_addrs), subject: seeded.subject, message_id: seeded.message_id, read: false });
    expect(list.data[1]).toMatchObject({ html: '<p>Any news?</p>', attachments: [{ id: receivedFile.id, filename: 'scan.pdf', size: 3 }] });
    expect(list.data[2]).toMatchObject({ from: 'Acme Support <shared@example.com>', to: ['alice@example.org'], read: true, attachments: [{ id: sentFile.id, filename: 'label.txt', size: 5 }] });
    // The moved copies are emails of their kind now, read by their own APIs.
    const seededReceived = (await t.api.get(`/emails/receiving/${seeded.id}`)).body;
    expect(seededReceived).toMatchObject({ id: seeded.id, subject: seeded.subject, text: seeded.text, message_id: seeded.message_id });
    const sent = (await t.api.get(`/emails/${sentId}`)).body;
    expect(sent).toMatchObject({ id: sentId, text: 'It ships today.', to: ['alice@example.org'], last_event: 'delivered' });
    const sentFiles = (await t.api.get(`/emails/${sentId}/attachments`)).body.data;
    expect(sentFiles.map((a: any) => [a.id, a.filename, a.size])).toEqual([[sentFile.id, 'label.txt', 5]]);
    // Drafts: the sent one reads its email; the unsent one is as it was.
    const sentDraft = (await t.api.get(`/inboxes/${inbox.id}/drafts/55555555-5555-4555-8555-555555555555`)).body;
    expect(sentDraft).toMatchObject({ email_id: sentId, text: 'It ships today.', attachments: [{ id: sentFile.id, filename: 'label.txt', size: 5 }] });
    expect((await t.api.get(`/inboxes/${inbox.id}/drafts/66666666-6666-4666-8666-666666666666`)).body).toMatchObject({ html: '<p>Not yet</p>', subject: 'Later' });
    // Threading still finds the moved emails by Message-ID: an answer to the sent one joins the thread, and a reply to it carries its References.
    await postJson(t, { from: 'alice@example.org', to: 'shared@example.com', subject: 'Re: Re: Where is my order?', text: 'Thanks!', headers: { 'In-Reply-To': '<answer@example.com>' } });
    const threads = (await t.api.get(`/inboxes/${inbox.id}/threads`)).body.data;
    expect(threads.map((x: any) => [x.id, x.email_count, x.has_attachment])).toEqual([[thread.id, 4, true]]);
    const reply = await t.api.post(`/inboxes/${inbox.id}/threads/${thread.id}/emails/${sentId}/reply`).send({ text: 'More news' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const replyHeaders = storeOf(t.emu).prepare('SELECT headers FROM emails WHERE id = ?').get(reply.body.id) as { headers: string };
    expect(JSON.parse(replyHeaders.headers)).toEqual({ 'In-Reply-To': '<answer@example.com>', References: `${seeded.message_id} <follow-up@example.org> <answer@example.com>` });
    // Forward sends the moved file again.
    const fwd = await t.api.post(`/inboxes/${inbox.id}/threads/${thread.id}/emails/${sentId}/forward`).send({ to: 'carol@example.net' });
    expect(fwd.status, JSON.stringify(fwd.body)).toBe(201);
    const fwdFiles = (await t.api.get(`/emails/${fwd.body.id}/attachments`)).body.data;
    expect(fwdFiles.map((a: any) => [a.filename, a.size])).toEqual([['label.txt', 5]]);
  });
});
