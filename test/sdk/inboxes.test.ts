/**
 * The official SDK's `resend.inboxes.*` (29 methods) against the emulator,
 * with the response validator on: inboxes, threads (mail received for the
 * inbox address lands as threads), thread emails (reply, forward through
 * the sending path), thread labels, labels, drafts and agent settings; the
 * 14 `inbox.*` webhook events, verified with `resend.webhooks.verify`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { FIXTURES, client } from '../helpers.js';
import { postJson } from '../resources/receiving/helpers.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';
import type { WebhookEventPayload } from 'resend';
import { loadSpec } from '../../src/http/spec.js';
import { compileBodySchema } from '../../src/http/validate.js';

/**
 * Validators of the objects an `inbox.*` event carries, from the response
 * schemas of the operations that return the same SDK types
 * (`GetInboxResponseSuccess`, `InboxThreadSummary`, `InboxMessage`,
 * `InboxDraft`, `InboxThreadLabel`); `email` and `draft` are the SDK's
 * `Omit<…, 'html' | 'text'>`.
 */
async function eventObjectValidators() {
  const { operations } = await loadSpec();
  const schema = (id: string, status = '200') => operations.find((o) => o.operationId === id)!.responses[status] as any;
  const omitBodies = (sc: any) => ({ ...sc, required: sc.required.filter((k: string) => k !== 'html' && k !== 'text'), properties: Object.fromEntries(Object.entries(sc.properties).filter(([k]) => k !== 'html' && k !== 'text')) });
  return {
    inbox: compileBodySchema(schema('inboxes/get')),
    thread: compileBodySchema(schema('inboxes/threads/get')),
    email: compileBodySchema(omitBodies(schema('inboxes/threads/emails/get'))),
    draft: compileBodySchema(omitBodies(schema('inboxes/drafts/get'))),
    label: compileBodySchema(schema('inboxes/threads/labels/add').properties.data.items),
  };
}

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

const INBOX_EVENTS = [
  'inbox.created', 'inbox.updated', 'inbox.deleted', 'inbox.thread.created', 'inbox.thread.folder.updated', 'inbox.thread.assigned',
  'inbox.thread.unassigned', 'inbox.thread.labels.updated', 'inbox.email.received', 'inbox.email.sent', 'inbox.draft.created',
  'inbox.draft.updated', 'inbox.draft.sent', 'inbox.draft.deleted',
] as const;

