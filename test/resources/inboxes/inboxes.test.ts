/**
 * Rules of the inboxes resource (src/resources/inboxes/; docs/reference/inboxes.md):
 * permissions, validation naming the field, threading of raw MIME by
 * References, forwarding addresses, folders and unread counts, reply-all
 * recipients, forward limits, drafts, idempotency, the trash purge on the
 * clock, reset and snapshot, and `emu.inboxThreads()`.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { postJson, postRaw, rawMessage } from '../receiving/helpers.js';
import { storeOf } from '../../../src/internals.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

async function makeInbox(t: TestEmulator, address = 'desk@example.com', extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api.post('/inboxes').send({ email_address: address, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function threadsOf(t: TestEmulator, inbox: string, query = ''): Promise<any[]> {
  const res = await t.api.get(`/inboxes/${inbox}/threads${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('inboxes', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('refuses sending_access keys (401 restricted_api_key)', async () => {
    const key = await t.api.post('/api-keys').send({ name: 'send', permission: 'sending_access' });
    const restricted = await t.as(key.body.token).get('/inboxes');
    expect(restricted.status).toBe(401);
    expect(restricted.body.name).toBe('restricted_api_key');
  });

  // One rule per case (a failure names its request and hides no other): each bad request, made on a fresh inbox,
  // answers its status with the exact body (`body`), a body containing these members (`match`), or a message naming
  // the field (`names`).
  const v = (message: string) => ({ statusCode: 422, name: 'validation_error', message });
  const uuids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');
  const badRequests: { rule: string; send: (inbox: string) => Promise<{ status: number; body: any }>; status: number; body?: object; match?: object; names?: string }[] = [
    { rule: 'POST /inboxes without email_address', send: () => t.api.post('/inboxes').send({}), status: 422, body: { statusCode: 422, name: 'missing_required_field', message: 'Missing `email_address` field.' } },
    { rule: 'a name over 64 characters', send: () => t.api.post('/inboxes').send({ email_address: 'a@example.com', name: 'x'.repeat(65) }), status: 422, names: 'name' },
    { rule: 'an email_address with a display name', send: () => t.api.post('/inboxes').send({ email_address: 'Support <a@example.com>' }), status: 422, names: 'email_address' },
    { rule: 'folders naming drafts', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads?folders=inbox,drafts`), status: 422, body: v('The `folders` value "drafts" must be one of: inbox, archive, spam, sent, trash.') },
    { rule: 'a search query over 256 characters', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads/search?query=${'q'.repeat(300)}`), status: 422, body: v('The `query` parameter must be at most 256 characters, but received 300.') },
    { rule: 'a search with 25 from values', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads/search?from=${Array.from({ length: 25 }, (_, i) => `a${i}`).join(',')}`), status: 422, body: v('The `from` parameter must contain at most 20 values, but received 25.') },
    { rule: 'a label that is not a UUID', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads?labels=billing`), status: 422, body: v('The `labels` value "billing" must be a valid UUID.') },
    { rule: 'a search with 60 labels', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads/search?labels=${uuids(60)}`), status: 422, body: v('The `labels` parameter must contain at most 50 label IDs, but received 60.') },
    { rule: 'read neither true nor false', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads?read=yes`), status: 422, match: { statusCode: 422, message: 'The `read` parameter must be `true` or `false`.' } },
    { rule: 'moving a thread to sent', send: (inbox) => t.api.patch(`/inboxes/${inbox}/threads/00000000-0000-4000-8000-000000000000`).send({ folder: 'sent' }), status: 422, names: 'folder' },
    { rule: 'a from_name with an address', send: (inbox) => t.api.patch(`/inboxes/${inbox}`).send({ from_name: 'Support <s@example.com>' }), status: 422, names: 'from_name' },
    { rule: 'an empty update', send: (inbox) => t.api.patch(`/inboxes/${inbox}`).send({}), status: 422 },
    { rule: 'an unknown agent tone', send: (inbox) => t.api.patch(`/inboxes/${inbox}/agent`).send({ tone: 'grumpy' }), status: 422, names: 'tone' },
    { rule: 'an unknown label (404)', send: (inbox) => t.api.get(`/inboxes/${inbox}/threads?labels=00000000-0000-4000-8000-000000000000`), status: 404, body: { statusCode: 404, name: 'not_found', message: 'Label "00000000-0000-4000-8000-000000000000" not found.' } },
  ];
  it.each(badRequests)('answers $status naming the field: $rule', async ({ send, status, body, match, names }) => {
    const res = await send(await makeInbox(t));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (body) expect(res.body).toEqual(body);
    if (match) expect(res.body).toMatchObject(match);
    if (names) expect(res.body.message).toContain(names);
  });

  it('needs a verified domain that receives, unless forwarding; forwarded mail to receiving_address lands in the inbox', async () => {
    await t.api.post('/domains').send({ name: 'sendonly.example.net' });
    const pending = await t.api.post('/inboxes').send({ email_address: 'a@sendonly.example.net' });
    expect(pending.status).toBe(422);
    expect(pending.body.message).toContain('not verified');
    // The fixtures' second team has claimable.dev verified for sending only: forwarding is the way in.
    const other = t.as('re_emulator_second_team_key');
    const refused = await other.post('/inboxes').send({ email_address: 'help@claimable.dev' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('forwarding');
    const created = await other.post('/inboxes').send({ email_address: 'help@claimable.dev', forwarding: true });
    expect(created.status).toBe(201);
    const detail = (await other.get(`/inboxes/${created.body.id}`)).body;
    expect(detail.receiving_address).toMatch(/@inbound\.resend-emulator\.localhost$/);
    const rec = await postJson(t, { from: 'x@sender.test', to: detail.receiving_address, subject: 'Forwarded', text: 'hi' });
    expect(rec.status).toBe(201);
    const threads = (await other.get(`/inboxes/${created.body.id}/threads`)).body.data;
    expect(threads).toEqual([expect.objectContaining({ subject: 'Forwarded', email_count: 1 })]);
  });

  it('threads raw MIME by References (last to first), never by subject; unread counts only the inbox folder', async () => {
    const inbox = await makeInbox(t, 'support@example.com');
    await postRaw(t, rawMessage({ messageId: '<root@sender.test>' }));
    await postRaw(t, rawMessage({ messageId: '<other@sender.test>' }));
    const reply = rawMessage({ messageId: '<child@sender.test>', subject: 'Something else' }).replace('X-Custom-Header: hello', 'References: <unknown@x> <root@sender.test>');
    await postRaw(t, reply);
    const threads = await threadsOf(t, inbox);
    expect(threads.map((x) => x.email_count)).toEqual([2, 1]);
    expect(threads[0]).toMatchObject({ subject: 'Invoice attached', has_attachment: true });
    expect((await t.api.get(`/inboxes/${inbox}`)).body.unread).toBe(2);
    await t.api.patch(`/inboxes/${inbox}/threads/${threads[1].id}`).send({ folder: 'spam' });
    expect((await t.api.get(`/inboxes/${inbox}`)).body.unread).toBe(1);
    // New mail into a spam thread keeps it in spam.
    await postRaw(t, rawMessage({ messageId: '<spam2@sender.test>' }).replace('X-Custom-Header: hello', 'In-Reply-To: <other@sender.test>'));
    expect((await threadsOf(t, inbox, '?folders=spam'))[0]).toMatchObject({ id: threads[1].id, email_count: 2 });
    // Received mail is also a received email with the same id.
    const emails = (await t.api.get(`/inboxes/${inbox}/threads/${threads[0].id}/emails`)).body.data;
    expect((await t.api.get(`/emails/receiving/${emails[0].id}`)).status).toBe(200);
  });

  it('reply_all adds the original to and cc without the inbox; an archived thread returns to inbox on new mail', async () => {
    const inbox = await makeInbox(t, 'team@example.com');
    const rec = await postJson(t, { from: 'a@sender.test', to: ['team@example.com', 'b@sender.test'], cc: 'c@sender.test', reply_to: 'replies@sender.test', subject: 'Plan', text: 'x', message_id: '<plan@sender.test>' });
    const [thread] = await threadsOf(t, inbox);
    const res = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/reply`).send({ text: 'ok', reply_all: true, cc: 'd@sender.test' });
    expect(res.status).toBe(201);
    const sent = (await t.api.get(`/emails/${res.body.id}`)).body;
    expect(sent).toMatchObject({ to: ['replies@sender.test', 'b@sender.test'], cc: ['c@sender.test', 'd@sender.test'], subject: 'Re: Plan' });

    await t.api.patch(`/inboxes/${inbox}/threads/${thread.id}`).send({ folder: 'archive', read: true });
    const out = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body.data[1];
    await postJson(t, { from: 'a@sender.test', to: 'team@example.com', subject: 'Re: Plan', text: 'y', headers: { References: `<plan@sender.test> ${out.message_id}` } });
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}`)).body).toMatchObject({ folder: 'inbox', read: false });
  });

  it('a reply reaches delivered on the clock with inbox.email.sent and email.delivered; Idempotency-Key replays it', async () => {
    const inbox = await makeInbox(t, 'care@example.com');
    const rec = await postJson(t, { from: 'delivered@resend.dev', to: 'care@example.com', subject: 'Help', text: 'x' });
    const [thread] = await threadsOf(t, inbox);
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hook', events: ['inbox.email.sent', 'email.delivered'] });
    const path = `/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/reply`;
    const first = await t.api.post(path).set('Idempotency-Key', 'k1').send({ text: 'hello' });
    const again = await t.api.post(path).set('Idempotency-Key', 'k1').send({ text: 'hello' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await t.api.post(path).set('Idempotency-Key', 'k1').send({ text: 'other' })).status).toBe(409);
    await t.emu.clock.advance('10s');
    expect((await t.api.get(`/emails/${first.body.id}`)).body.last_event).toBe('delivered');
    const types = t.emu.webhookDeliveries().map((d) => d.event_type);
    expect(types.filter((x) => x === 'inbox.email.sent')).toHaveLength(1);
    expect(types).toContain('email.delivered');
    expect((await threadsOf(t, inbox))[0].email_count).toBe(2);
  });

  it('a reply to a suppressed address ends suppressed like POST /emails; reserved or broken headers and no body are 422', async () => {
    const inbox = await makeInbox(t, 'sales@example.com');
    const rec = await postJson(t, { from: 'a@sender.test', to: 'sales@example.com', subject: 'S', text: 'x' });
    const [thread] = await threadsOf(t, inbox);
    await t.api.post('/suppressions').send({ email: 'a@sender.test' });
    const res = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/reply`).send({ text: 'x', headers: { 'X-Ok': 'yes' } });
    expect(res.status).toBe(201);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/emails/${res.body.id}`)).body.last_event).toBe('suppressed');
    for (const bad of [{ 'reply-to': 'x@y.z' }, { '': 'v' }, { 'X-A': 'a\r\nb' }]) {
      const r = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/reply`).send({ text: 'x', headers: bad });
      expect(r.status, JSON.stringify(bad)).toBe(422);
    }
    const none = await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/reply`).send({ cc: 'a@b.c' });
    expect(none.body).toEqual({ statusCode: 422, name: 'missing_required_field', message: 'Missing `html` or `text` field.' });
    expect((await threadsOf(t, inbox))[0].email_count).toBe(2);
  });

  it('forward carries the originals within 10 files', async () => {
    const inbox = await makeInbox(t, 'fw@example.com');
    const attachments = Array.from({ length: 6 }, (_, i) => ({ filename: `f${i}.txt`, content: b64(`file ${i}`) }));
    const rec = await postJson(t, { from: 'a@sender.test', to: 'fw@example.com', subject: 'Files', text: 'x', attachments });
    const [thread] = await threadsOf(t, inbox);
    const path = `/inboxes/${inbox}/threads/${thread.id}/emails/${rec.body.id}/forward`;
    const tooMany = await t.api.post(path).send({ to: 'delivered@resend.dev', attachments: attachments.slice(0, 5) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toContain('attachments');
    const ok = await t.api.post(path).send({ to: 'delivered@resend.dev', attachments: [{ filename: 'extra.txt', content: b64('extra') }] });
    expect(ok.status).toBe(201);
    expect((await t.api.get(`/emails/${ok.body.id}/attachments`)).body.data).toHaveLength(7);
    const missing = await t.api.post(path).send({});
    expect(missing.body).toMatchObject({ statusCode: 422, name: 'missing_required_field', message: 'Missing `to` field.' });
  });

  it('reply drafts default to the author, one per email; a sent draft is 409 to update and send', async () => {
    const inbox = await makeInbox(t, 'd@example.com');
    const rec = await postJson(t, { from: 'Ann <ann@sender.test>', to: 'd@example.com', subject: 'Q', text: 'x' });
    const [thread] = await threadsOf(t, inbox);
    const half = await t.api.post(`/inboxes/${inbox}/drafts`).send({ thread_id: thread.id, text: 'x' });
    expect(half.status).toBe(422);
    const d = await t.api.post(`/inboxes/${inbox}/drafts`).send({ thread_id: thread.id, reply_to_email_id: rec.body.id, text: 'Answer' });
    expect(d.status).toBe(201);
    const same = await t.api.post(`/inboxes/${inbox}/drafts`).send({ thread_id: thread.id, reply_to_email_id: rec.body.id, text: 'Again' });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(d.body.id);
    expect((await t.api.get(`/inboxes/${inbox}/drafts/${d.body.id}`)).body).toMatchObject({ type: 'reply', to: ['Ann <ann@sender.test>'], thread_id: thread.id });
    expect((await threadsOf(t, inbox))[0].has_draft).toBe(true);
    const sent = await t.api.post(`/inboxes/${inbox}/drafts/${d.body.id}/send`).set('Content-Type', 'application/json');
    expect(sent.status).toBe(200);
    expect((await t.api.get(`/emails/${sent.body.id}`)).body).toMatchObject({ subject: 'Re: Q', to: ['Ann <ann@sender.test>'] });
    const th = (await threadsOf(t, inbox))[0];
    expect(th).toMatchObject({ email_count: 2, has_draft: false });
    expect((await threadsOf(t, inbox, '?folders=sent')).map((x) => x.id)).toEqual([thread.id]);
    expect((await t.api.patch(`/inboxes/${inbox}/drafts/${d.body.id}`).send({ text: 'late' })).status).toBe(409);
    expect((await t.api.post(`/inboxes/${inbox}/drafts/${d.body.id}/send`)).status).toBe(409);
    const noTo = await t.api.post(`/inboxes/${inbox}/drafts`).send({ subject: 'Nobody' });
    expect((await t.api.post(`/inboxes/${inbox}/drafts/${noTo.body.id}/send`)).status).toBe(422);
  });

  it('drafts/create under an Idempotency-Key: a replay answers the recorded status (201 new, 200 existing), another body 409', async () => {
    const inbox = await makeInbox(t, 'keyed@example.com');
    const rec2 = await postJson(t, { from: 'Ann <ann@sender.test>', to: 'keyed@example.com', subject: 'Q2', text: 'y' });
    const [thread2] = await threadsOf(t, inbox);
    const keyed = { thread_id: thread2.id, reply_to_email_id: rec2.body.id, text: 'Keyed' };
    const k1 = await t.api.post(`/inboxes/${inbox}/drafts`).set('Idempotency-Key', 'draft-k').send(keyed);
    expect(k1.status).toBe(201);
    const replay = await t.api.post(`/inboxes/${inbox}/drafts`).set('Idempotency-Key', 'draft-k').send(keyed);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(k1.body);
    const otherBody = await t.api.post(`/inboxes/${inbox}/drafts`).set('Idempotency-Key', 'draft-k').send({ ...keyed, text: 'Changed' });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.name).toBe('invalid_idempotent_request');
    const existingKeyed = await t.api.post(`/inboxes/${inbox}/drafts`).set('Idempotency-Key', 'draft-k2').send(keyed);
    expect(existingKeyed.status).toBe(200);
    const existingReplay = await t.api.post(`/inboxes/${inbox}/drafts`).set('Idempotency-Key', 'draft-k2').send(keyed);
    expect([existingReplay.status, existingReplay.body]).toEqual([200, k1.body]);
  });

  it('draft attachments: a path is checked as on a reply (422), the content type comes from the file name', async () => {
    const inbox = await makeInbox(t, 'files@example.com');
    const local = await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'a@sender.test', attachments: [{ path: 'http://localhost/x.pdf' }] });
    expect(local.body).toEqual({ statusCode: 422, name: 'invalid_attachment', message: 'An attachment `path` must be an `http` or `https` URL that does not point to `localhost`, `127.0.0.1` or `0.0.0.0`.' });
    const d = await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'a@sender.test', attachments: [{ filename: 'report.pdf', content: b64('%PDF') }] });
    expect(d.status).toBe(201);
    const later = await t.api.patch(`/inboxes/${inbox}/drafts/${d.body.id}`).send({ attachments: [{ path: 'ftp://example.org/x.pdf' }] });
    expect(later.body).toEqual(local.body);
    expect((await t.api.get(`/inboxes/${inbox}/drafts/${d.body.id}`)).body.attachments).toEqual([{ id: expect.any(String), filename: 'report.pdf', content_type: 'application/pdf', size: 4 }]);
    const sent = await t.api.post(`/inboxes/${inbox}/drafts/${d.body.id}/send`);
    expect(sent.status).toBe(200);
    const [thread] = await threadsOf(t, inbox, '?folders=sent');
    const email = (await t.api.get(`/inboxes/${inbox}/threads/${thread.id}/emails`)).body.data[0];
    expect(email.attachments).toEqual([{ id: expect.any(String), filename: 'report.pdf', size: 4 }]);
    expect((await t.api.get(`/emails/${sent.body.id}/attachments`)).body.data).toEqual([expect.objectContaining({ filename: 'report.pdf', content_type: 'application/pdf' })]);
  });

  it('one labels.updated event per label; deleting a label takes it off threads with no event; no mail lands after the inbox is deleted', async () => {
    const inbox = await makeInbox(t, 'tags@example.com');
    await postJson(t, { from: 'a@sender.test', to: 'tags@example.com', subject: 'Tagged', text: 'x' });
    const [thread] = await threadsOf(t, inbox);
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hook', events: ['inbox.thread.labels.updated', 'inbox.email.received', 'inbox.thread.created'] });
    const a = (await t.api.post(`/inboxes/${inbox}/labels`).send({ name: 'A' })).body.id;
    const b = (await t.api.post(`/inboxes/${inbox}/labels`).send({ name: 'B' })).body.id;
    await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/labels`).send({ labels: [a, b] });
    await t.api.post(`/inboxes/${inbox}/threads/${thread.id}/labels`).send({ labels: [a] });
    const events = () => t.emu.webhookDeliveries({ event_type: 'inbox.thread.labels.updated' }).map((d) => d.payload.data);
    expect(events().map((d) => [d.added.map((l: any) => l.id), d.removed])).toEqual([[[a], []], [[b], []]]);
    expect((await t.api.delete(`/inboxes/${inbox}/labels/${a}`)).status).toBe(200);
    expect((await t.api.get(`/inboxes/${inbox}/threads/${thread.id}`)).body.labels.map((l: any) => l.id)).toEqual([b]);
    expect(events()).toHaveLength(2);

    await t.api.delete(`/inboxes/${inbox}`);
    const after = await postJson(t, { from: 'a@sender.test', to: 'tags@example.com', subject: 'Late', text: 'y' });
    expect(after.status).toBe(201);
    expect((await t.api.get(`/emails/receiving/${after.body.id}`)).status).toBe(200);
    expect(t.emu.webhookDeliveries().filter((d) => d.event_type !== 'inbox.thread.labels.updated')).toEqual([]);
    expect(t.emu.inboxThreads().filter((x) => x.inbox_address === 'tags@example.com')).toEqual([]);
    const again = await makeInbox(t, 'tags@example.com');
    expect(await threadsOf(t, again, '?folders=inbox,archive,spam,sent,trash')).toEqual([]);
  });

  it('a thread in trash for 30 days of emulated time is deleted; moving it out keeps it', async () => {
    const inbox = await makeInbox(t, 'trash@example.com');
    await postJson(t, { from: 'a@sender.test', to: 'trash@example.com', subject: 'One', text: 'x' });
    await postJson(t, { from: 'a@sender.test', to: 'trash@example.com', subject: 'Two', text: 'x' });
    const [two, one] = await threadsOf(t, inbox);
    await t.api.delete(`/inboxes/${inbox}/threads/${one.id}`);
    await t.api.delete(`/inboxes/${inbox}/threads/${two.id}`);
    await t.api.patch(`/inboxes/${inbox}/threads/${two.id}`).send({ folder: 'inbox' });
    await t.emu.clock.advance('29d');
    expect((await t.api.get(`/inboxes/${inbox}/threads/${one.id}`)).status).toBe(200);
    await t.emu.clock.advance('1d');
    expect((await t.api.get(`/inboxes/${inbox}/threads/${one.id}`)).status).toBe(404);
    expect((await t.api.get(`/inboxes/${inbox}/threads/${two.id}`)).status).toBe(200);
  });

  it('pages threads by activity and emails oldest first', async () => {
    const inbox = await makeInbox(t, 'page@example.com');
    for (const s of ['a', 'b', 'c']) await postJson(t, { from: 'x@sender.test', to: 'page@example.com', subject: s, text: s, message_id: `<${s}@sender.test>` });
    await postJson(t, { from: 'x@sender.test', to: 'page@example.com', subject: 'Re: a', text: 'a2', headers: { 'In-Reply-To': '<a@sender.test>' } });
    const all = await threadsOf(t, inbox);
    expect(all.map((x) => x.subject)).toEqual(['a', 'c', 'b']);
    const p1 = (await t.api.get(`/inboxes/${inbox}/threads?limit=2`)).body;
    expect(p1.has_more).toBe(true);
    const p2 = (await t.api.get(`/inboxes/${inbox}/threads?limit=2&after=${p1.data[1].id}`)).body;
    expect(p2.data.map((x: any) => x.subject)).toEqual(['b']);
    const back = (await t.api.get(`/inboxes/${inbox}/threads?before=${p2.data[0].id}`)).body;
    expect(back.data.map((x: any) => x.subject)).toEqual(['a', 'c']);
    const badCursor = await t.api.get(`/inboxes/${inbox}/threads?after=2026-01-01`);
    expect(badCursor.body).toEqual({ statusCode: 422, name: 'validation_error', message: 'The `after` parameter must be a thread ID. To filter by date, use `GET /inboxes/:id/threads/search` with `start_date`.' });
    const goneCursor = await t.api.get(`/inboxes/${inbox}/threads?before=00000000-0000-4000-8000-000000000000`);
    expect(goneCursor.body).toEqual({ statusCode: 404, name: 'not_found', message: 'The pagination cursor references an object that does not exist. See https://resend.com/docs/api-reference/pagination for more information.' });
    const words = await t.api.get(`/inboxes/${inbox}/threads/search?query=${encodeURIComponent(Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '))}`);
    expect(words.body).toMatchObject({ statusCode: 422, message: 'The `query` parameter must contain at most 32 words, but received 33.' });
    const both = await t.api.get(`/inboxes/${inbox}/threads?after=${all[0].id}&before=${all[1].id}`);
    expect(both.status).toBe(422);
    expect(both.body.message).toContain('either the `after` or `before`');
    const emails = (await t.api.get(`/inboxes/${inbox}/threads/${all[0].id}/emails?limit=1`)).body;
    expect(emails).toMatchObject({ has_more: true, data: [{ text: 'a' }] });
    const older = (await t.api.get(`/inboxes/${inbox}/threads/${all[0].id}/emails?before=${emails.data[0].id}`)).body;
    expect(older).toEqual({ object: 'list', has_more: false, data: [] });
  });

  it('lists drafts most recently updated first, with cursors, and never rewrites a row\'s seq (threads and drafts order by their activity column)', async () => {
    const inbox = await makeInbox(t, 'order@example.com');
    const ids: string[] = [];
    for (const subject of ['d1', 'd2', 'd3']) ids.push((await t.api.post(`/inboxes/${inbox}/drafts`).send({ subject })).body.id);
    const db = storeOf(t.emu);
    const seqs = () => db.prepare('SELECT id, seq FROM inbox_drafts WHERE inbox_id = ? ORDER BY seq').all(inbox);
    const before = seqs();
    expect((await t.api.patch(`/inboxes/${inbox}/drafts/${ids[0]}`).send({ subject: 'd1 again' })).status).toBe(200);
    expect(seqs()).toEqual(before);
    const subjects = (page: { data: { subject: string }[] }) => page.data.map((d) => d.subject);
    expect(subjects((await t.api.get(`/inboxes/${inbox}/drafts`)).body)).toEqual(['d1 again', 'd3', 'd2']);
    const p1 = (await t.api.get(`/inboxes/${inbox}/drafts?limit=1&after=${ids[0]}`)).body;
    expect([subjects(p1), p1.has_more]).toEqual([['d3'], true]);
    const back = (await t.api.get(`/inboxes/${inbox}/drafts?before=${ids[1]}`)).body;
    expect([subjects(back), back.has_more]).toEqual([['d1 again', 'd3'], false]);
    // A thread that gets an email leads the list; its seq stays its insertion order.
    for (const s of ['a', 'b']) await postJson(t, { from: 'x@sender.test', to: 'order@example.com', subject: s, text: s, message_id: `<${s}-order@sender.test>` });
    const threadSeqs = () => db.prepare('SELECT id, seq FROM inbox_threads WHERE inbox_id = ? ORDER BY seq').all(inbox);
    const threadsBefore = threadSeqs();
    await postJson(t, { from: 'x@sender.test', to: 'order@example.com', subject: 'Re: a', text: 'a2', headers: { 'In-Reply-To': '<a-order@sender.test>' } });
    expect(threadSeqs()).toEqual(threadsBefore);
    expect((await threadsOf(t, inbox)).map((x) => x.subject)).toEqual(['a', 'b']);
  });

  it('search looks at every thread, not only the first page of 20', async () => {
    const inbox = await makeInbox(t, 'many@example.com');
    await postJson(t, { from: 'x@sender.test', to: 'many@example.com', subject: 'Oldest', text: 'the needle is here' });
    for (let i = 0; i < 25; i++) await postJson(t, { from: 'x@sender.test', to: 'many@example.com', subject: `Hay ${i}`, text: 'hay' });
    const all = (await t.api.get(`/inboxes/${inbox}/threads?limit=100`)).body.data;
    expect(all).toHaveLength(26);
    const hit = await t.api.get(`/inboxes/${inbox}/threads/search?query=needle`);
    expect(hit.status).toBe(200);
    expect(hit.body.data.map((x: any) => x.subject)).toEqual(['Oldest']);
    const hay = (await t.api.get(`/inboxes/${inbox}/threads/search?query=hay`)).body;
    expect(hay).toMatchObject({ has_more: true });
    expect(hay.data).toHaveLength(20);
  });

  it('reset puts back the fixtures inbox; a snapshot carries the inbox tables; emu.inboxThreads() reads threads', async () => {
    const inbox = await makeInbox(t, 'snap@example.com');
    await postJson(t, { from: 'x@sender.test', to: 'snap@example.com', subject: 'Kept', text: 'x' });
    const views = t.emu.inboxThreads({ inbox: 'SNAP@example.com' });
    expect(views).toEqual([expect.objectContaining({ inbox_id: inbox, subject: 'Kept', folder: 'inbox', emails: [expect.objectContaining({ direction: 'inbound', text: expect.stringContaining('x') })] })]);
    const snap = (await t.anon.get('/_emulator/snapshot')).body;
    expect(snap.tables.inbox_threads).toHaveLength(1);
    await t.emu.reset();
    // Back to the fixtures: their one inbox, without mail (the default set holds no activity).
    expect((await t.api.get('/inboxes')).body.data.map((i: any) => i.email_address)).toEqual(['shared@example.com']);
    expect(t.emu.inboxThreads()).toEqual([]);
    expect((await t.anon.post('/_emulator/snapshot').send(snap)).status).toBe(200);
    expect(t.emu.inboxThreads().map((v) => v.subject)).toEqual(['Kept']);
  });

  it('the agent hook refuses actions not enabled and acts with source agent', async () => {
    const inbox = await makeInbox(t, 'agent@example.com');
    const rec = await postJson(t, { from: 'x@sender.test', to: 'agent@example.com', subject: 'Hi', text: 'x' });
    const [thread] = await threadsOf(t, inbox);
    const refused = await t.anon.post(`/_emulator/inboxes/${inbox}/agent-actions`).send({ action: 'draft_reply', thread_id: thread.id, email_id: rec.body.id, text: 'draft' });
    expect(refused.status).toBe(422);
    await t.api.patch(`/inboxes/${inbox}/agent`).send({ actions: ['draft_reply', 'mark_as_spam'] });
    const drafted = await t.anon.post('/_emulator/inboxes/agent@example.com/agent-actions').send({ action: 'draft_reply', thread_id: thread.id, email_id: rec.body.id, text: 'draft' });
    expect(drafted.status).toBe(200);
    expect((await t.api.get(`/inboxes/${inbox}/drafts/${drafted.body.draft_id}`)).body).toMatchObject({ type: 'reply', text: 'draft', email_id: null });
    const spam = await t.anon.post(`/_emulator/inboxes/${inbox}/agent-actions`).send({ action: 'mark_as_spam', thread_id: thread.id });
    expect(spam.body.thread).toMatchObject({ folder: 'spam' });
    const assigned = await t.anon.put(`/_emulator/inboxes/${inbox}/threads/${thread.id}/assignment`).send({ assignee_email: 'owner@example.com' });
    expect(assigned.body).toMatchObject({ id: thread.id, assignee_email: 'owner@example.com' });
    await t.anon.put(`/_emulator/inboxes/${inbox}/threads/${thread.id}/assignment`).send({ assignee_email: null });
    expect(t.emu.inboxThreads({ inbox })[0].assignee_email).toBeNull();
    const unknownThread = await t.anon.put(`/_emulator/inboxes/${inbox}/threads/00000000-0000-4000-8000-000000000000/assignment`).send({ assignee_email: null });
    expect(unknownThread.status).toBe(404);
    const missing = await t.anon.post('/_emulator/inboxes/nobody@example.com/agent-actions').send({ action: 'archive', thread_id: thread.id });
    expect(missing.body).toEqual({ statusCode: 404, name: 'not_found', message: 'Inbox not found.' });
    const missingThread = await t.anon.put('/_emulator/inboxes/nobody@example.com/threads/00000000-0000-4000-8000-000000000000/assignment').send({ assignee_email: null });
    expect(missingThread.body).toEqual(missing.body);

    await postJson(t, { from: 'x@sender.test', to: 'agent@example.com', subject: 'Fwd: Report', text: 'x' });
    const [fwdThread] = await threadsOf(t, inbox);
    await t.api.patch(`/inboxes/${inbox}/agent`).send({ actions: ['forward_thread'] });
    const fwd = await t.anon.post(`/_emulator/inboxes/${inbox}/agent-actions`).send({ action: 'forward_thread', thread_id: fwdThread.id, to: 'boss@sender.test', text: 'fyi' });
    expect((await t.api.get(`/inboxes/${inbox}/drafts/${fwd.body.draft_id}`)).body).toMatchObject({ type: 'standalone', subject: 'Fwd: Report', to: ['boss@sender.test'] });
  });

  it("the dashboard view lists a team's inboxes with threads, labels, agent and drafts", async () => {
    const teamId = '8f3a1c2e-0b4d-4e6f-9a1b-2c3d4e5f6a7b';
    await postJson(t, { from: 'Alice <alice@example.org>', to: 'shared@example.com', subject: 'Where is my order?', text: 'Hi, my order has not arrived yet.' });
    const view = await t.anon.get(`/_emulator/teams/${teamId}/inboxes`);
    expect(view.status).toBe(200);
    expect(view.body.data).toEqual([
      expect.objectContaining({
        email_address: 'shared@example.com', unread: 1, drafts: 0, labels: [], agent: { instructions: null, tone: null, actions: [] }, draft_list: [],
        threads: [expect.objectContaining({ subject: 'Where is my order?', folder: 'inbox', assignee_email: null, emails: [expect.objectContaining({ from: 'Alice <alice@example.org>' })] })],
      }),
    ]);
    expect((await t.anon.get('/_emulator/teams/nope/inboxes')).status).toBe(404);
  });
});
