/**
 * The official SDK's `resend.inboxes.*` (29 methods) against the emulator,
 * with the response validator on: inboxes, threads (mail received for the
 * inbox address lands as threads), thread emails (reply, forward through
 * the sending path), thread labels, labels, drafts and agent settings; the
 * 14 `inbox.*` webhook events, verified with `resend.webhooks.verify`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

const INBOX_EVENTS = [
  'inbox.created', 'inbox.updated', 'inbox.deleted', 'inbox.thread.created', 'inbox.thread.folder.updated', 'inbox.thread.assigned',
  'inbox.thread.unassigned', 'inbox.thread.labels.updated', 'inbox.email.received', 'inbox.email.sent', 'inbox.draft.created',
  'inbox.draft.updated', 'inbox.draft.sent', 'inbox.draft.deleted',
] as const;

describe('SDK: resend.inboxes', () => {
  const emu = useEmulator({ validateResponses: true });
  const t = { get anon() { return client(emu.url); } };
  const sdk = () => new Resend(emu.server.apiKey, { baseUrl: emu.server.url });

  describe('inboxes', () => {
    let resend: Resend;
    let id: string;
    beforeEach(async () => {
      resend = sdk();
      const created = await resend.inboxes.create({ emailAddress: 'support@example.com', fromName: 'Support' });
      expect(created.error).toBeNull();
      expect(created.data).toEqual({ object: 'inbox', id: expect.any(String) });
      id = created.data!.id;
    });

    it('gets an inbox by its address in any case, with its counts', async () => {
      const got = await resend.inboxes.get('Support@Example.com');
      expect(got.error).toBeNull();
      expect(got.data).toMatchObject({ object: 'inbox', id, name: 'support@example.com', email_address: 'support@example.com', domain_id: FIXTURES.verifiedDomainId, receiving_address: null, from_name: 'Support', unread: 0, drafts: 0, last_received: null });
    });

    it('lists inboxes, the new one first', async () => {
      const list = await resend.inboxes.list({ limit: 10 });
      expect(list.data).toMatchObject({ object: 'list', has_more: false, data: [{ id, email_address: 'support@example.com', unread: 0 }, { email_address: 'shared@example.com', unread: 0 }] });
    });

    it('updates an inbox', async () => {
      const upd = await resend.inboxes.update(id, { name: 'Support desk' });
      expect(upd.data).toEqual({ object: 'inbox', id });
      expect((await resend.inboxes.get(id)).data!.name).toBe('Support desk');
    });

    it('refuses an address that already has an inbox', async () => {
      const dup = await resend.inboxes.create({ emailAddress: 'support@example.com' });
      expect(dup.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    });

    it('refuses an address on a domain that is not the team\'s, naming email_address', async () => {
      const foreign = await resend.inboxes.create({ emailAddress: 'a@not-mine.test' });
      expect(foreign.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(foreign.error!.message).toContain('email_address');
    });

    it("answers 404 for another team's inbox", async () => {
      const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: emu.server.url });
      expect((await other.inboxes.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Inbox not found.' });
    });

    it('removes an inbox by address; it is gone after', async () => {
      const del = await resend.inboxes.remove('support@example.com');
      expect(del.data).toEqual({ object: 'inbox', id, deleted: true });
      expect((await resend.inboxes.get(id)).error).toMatchObject({ statusCode: 404 });
    });
  });

  describe('threads and thread emails', () => {
    let resend: Resend;
    let inboxId: string;
    let firstId: string;
    let adaThreadId: string;
    // Ada writes (with a photo), Bob writes with the same subject, Ada answers her own mail by In-Reply-To.
    beforeEach(async () => {
      resend = sdk();
      inboxId = (await resend.inboxes.create({ emailAddress: 'help@example.com' })).data!.id;
      const first = await postJson(t, { from: 'Ada <ada@sender.test>', to: 'help@example.com', subject: 'Printer broken', text: 'It jams.', message_id: '<m1@sender.test>', attachments: [{ filename: 'photo.png', content: Buffer.from('png!').toString('base64') }] });
      expect(first.status).toBe(201);
      firstId = first.body.id;
      await emu.server.clock.advance('1s');
      await postJson(t, { from: 'bob@sender.test', to: 'help@example.com', subject: 'Printer broken', text: 'Me too.' });
      await emu.server.clock.advance('1s');
      await postJson(t, { from: 'ada@sender.test', to: 'help@example.com', subject: 'Re: Printer broken', text: 'Still jams.', headers: { 'In-Reply-To': '<m1@sender.test>' } });
      adaThreadId = (await resend.inboxes.threads.list({ inboxId })).data!.data[0].id;
    });

    it('files received mail as threads: a reply joins its thread by In-Reply-To, the same subject alone starts a new one', async () => {
      const threads = await resend.inboxes.threads.list({ inboxId });
      expect(threads.error).toBeNull();
      expect(threads.data!.data).toHaveLength(2);
      expect(threads.data!.data[0]).toMatchObject({ id: adaThreadId, subject: 'Printer broken', email_count: 2, has_attachment: true, read: false, folder: 'inbox', from: 'ada@sender.test' });
    });

    it('counts unread threads and the last received time on the inbox', async () => {
      expect((await resend.inboxes.get(inboxId)).data).toMatchObject({ unread: 2, last_received: expect.any(String) });
    });

    it("lists a thread's emails oldest first, each the received email with its attachments", async () => {
      const emails = await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId });
      expect(emails.data!.data.map((e) => e.text?.trim())).toEqual(['It jams.', 'Still jams.']);
      expect(emails.data!.data[0]).toMatchObject({ id: firstId, direction: 'inbound', message_id: '<m1@sender.test>', attachments: [{ filename: 'photo.png', size: 4 }] });
    });

    it("pages a thread's emails with limit and after, by inbox id or address", async () => {
      const page = await resend.inboxes.threads.emails.list({ emailAddress: 'help@example.com', threadId: adaThreadId, limit: 1 });
      expect(page.data!.has_more).toBe(true);
      const next = await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId, limit: 1, after: page.data!.data[0].id });
      expect(next.data!.data[0].text?.trim()).toBe('Still jams.');
    });

    it('gets one thread email and the thread summary', async () => {
      const one = await resend.inboxes.threads.emails.get({ inboxId, threadId: adaThreadId, emailId: firstId });
      expect(one.data).toMatchObject({ id: firstId, from: 'Ada <ada@sender.test>', subject: 'Printer broken', read: false });
      const summary = await resend.inboxes.threads.get({ inboxId, threadId: adaThreadId });
      expect(summary.data).toEqual({ object: 'inbox_thread', id: adaThreadId, subject: 'Printer broken', folder: 'inbox', labels: [], read: false });
    });

    /** Replies to the thread's last email; returns the reply's email id. */
    const reply = async () => {
      const emails = (await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId })).data!.data;
      const r = await resend.inboxes.threads.emails.reply({ inboxId, threadId: adaThreadId, emailId: emails[1].id, text: 'Try turning it off and on.' });
      expect(r.error).toBeNull();
      return r.data!.id;
    };

    it('sends a reply through the sending path (queued, then delivered on the clock), to the sender with Re:', async () => {
      const id = await reply();
      expect((await resend.emails.get(id)).data).toMatchObject({ from: 'help@example.com', to: ['ada@sender.test'], subject: 'Re: Printer broken', last_event: 'queued' });
      await emu.server.clock.advance('10s');
      expect((await resend.emails.get(id)).data!.last_event).toBe('delivered');
    });

    it('a reply joins its thread as a read outbound email, with In-Reply-To and References', async () => {
      const id = await reply();
      const out = (await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId })).data!.data[2];
      expect(out).toMatchObject({ id, direction: 'outbound', read: true, to: ['ada@sender.test'] });
      const sent = emu.emails().find((e) => e.id === id)!;
      expect(sent.headers).toMatchObject({ 'In-Reply-To': expect.stringContaining('@sender.test>'), References: expect.stringContaining('<m1@sender.test>') });
    });

    it("an answer to our reply (In-Reply-To names its Message-ID) joins the thread and makes it unread", async () => {
      const id = await reply();
      const out = (await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId })).data!.data.find((e) => e.id === id)!;
      await postJson(t, { from: 'ada@sender.test', to: 'help@example.com', subject: 'Re: Printer broken', text: 'Works now!', headers: { 'In-Reply-To': out.message_id! } });
      expect((await resend.inboxes.threads.get({ inboxId, threadId: adaThreadId })).data!.read).toBe(false);
      expect((await resend.inboxes.threads.emails.list({ inboxId, threadId: adaThreadId })).data!.data).toHaveLength(4);
    });

    it('forwards an email with Fwd:, the forwarded message in the text and its attachments', async () => {
      const fwd = await resend.inboxes.threads.emails.forward({ inboxId, threadId: adaThreadId, emailId: firstId, to: 'delivered@resend.dev', text: 'FYI' });
      expect(fwd.error).toBeNull();
      const fwdEmail = await resend.emails.get(fwd.data!.id);
      expect(fwdEmail.data).toMatchObject({ subject: 'Fwd: Printer broken', to: ['delivered@resend.dev'] });
      expect(fwdEmail.data!.text).toContain('---------- Forwarded message ---------');
      const atts = await resend.emails.attachments.list({ emailId: fwd.data!.id });
      expect(atts.data!.data).toEqual([expect.objectContaining({ filename: 'photo.png', size: 4 })]);
    });

    it('refuses a reply that sets its own In-Reply-To (422)', async () => {
      const noBody = await resend.inboxes.threads.emails.reply({ inboxId, threadId: adaThreadId, emailId: firstId, text: 'x', headers: { 'In-Reply-To': '<x@y>' } });
      expect(noBody.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    });

    it('answers 404 for an unknown thread', async () => {
      const missing = await resend.inboxes.threads.get({ inboxId, threadId: '00000000-0000-4000-8000-000000000000' });
      expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Thread not found.' });
    });
  });

  describe('labels, folders and removal', () => {
    let resend: Resend;
    let inboxId: string;
    let lunch: { id: string };
    let invoice: { id: string };
    beforeEach(async () => {
      resend = sdk();
      inboxId = (await resend.inboxes.create({ emailAddress: 'ops@example.com' })).data!.id;
      await postJson(t, { from: 'carol@sender.test', to: 'ops@example.com', subject: 'Invoice 42', text: 'Please pay the invoice.' });
      await postJson(t, { from: 'dave@sender.test', to: 'ops@example.com', subject: 'Lunch', text: 'Pizza?' });
      [lunch, invoice] = (await resend.inboxes.threads.list({ inboxId })).data!.data;
    });
    const createLabel = async (name: string, color?: string) => {
      const label = await resend.inboxes.labels.create({ inboxId, name, ...(color ? { color } : {}) });
      expect(label.data).toEqual({ object: 'inbox_label', id: expect.any(String) });
      return label.data!.id;
    };

    it('creates labels, listed by name, a color given or generated as #RRGGBB', async () => {
      await createLabel('Billing', '#E93D82');
      await createLabel('Urgent');
      const labels = await resend.inboxes.labels.list({ inboxId });
      expect(labels.data!.data.map((l) => [l.name, l.color])).toEqual([['Billing', '#E93D82'], ['Urgent', expect.stringMatching(/^#[0-9A-F]{6}$/)]]);
    });

    it('refuses a label color that is not #RRGGBB, naming color', async () => {
      const badColor = await resend.inboxes.labels.create({ inboxId, name: 'Red', color: 'red' });
      expect(badColor.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(badColor.error!.message).toContain('color');
    });

    it('updates a label', async () => {
      const urgent = await createLabel('Urgent');
      expect((await resend.inboxes.labels.update({ inboxId, labelId: urgent, color: '#000000' })).data).toEqual({ object: 'inbox_label', id: urgent });
      expect((await resend.inboxes.labels.list({ inboxId })).data!.data[0].color).toBe('#000000');
    });

    it("adds labels to a thread, sets a thread's labels, and lists threads by label", async () => {
      const billing = await createLabel('Billing', '#E93D82');
      const urgent = await createLabel('Urgent', '#000000');
      const added = await resend.inboxes.threads.labels.add({ inboxId, threadId: invoice.id, labels: [billing, urgent] });
      expect(added.data).toEqual({ object: 'list', data: [{ id: billing, name: 'Billing', color: '#E93D82' }, { id: urgent, name: 'Urgent', color: '#000000' }] });
      const set = await resend.inboxes.threads.labels.set({ inboxId, threadId: invoice.id, labels: [billing] });
      expect(set.data!.data.map((l) => l.id)).toEqual([billing]);
      const byLabel = await resend.inboxes.threads.list({ inboxId, labels: [billing] });
      expect(byLabel.data!.data.map((x) => x.id)).toEqual([invoice.id]);
    });

    it("removes a label from a thread; a deleted label can't be added (404)", async () => {
      const billing = await createLabel('Billing');
      const urgent = await createLabel('Urgent');
      await resend.inboxes.threads.labels.add({ inboxId, threadId: invoice.id, labels: [billing] });
      const off = await resend.inboxes.threads.labels.remove({ inboxId, threadId: invoice.id, labelId: billing });
      expect(off.data).toEqual({ object: 'list', data: [] });
      const delLabel = await resend.inboxes.labels.remove({ inboxId, labelId: urgent });
      expect(delLabel.data).toEqual({ object: 'inbox_label', id: urgent, deleted: true });
      expect((await resend.inboxes.threads.labels.add({ inboxId, threadId: invoice.id, labels: [urgent] })).error).toMatchObject({ statusCode: 404, message: `Label "${urgent}" not found.` });
    });

    it('searches threads by query and sender', async () => {
      const search = await resend.inboxes.threads.search({ inboxId, query: 'invoice -lunch', from: ['carol'] });
      expect(search.error).toBeNull();
      expect(search.data!.data).toEqual([expect.objectContaining({ id: invoice.id, matched_email_id: expect.any(String) })]);
    });

    it('refuses a search start_date that is not ISO 8601', async () => {
      const badSearch = await resend.inboxes.threads.search({ inboxId, startDate: 'yesterday' });
      expect(badSearch.error).toMatchObject({ statusCode: 422, message: 'The `start_date` must be a valid ISO 8601 date.' });
    });

    it('moves a thread to a folder and marks it read: lists by folder and the unread count follow', async () => {
      const moved = await resend.inboxes.threads.update({ inboxId, threadId: invoice.id, folder: 'archive', read: true });
      expect(moved.data).toMatchObject({ object: 'inbox_thread', id: invoice.id, folder: 'archive', read: true });
      expect((await resend.inboxes.threads.list({ inboxId })).data!.data.map((x) => x.id)).toEqual([lunch.id]);
      expect((await resend.inboxes.threads.list({ inboxId, folders: ['archive'], read: true })).data!.data.map((x) => x.id)).toEqual([invoice.id]);
      expect((await resend.inboxes.get(inboxId)).data!.unread).toBe(1);
    });

    it('removing a thread moves it to trash; removing it again answers deleted: false', async () => {
      const removed = await resend.inboxes.threads.remove({ inboxId, threadId: lunch.id });
      expect(removed.data).toEqual({ object: 'inbox_thread', id: lunch.id, deleted: true });
      expect((await resend.inboxes.threads.remove({ inboxId, threadId: lunch.id })).data!.deleted).toBe(false);
      expect((await resend.inboxes.threads.list({ inboxId, folders: ['trash'] })).data!.data.map((x) => x.id)).toEqual([lunch.id]);
    });
  });

  describe('search', () => {
    let resend: Resend;
    let inboxId: string;
    let carolId: string;
    let lunch: { id: string };
    let invoice: { id: string };
    beforeEach(async () => {
      resend = sdk();
      inboxId = (await resend.inboxes.create({ emailAddress: 'finder@example.com' })).data!.id;
      carolId = (await postJson(t, { from: 'carol@sender.test', to: 'finder@example.com', subject: 'Invoice 42', text: 'Please pay the invoice.', message_id: '<inv@sender.test>' })).body.id;
      await postJson(t, { from: 'dave@sender.test', to: 'finder@example.com', subject: 'Lunch', text: 'Pizza?' });
      [lunch, invoice] = (await resend.inboxes.threads.list({ inboxId })).data!.data;
    });
    const found = async (opts: Record<string, unknown>) => {
      const r = await resend.inboxes.threads.search({ inboxId, ...opts } as Parameters<typeof resend.inboxes.threads.search>[0]);
      expect(r.error).toBeNull();
      return r.data!.data;
    };

    it('-word excludes the threads with that word', async () => {
      expect((await found({ query: '-lunch' })).map((x) => x.id)).toEqual([invoice.id]);
    });

    it('from matches the sender', async () => {
      expect((await found({ from: ['dave'] })).map((x) => x.id)).toEqual([lunch.id]);
    });

    it('matched_email_id names the email that matched', async () => {
      expect((await found({ query: 'invoice' })).map((x) => x.matched_email_id)).toEqual([carolId]);
    });

    it('every criterion must match one email of the thread, not different ones', async () => {
      // A reply from erin joins the invoice thread: "erin" and "invoice" now match different emails of it, never one.
      await postJson(t, { from: 'erin@sender.test', to: 'finder@example.com', subject: 'Re: Invoice 42', text: 'Paid.', headers: { 'In-Reply-To': '<inv@sender.test>' } });
      expect((await resend.inboxes.threads.emails.list({ inboxId, threadId: invoice.id })).data!.data).toHaveLength(2);
      expect(await found({ query: 'paid', from: ['carol'] })).toEqual([]);
      expect((await found({ query: 'paid', from: ['erin'] })).map((x) => x.id)).toEqual([invoice.id]);
    });
  });

  describe('drafts and agent settings', () => {
    let resend: Resend;
    let inboxId: string;
    let draftId: string;
    beforeEach(async () => {
      resend = sdk();
      inboxId = (await resend.inboxes.create({ emailAddress: 'sales@example.com', fromName: 'Sales' })).data!.id;
      const created = await resend.inboxes.drafts.create({ inboxId, to: 'delivered@resend.dev', subject: 'Offer', text: 'Our best price.', attachments: [{ filename: 'offer.txt', content: Buffer.from('price'), contentType: 'text/plain' }] });
      expect(created.data).toEqual({ object: 'inbox_draft', id: expect.any(String) });
      draftId = created.data!.id;
    });

    it('refuses a draft with no non-empty field', async () => {
      const empty = await resend.inboxes.drafts.create({ inboxId, subject: '' });
      expect(empty.error).toMatchObject({ statusCode: 422, name: 'validation_error', message: 'A draft must contain at least one non-empty field.' });
    });

    it('lists a standalone draft with its snippet and attachments', async () => {
      const listed = await resend.inboxes.drafts.list({ inboxId });
      expect(listed.data!.data).toEqual([expect.objectContaining({ id: draftId, type: 'standalone', to: ['delivered@resend.dev'], snippet: 'Our best price.', attachments: [expect.objectContaining({ filename: 'offer.txt', size: 5 })] })]);
    });

    it('updates and gets a draft; the inbox counts it', async () => {
      const upd = await resend.inboxes.drafts.update({ inboxId, draftId, cc: ['boss@example.org'] });
      expect(upd.data).toEqual({ object: 'inbox_draft', id: draftId });
      expect((await resend.inboxes.drafts.get({ inboxId, draftId })).data).toMatchObject({ object: 'inbox_draft', id: draftId, cc: ['boss@example.org'], email_id: null });
      expect((await resend.inboxes.get(inboxId)).data!.drafts).toBe(1);
    });

    it('sends a draft from the inbox (its from name): it leaves the list, names its email, and its thread is in sent', async () => {
      const send = await resend.inboxes.drafts.send({ inboxId, draftId });
      expect(send.error).toBeNull();
      const emailId = send.data!.id;
      expect((await resend.emails.get(emailId)).data).toMatchObject({ from: 'Sales <sales@example.com>', subject: 'Offer', to: ['delivered@resend.dev'] });
      expect((await resend.inboxes.drafts.list({ inboxId })).data!.data).toEqual([]);
      expect((await resend.inboxes.drafts.get({ inboxId, draftId })).data!.email_id).toBe(emailId);
      const sentThreads = await resend.inboxes.threads.list({ inboxId, folders: ['sent'] });
      expect(sentThreads.data!.data).toEqual([expect.objectContaining({ subject: 'Offer', folder: 'sent', email_count: 1, read: true })]);
    });

    it('refuses to send a draft twice (409)', async () => {
      expect((await resend.inboxes.drafts.send({ inboxId, draftId })).error).toBeNull();
      expect((await resend.inboxes.drafts.send({ inboxId, draftId })).error).toMatchObject({ statusCode: 409 });
    });

    it('removes a draft', async () => {
      const del = await resend.inboxes.drafts.remove({ inboxId, draftId });
      expect(del.data).toEqual({ object: 'inbox_draft', id: draftId, deleted: true });
      expect((await resend.inboxes.drafts.list({ inboxId })).data!.data).toEqual([]);
    });

    it('agent settings start empty; an update by address stores them, actions without repeats', async () => {
      const agent = await resend.inboxes.agent.get({ inboxId });
      expect(agent.data).toEqual({ object: 'inbox_agent', instructions: null, tone: null, actions: [] });
      const setAgent = await resend.inboxes.agent.update({ emailAddress: 'sales@example.com', instructions: 'Be nice.', tone: 'concise_casual', actions: ['draft_reply', 'archive', 'archive'] });
      expect(setAgent.data).toEqual({ object: 'inbox_agent', id: expect.any(String) });
      expect((await resend.inboxes.agent.get({ inboxId })).data).toEqual({ object: 'inbox_agent', instructions: 'Be nice.', tone: 'concise_casual', actions: ['draft_reply', 'archive'] });
    });
  });

  // One run of every inbox action (beforeAll), its deliveries kept; each `it` checks one rule on them.
  describe('inbox.* events', () => {
    let rx: Receiver;
    let hook: { id: string; signing_secret: string };
    let inboxId: string;
    let threadId: string;
    let receivedId: string;
    let labelId: string;
    let draftId: string;
    let scratchId: string;
    let events: WebhookEventPayload[];
    let order: { type: string; data: any }[];
    beforeAll(async () => {
      rx = await startReceiver();
      const resend = sdk();
      hook = (await resend.webhooks.create({ endpoint: rx.url, events: [...INBOX_EVENTS] })).data!;
      inboxId = (await resend.inboxes.create({ emailAddress: 'events@example.com' })).data!.id;
      await resend.inboxes.update(inboxId, { fromName: 'Events' });
      receivedId = (await postJson(t, { from: 'eve@sender.test', to: 'events@example.com', subject: 'Hello', text: 'Hi' })).body.id;
      threadId = (await resend.inboxes.threads.list({ inboxId })).data!.data[0].id;
      labelId = (await resend.inboxes.labels.create({ inboxId, name: 'VIP' })).data!.id;
      await resend.inboxes.threads.labels.add({ inboxId, threadId, labels: [labelId] });
      await resend.inboxes.threads.update({ inboxId, threadId, folder: 'archive' });
      draftId = (await resend.inboxes.drafts.create({ inboxId, threadId, replyToEmailId: receivedId, text: 'Hi back' })).data!.id;
      // A second reply draft to the same email is the same draft.
      const again = await resend.inboxes.drafts.create({ inboxId, threadId, replyToEmailId: receivedId, text: 'Other' });
      expect(again.data!.id).toBe(draftId);
      await resend.inboxes.drafts.update({ inboxId, draftId, subject: 'Re: Hello' });
      await resend.inboxes.drafts.send({ inboxId, draftId });
      scratchId = (await resend.inboxes.drafts.create({ inboxId, text: 'scratch' })).data!.id;
      await resend.inboxes.drafts.remove({ inboxId, draftId: scratchId });
      await resend.inboxes.agent.update({ inboxId, actions: ['assign_thread'] });
      const agentAssign = await t.anon.post(`/_emulator/inboxes/${inboxId}/agent-actions`).send({ action: 'assign_thread', thread_id: threadId, assignee_email: 'owner@example.com' });
      expect(agentAssign.status).toBe(200);
      await t.anon.post(`/_emulator/inboxes/${inboxId}/agent-actions`).send({ action: 'assign_thread', thread_id: threadId, assignee_email: null });
      await resend.inboxes.remove(inboxId);
      await emu.server.clock.advance('1s');
      events = rx.requests.map((r) => resend.webhooks.verify(verifyInput(r, hook.signing_secret)));
      order = emu.server.webhookDeliveries({ webhook_id: hook.id }).map((d) => d.payload as { type: string; data: any });
    });
    afterAll(() => rx.close());
    const first = (type: string) => events.find((e) => e.type === type)!.data as any;

    it('raises each of the 14 inbox.* types, every delivery verified by resend.webhooks.verify', () => {
      expect(events.length).toBe(rx.requests.length);
      expect([...new Set(events.map((e) => e.type))].sort()).toEqual([...INBOX_EVENTS].sort());
      for (const ev of events) expect(ev.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    });

    it('every inbox, thread, email and draft an event carries has the SDK type\'s exact shape', async () => {
      const check = await eventObjectValidators();
      for (const ev of events) {
        const data = ev.data as unknown as Record<string, unknown>;
        for (const key of ['inbox', 'thread', 'email', 'draft'] as const) {
          if (data[key] === undefined) continue;
          expect(check[key](data[key]), `${ev.type}.data.${key}: ${JSON.stringify(check[key].errors)}`).toBe(true);
        }
        if (ev.type === 'inbox.thread.labels.updated') for (const l of [...ev.data.added, ...ev.data.removed]) expect(check.label(l)).toBe(true);
      }
    });

    it('each event carries the fields its SDK type names', () => {
      for (const ev of events) {
        // Reading the fields by the SDK's types type-checks the payload union.
        switch (ev.type) {
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
            expect([draftId, scratchId]).toContain(ev.data.draft_id);
            break;
          default:
            expect((ev.data as unknown as Record<string, unknown>).inbox_id).toBe(inboxId);
        }
      }
    });

    it('inbox.created carries the inbox', () => {
      expect(first('inbox.created')).toMatchObject({ source: 'api', inbox_id: inboxId, inbox: { object: 'inbox', email_address: 'events@example.com' } });
    });

    it('inbox.email.received carries the email without its bodies', () => {
      expect(first('inbox.email.received')).toMatchObject({ source: 'system', thread_id: threadId, email_id: receivedId, email: { direction: 'inbound' } });
      expect(first('inbox.email.received').email.html).toBeUndefined();
    });

    it('inbox.thread.folder.updated names both folders; inbox.thread.labels.updated the labels added and removed', () => {
      expect(first('inbox.thread.folder.updated')).toMatchObject({ from: 'inbox', to: 'archive' });
      expect(first('inbox.thread.labels.updated')).toMatchObject({ added: [{ id: labelId, name: 'VIP' }], removed: [] });
    });

    it('inbox.draft.sent carries the draft, its thread and the outbound email', () => {
      expect(first('inbox.draft.sent')).toMatchObject({ draft_id: draftId, thread_id: threadId, email: { direction: 'outbound' } });
    });

    it('an agent assignment raises inbox.thread.assigned, then inbox.thread.unassigned with the previous assignee', () => {
      expect(first('inbox.thread.assigned')).toMatchObject({ source: 'agent', assignee_email: 'owner@example.com', previous_assignee_email: null });
      expect(first('inbox.thread.unassigned')).toMatchObject({ previous_assignee_email: 'owner@example.com' });
    });

    it('inbox.deleted names the inbox alone', () => {
      expect(first('inbox.deleted')).toEqual({ source: 'api', inbox_id: inboxId });
    });

    it('a draft send raises inbox.draft.sent, then inbox.email.sent for the same email', () => {
      // docs/reference/inboxes.md#draft-rules
      const sentAt = order.findIndex((p) => p.type === 'inbox.draft.sent');
      const emailSentAt = order.findIndex((p) => p.type === 'inbox.email.sent');
      expect(sentAt).toBeGreaterThanOrEqual(0);
      expect(emailSentAt).toBeGreaterThan(sentAt);
      expect(order[emailSentAt].data.email_id).toBe(order[sentAt].data.email_id);
    });
  });
});