describe('SDK: resend.inboxes', () => {
  const emu = useEmulator({ validateResponses: true });
  const t = { get anon() { return client(emu.url); } };
  const sdk = () => new Resend(emu.server.apiKey, { baseUrl: emu.server.url });

  it('creates, lists, gets, updates and removes inboxes, by id or address', async () => {
    const resend = sdk();
    const created = await resend.inboxes.create({ emailAddress: 'support@example.com', fromName: 'Support' });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'inbox', id: expect.any(String) });
    const id = created.data!.id;

    const got = await resend.inboxes.get('Support@Example.com');
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ object: 'inbox', id, name: 'support@example.com', email_address: 'support@example.com', domain_id: FIXTURES.verifiedDomainId, receiving_address: null, from_name: 'Support', unread: 0, drafts: 0, last_received: null });

    const list = await resend.inboxes.list({ limit: 10 });
    expect(list.data).toMatchObject({ object: 'list', has_more: false, data: [{ id, email_address: 'support@example.com', unread: 0 }, { email_address: 'shared@example.com', unread: 0 }] });

    const upd = await resend.inboxes.update(id, { name: 'Support desk' });
    expect(upd.data).toEqual({ object: 'inbox', id });
    expect((await resend.inboxes.get(id)).data!.name).toBe('Support desk');

    const dup = await resend.inboxes.create({ emailAddress: 'support@example.com' });
    expect(dup.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const foreign = await resend.inboxes.create({ emailAddress: 'a@not-mine.test' });
    expect(foreign.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(foreign.error!.message).toContain('email_address');

    const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: emu.server.url });
    expect((await other.inboxes.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Inbox not found.' });

    const del = await resend.inboxes.remove('support@example.com');
    expect(del.data).toEqual({ object: 'inbox', id, deleted: true });
    expect((await resend.inboxes.get(id)).error).toMatchObject({ statusCode: 404 });
  });

  it('received mail becomes threads; a reply lands in its thread by In-Reply-To; reply and forward go through the sending path', async () => {
    const resend = sdk();
    const { data: inbox } = await resend.inboxes.create({ emailAddress: 'help@example.com' });
    const inboxId = inbox!.id;
    const first = await postJson(t, { from: 'Ada <ada@sender.test>', to: 'help@example.com', subject: 'Printer broken', text: 'It jams.', message_id: '<m1@sender.test>', attachments: [{ filename: 'photo.png', content: Buffer.from('png!').toString('base64') }] });
    expect(first.status).toBe(201);
    await emu.server.clock.advance('1s');
    // Same subject, no reference: a new thread (never by subject).
    await postJson(t, { from: 'bob@sender.test', to: 'help@example.com', subject: 'Printer broken', text: 'Me too.' });
    await emu.server.clock.advance('1s');
    await postJson(t, { from: 'ada@sender.test', to: 'help@example.com', subject: 'Re: Printer broken', text: 'Still jams.', headers: { 'In-Reply-To': '<m1@sender.test>' } });

    const threads = await resend.inboxes.threads.list({ inboxId });
    expect(threads.error).toBeNull();
    expect(threads.data!.data).toHaveLength(2);
    const ada = threads.data!.data[0];
    expect(ada).toMatchObject({ subject: 'Printer broken', email_count: 2, has_attachment: true, read: false, folder: 'inbox', from: 'ada@sender.test' });
    expect((await resend.inboxes.get(inboxId)).data).toMatchObject({ unread: 2, last_received: expect.any(String) });

    const emails = await resend.inboxes.threads.emails.list({ inboxId, threadId: ada.id });
    expect(emails.data!.data.map((e) => e.text?.trim())).toEqual(['It jams.', 'Still jams.']);
    expect(emails.data!.data[0]).toMatchObject({ id: first.body.id, direction: 'inbound', message_id: '<m1@sender.test>', attachments: [{ filename: 'photo.png', size: 4 }] });
    const page = await resend.inboxes.threads.emails.list({ emailAddress: 'help@example.com', threadId: ada.id, limit: 1 });
    expect(page.data!.has_more).toBe(true);
    const next = await resend.inboxes.threads.emails.list({ inboxId, threadId: ada.id, limit: 1, after: page.data!.data[0].id });
    expect(next.data!.data[0].text?.trim()).toBe('Still jams.');
    const one = await resend.inboxes.threads.emails.get({ inboxId, threadId: ada.id, emailId: first.body.id });
    expect(one.data).toMatchObject({ id: first.body.id, from: 'Ada <ada@sender.test>', subject: 'Printer broken', read: false });

    const summary = await resend.inboxes.threads.get({ inboxId, threadId: ada.id });
    expect(summary.data).toEqual({ object: 'inbox_thread', id: ada.id, subject: 'Printer broken', folder: 'inbox', labels: [], read: false });

    const reply = await resend.inboxes.threads.emails.reply({ inboxId, threadId: ada.id, emailId: emails.data!.data[1].id, text: 'Try turning it off and on.' });
    expect(reply.error).toBeNull();
    const sent = await resend.emails.get(reply.data!.id);
    expect(sent.data).toMatchObject({ from: 'help@example.com', to: ['ada@sender.test'], subject: 'Re: Printer broken', last_event: 'queued' });
    await emu.server.clock.advance('10s');
    expect((await resend.emails.get(reply.data!.id)).data!.last_event).toBe('delivered');
    const after = await resend.inboxes.threads.emails.list({ inboxId, threadId: ada.id });
    const out = after.data!.data[2];
    expect(out).toMatchObject({ id: reply.data!.id, direction: 'outbound', read: true, to: ['ada@sender.test'] });
    const rawHeaders = emu.emails().find((e) => e.id === reply.data!.id)!;
    expect(rawHeaders.headers).toMatchObject({ 'In-Reply-To': expect.stringContaining('@sender.test>'), References: expect.stringContaining('<m1@sender.test>') });

    // The customer answers the reply: In-Reply-To names our Message-ID.
    await postJson(t, { from: 'ada@sender.test', to: 'help@example.com', subject: 'Re: Printer broken', text: 'Works now!', headers: { 'In-Reply-To': out.message_id! } });
    expect((await resend.inboxes.threads.get({ inboxId, threadId: ada.id })).data!.read).toBe(false);
    expect((await resend.inboxes.threads.emails.list({ inboxId, threadId: ada.id })).data!.data).toHaveLength(4);

    const fwd = await resend.inboxes.threads.emails.forward({ inboxId, threadId: ada.id, emailId: first.body.id, to: 'delivered@resend.dev', text: 'FYI' });
    expect(fwd.error).toBeNull();
    const fwdEmail = await resend.emails.get(fwd.data!.id);
    expect(fwdEmail.data).toMatchObject({ subject: 'Fwd: Printer broken', to: ['delivered@resend.dev'] });
    expect(fwdEmail.data!.text).toContain('---------- Forwarded message ---------');
    const atts = await resend.emails.attachments.list({ emailId: fwd.data!.id });
    expect(atts.data!.data).toEqual([expect.objectContaining({ filename: 'photo.png', size: 4 })]);

    const noBody = await resend.inboxes.threads.emails.reply({ inboxId, threadId: ada.id, emailId: first.body.id, text: 'x', headers: { 'In-Reply-To': '<x@y>' } });
    expect(noBody.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const missing = await resend.inboxes.threads.get({ inboxId, threadId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Thread not found.' });
  });

  it('moves, marks, searches, removes threads and manages labels', async () => {
    const resend = sdk();
    const { data: inbox } = await resend.inboxes.create({ emailAddress: 'ops@example.com' });
    const inboxId = inbox!.id;
    await postJson(t, { from: 'carol@sender.test', to: 'ops@example.com', subject: 'Invoice 42', text: 'Please pay the invoice.' });
    await postJson(t, { from: 'dave@sender.test', to: 'ops@example.com', subject: 'Lunch', text: 'Pizza?' });
    const [lunch, invoice] = (await resend.inboxes.threads.list({ inboxId })).data!.data;

    const label = await resend.inboxes.labels.create({ inboxId, name: 'Billing', color: '#E93D82' });
    expect(label.data).toEqual({ object: 'inbox_label', id: expect.any(String) });
    const urgent = await resend.inboxes.labels.create({ inboxId, name: 'Urgent' });
    const badColor = await resend.inboxes.labels.create({ inboxId, name: 'Red', color: 'red' });
    expect(badColor.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(badColor.error!.message).toContain('color');
    const labels = await resend.inboxes.labels.list({ inboxId });
    expect(labels.data!.data.map((l) => l.name)).toEqual(['Billing', 'Urgent']);
    expect(labels.data!.data[1].color).toMatch(/^#[0-9A-F]{6}$/);
    const updLabel = await resend.inboxes.labels.update({ inboxId, labelId: urgent.data!.id, color: '#000000' });
    expect(updLabel.data).toEqual({ object: 'inbox_label', id: urgent.data!.id });

    const added = await resend.inboxes.threads.labels.add({ inboxId, threadId: invoice.id, labels: [label.data!.id, urgent.data!.id] });
    expect(added.data).toEqual({ object: 'list', data: [{ id: label.data!.id, name: 'Billing', color: '#E93D82' }, { id: urgent.data!.id, name: 'Urgent', color: '#000000' }] });
    const set = await resend.inboxes.threads.labels.set({ inboxId, threadId: invoice.id, labels: [label.data!.id] });
    expect(set.data!.data.map((l) => l.id)).toEqual([label.data!.id]);
    const byLabel = await resend.inboxes.threads.list({ inboxId, labels: [label.data!.id] });
    expect(byLabel.data!.data.map((x) => x.id)).toEqual([invoice.id]);

    const search = await resend.inboxes.threads.search({ inboxId, query: 'invoice -lunch', from: ['carol'] });
    expect(search.error).toBeNull();
    expect(search.data!.data).toEqual([expect.objectContaining({ id: invoice.id, matched_email_id: expect.any(String) })]);
    const badSearch = await resend.inboxes.threads.search({ inboxId, startDate: 'yesterday' });
    expect(badSearch.error).toMatchObject({ statusCode: 422, message: 'The `start_date` must be a valid ISO 8601 date.' });

    const moved = await resend.inboxes.threads.update({ inboxId, threadId: invoice.id, folder: 'archive', read: true });
    expect(moved.data).toMatchObject({ object: 'inbox_thread', id: invoice.id, folder: 'archive', read: true });
    expect((await resend.inboxes.threads.list({ inboxId })).data!.data.map((x) => x.id)).toEqual([lunch.id]);
    expect((await resend.inboxes.threads.list({ inboxId, folders: ['archive'], read: true })).data!.data.map((x) => x.id)).toEqual([invoice.id]);
    expect((await resend.inboxes.get(inboxId)).data!.unread).toBe(1);

    const removed = await resend.inboxes.threads.remove({ inboxId, threadId: lunch.id });
    expect(removed.data).toEqual({ object: 'inbox_thread', id: lunch.id, deleted: true });
    expect((await resend.inboxes.threads.remove({ inboxId, threadId: lunch.id })).data!.deleted).toBe(false);
    expect((await resend.inboxes.threads.list({ inboxId, folders: ['trash'] })).data!.data.map((x) => x.id)).toEqual([lunch.id]);

    const off = await resend.inboxes.threads.labels.remove({ inboxId, threadId: invoice.id, labelId: label.data!.id });
    expect(off.data).toEqual({ object: 'list', data: [] });
    const delLabel = await resend.inboxes.labels.remove({ inboxId, labelId: urgent.data!.id });
    expect(delLabel.data).toEqual({ object: 'inbox_label', id: urgent.data!.id, deleted: true });
    expect((await resend.inboxes.threads.labels.add({ inboxId, threadId: invoice.id, labels: [urgent.data!.id] })).error).toMatchObject({ statusCode: 404, message: `Label "${urgent.data!.id}" not found.` });
  });

  it('search: -word excludes, from matches name or address, matched_email_id names the email, every criterion must match one email', async () => {
    const resend = sdk();
    const { data: inbox } = await resend.inboxes.create({ emailAddress: 'finder@example.com' });
    const inboxId = inbox!.id;
    const carol = await postJson(t, { from: 'carol@sender.test', to: 'finder@example.com', subject: 'Invoice 42', text: 'Please pay the invoice.', message_id: '<inv@sender.test>' });
    await postJson(t, { from: 'dave@sender.test', to: 'finder@example.com', subject: 'Lunch', text: 'Pizza?' });
    const [lunch, invoice] = (await resend.inboxes.threads.list({ inboxId })).data!.data;
    expect([lunch.subject, invoice.subject]).toEqual(['Lunch', 'Invoice 42']);
    const ids = async (opts: Record<string, unknown>) => {
      const r = await resend.inboxes.threads.search({ inboxId, ...opts } as Parameters<typeof resend.inboxes.threads.search>[0]);
      expect(r.error).toBeNull();
      return r.data!.data;
    };
    expect((await ids({ query: '-lunch' })).map((x) => x.id)).toEqual([invoice.id]);
    expect((await ids({ from: ['dave'] })).map((x) => x.id)).toEqual([lunch.id]);
    expect((await ids({ query: 'invoice' })).map((x) => x.matched_email_id)).toEqual([carol.body.id]);
    // A reply from erin joins the invoice thread: "erin" and "invoice" now match different emails of it, never one.
    await postJson(t, { from: 'erin@sender.test', to: 'finder@example.com', subject: 'Re: Invoice 42', text: 'Paid.', headers: { 'In-Reply-To': '<inv@sender.test>' } });
    expect((await resend.inboxes.threads.emails.list({ inboxId, threadId: invoice.id })).data!.data).toHaveLength(2);
    expect(await ids({ query: 'paid', from: ['carol'] })).toEqual([]);
    expect((await ids({ query: 'paid', from: ['erin'] })).map((x) => x.id)).toEqual([invoice.id]);
  });

  it('drafts: create, list, get, update, send (joins sent), remove; agent settings', async () => {
    const resend = sdk();
    const { data: inbox } = await resend.inboxes.create({ emailAddress: 'sales@example.com', fromName: 'Sales' });
    const inboxId = inbox!.id;

    const empty = await resend.inboxes.drafts.create({ inboxId, subject: '' });
    expect(empty.error).toMatchObject({ statusCode: 422, name: 'validation_error', message: 'A draft must contain at least one non-empty field.' });
    const created = await resend.inboxes.drafts.create({ inboxId, to: 'delivered@resend.dev', subject: 'Offer', text: 'Our best price.', attachments: [{ filename: 'offer.txt', content: Buffer.from('price'), contentType: 'text/plain' }] });
    expect(created.data).toEqual({ object: 'inbox_draft', id: expect.any(String) });
    const draftId = created.data!.id;
    const listed = await resend.inboxes.drafts.list({ inboxId });
    expect(listed.data!.data).toEqual([expect.objectContaining({ id: draftId, type: 'standalone', to: ['delivered@resend.dev'], snippet: 'Our best price.', attachments: [expect.objectContaining({ filename: 'offer.txt', size: 5 })] })]);
    const upd = await resend.inboxes.drafts.update({ inboxId, draftId, cc: ['boss@example.org'] });
    expect(upd.data).toEqual({ object: 'inbox_draft', id: draftId });
    const got = await resend.inboxes.drafts.get({ inboxId, draftId });
    expect(got.data).toMatchObject({ object: 'inbox_draft', id: draftId, cc: ['boss@example.org'], email_id: null });
    expect((await resend.inboxes.get(inboxId)).data!.drafts).toBe(1);

    const send = await resend.inboxes.drafts.send({ inboxId, draftId });
    expect(send.error).toBeNull();
    const emailId = send.data!.id;
    expect((await resend.emails.get(emailId)).data).toMatchObject({ from: 'Sales <sales@example.com>', subject: 'Offer', to: ['delivered@resend.dev'] });
    expect((await resend.inboxes.drafts.list({ inboxId })).data!.data).toEqual([]);
    expect((await resend.inboxes.drafts.get({ inboxId, draftId })).data!.email_id).toBe(emailId);
    const sentThreads = await resend.inboxes.threads.list({ inboxId, folders: ['sent'] });
    expect(sentThreads.data!.data).toEqual([expect.objectContaining({ subject: 'Offer', folder: 'sent', email_count: 1, read: true })]);
    expect((await resend.inboxes.drafts.send({ inboxId, draftId })).error).toMatchObject({ statusCode: 409 });

    const other = await resend.inboxes.drafts.create({ inboxId, text: 'scratch' });
    const del = await resend.inboxes.drafts.remove({ inboxId, draftId: other.data!.id });
    expect(del.data).toEqual({ object: 'inbox_draft', id: other.data!.id, deleted: true });

    const agent = await resend.inboxes.agent.get({ inboxId });
    expect(agent.data).toEqual({ object: 'inbox_agent', instructions: null, tone: null, actions: [] });
    const setAgent = await resend.inboxes.agent.update({ emailAddress: 'sales@example.com', instructions: 'Be nice.', tone: 'concise_casual', actions: ['draft_reply', 'archive', 'archive'] });
    expect(setAgent.data).toEqual({ object: 'inbox_agent', id: expect.any(String) });
    expect((await resend.inboxes.agent.get({ inboxId })).data).toEqual({ object: 'inbox_agent', instructions: 'Be nice.', tone: 'concise_casual', actions: ['draft_reply', 'archive'] });
  });

  it('raises the inbox.* events, each verified by resend.webhooks.verify', async () => {
    rx = await startReceiver();
    const resend = sdk();
    const { data: hook } = await resend.webhooks.create({ endpoint: rx.url, events: [...INBOX_EVENTS] });
    const { data: inbox } = await resend.inboxes.create({ emailAddress: 'events@example.com' });
    const inboxId = inbox!.id;
    await resend.inboxes.update(inboxId, { fromName: 'Events' });
    const rec = await postJson(t, { from: 'eve@sender.test', to: 'events@example.com', subject: 'Hello', text: 'Hi' });
    const threadId = (await resend.inboxes.threads.list({ inboxId })).data!.data[0].id;
    const label = await resend.inboxes.labels.create({ inboxId, name: 'VIP' });
    await resend.inboxes.threads.labels.add({ inboxId, threadId, labels: [label.data!.id] });
    await resend.inboxes.threads.update({ inboxId, threadId, folder: 'archive' });
    const draft = await resend.inboxes.drafts.create({ inboxId, threadId, replyToEmailId: rec.body.id, text: 'Hi back' });
    const again = await resend.inboxes.drafts.create({ inboxId, threadId, replyToEmailId: rec.body.id, text: 'Other' });
    expect(again.data!.id).toBe(draft.data!.id);
    await resend.inboxes.drafts.update({ inboxId, draftId: draft.data!.id, subject: 'Re: Hello' });
    await resend.inboxes.drafts.send({ inboxId, draftId: draft.data!.id });
    const scratch = await resend.inboxes.drafts.create({ inboxId, text: 'scratch' });
    await resend.inboxes.drafts.remove({ inboxId, draftId: scratch.data!.id });
    await resend.inboxes.agent.update({ inboxId, actions: ['assign_thread'] });
    const agentAssign = await t.anon.post(`/_emulator/inboxes/${inboxId}/agent-actions`).send({ action: 'assign_thread', thread_id: threadId, assignee_email: 'owner@example.com' });
    expect(agentAssign.status).toBe(200);
    await t.anon.post(`/_emulator/inboxes/${inboxId}/agent-actions`).send({ action: 'assign_thread', thread_id: threadId, assignee_email: null });
    await resend.inboxes.remove(inboxId);
    await emu.server.clock.advance('1s');

    const seen = new Map<string, any>();
    const check = await eventObjectValidators();
    for (const r of rx.requests) {
      const ev: WebhookEventPayload = resend.webhooks.verify(verifyInput(r, hook!.signing_secret));
      if (!seen.has(ev.type)) seen.set(ev.type, ev);
      expect(ev.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
      // Every object the event carries has the SDK type's exact shape.
      const data = ev.data as unknown as Record<string, unknown>;
      for (const key of ['inbox', 'thread', 'email', 'draft'] as const) {
        if (data[key] === undefined) continue;
        const ok = check[key](data[key]);
        expect(ok, `${ev.type}.data.${key}: ${JSON.stringify(check[key].errors)}`).toBe(true);
      }
      // The SDK's types name these fields: reading them type-checks the payload union.
      switch (ev.type) {
        case 'inbox.thread.labels.updated':
          for (const l of [...ev.data.added, ...ev.data.removed]) expect(check.label(l)).toBe(true);
          break;
        case 'inbox.thread.folder.updated':
          expect(['inbox', 'archive', 'spam', 'trash']).toContain(ev.data.to);
          break;
        case 'inbox.thread.assigned':
          expect(ev.data.thread_id).toBe(threadId);
          break;
        case 'inbox.draft.sent':
          expect(ev.data.email_id).toEqual(expect.any(String));
          break;
        case 'inbox.email.received':
        case 'inbox.email.sent':
        case 'inbox.thread.created':
          expect(ev.data.source).toBe('system');
          break;
        case 'inbox.draft.created':
        case 'inbox.draft.updated':
        case 'inbox.draft.deleted':
          expect(ev.data.source).toBe('api');
          expect([draft.data!.id, scratch.data!.id]).toContain(ev.data.draft_id);
          break;
        default:
          expect(data.inbox_id).toBe(inboxId);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...INBOX_EVENTS].sort());
    expect(seen.get('inbox.created').data).toMatchObject({ source: 'api', inbox_id: inboxId, inbox: { object: 'inbox', email_address: 'events@example.com' } });
    expect(seen.get('inbox.email.received').data).toMatchObject({ source: 'system', thread_id: threadId, email_id: rec.body.id, email: { direction: 'inbound' } });
    expect(seen.get('inbox.email.received').data.email.html).toBeUndefined();
    expect(seen.get('inbox.thread.folder.updated').data).toMatchObject({ from: 'inbox', to: 'archive' });
    expect(seen.get('inbox.thread.labels.updated').data).toMatchObject({ added: [{ id: label.data!.id, name: 'VIP' }], removed: [] });
    expect(seen.get('inbox.draft.sent').data).toMatchObject({ draft_id: draft.data!.id, thread_id: threadId, email: { direction: 'outbound' } });
    expect(seen.get('inbox.thread.assigned').data).toMatchObject({ source: 'agent', assignee_email: 'owner@example.com', previous_assignee_email: null });
    expect(seen.get('inbox.thread.unassigned').data).toMatchObject({ previous_assignee_email: 'owner@example.com' });
    expect(seen.get('inbox.deleted').data).toEqual({ source: 'api', inbox_id: inboxId });
    // The send raises inbox.draft.sent, then inbox.email.sent for the same email (docs/reference/inboxes.md#draft-rules).
    const order = emu.server.webhookDeliveries({ webhook_id: hook!.id }).map((d) => d.payload);
    const sentAt = order.findIndex((p) => p.type === 'inbox.draft.sent');
    const emailSentAt = order.findIndex((p) => p.type === 'inbox.email.sent');
    expect(sentAt).toBeGreaterThanOrEqual(0);
    expect(emailSentAt).toBeGreaterThan(sentAt);
    expect(order[emailSentAt].data.email_id).toBe(order[sentAt].data.email_id);
  });
});
