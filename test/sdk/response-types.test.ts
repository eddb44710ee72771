/**
 * Every answer of the official `resend` SDK, type-checked against the SDK's
 * own declared types (issue 27, item 3).
 *
 * One scenario calls every SDK method that answers data against the
 * emulator, on non-empty data (a contact with string and number properties,
 * emails with tags, attachments and cc, templates with variables, a sent
 * broadcast with opens and clicks, webhooks with events and attempts,
 * received emails, inboxes with threads, labels and drafts, automations and
 * runs, …), through a recorder (./response-types/recorder.ts). Each answer's
 * `data` is then compiled, with the TypeScript compiler API, against
 * `NonNullable<Awaited<ReturnType<Resend['x']['y']>>['data']>` of the method
 * that answered it (./response-types/checker.ts): a wrong value type, a
 * missing required key, a `null` the SDK does not allow or a string outside
 * an enum fails, naming the method.
 *
 * Every method of `scripts/sdk-coverage.mjs` (and each of its variants: the
 * deprecated `audienceId` paths, `passthrough: false`) must be checked here
 * or listed in NOT_CHECKED with its reason; EXPECTED lists where the checked
 * type is not the SDK's plain `data` type, with the reason (a generic's
 * instantiation picked by the call's options, or the interface spec, which
 * wins where it speaks).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import request from 'supertest';
import { useEmulator } from '../../src/vitest.js';
import { emailsOfBroadcast } from '../../src/resources/emails/service.js';
import { FIXTURES, client } from '../helpers.js';
import { postJson, postRaw, rawMessage } from '../resources/receiving/helpers.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';
import { argsText, recording, type SdkCall } from './response-types/recorder.js';
import { checkResponseTypes, type RecordedCall } from './response-types/checker.js';
// @ts-expect-error plain ESM script without type declarations
import { METHODS, sdkMethods } from '../../scripts/sdk-coverage.mjs';
import { contextOf } from '../../src/internals.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * SDK methods whose answer this test does not type-check, with the reason
 * (`'a.b.c': 'why'`). None today: every method of resend 6.38, the local
 * `webhooks.verify` included (on every delivery the scenario raised), is
 * called and checked. A method the SDK adds fails the test until the
 * scenario calls it or it is listed here.
 */
const NOT_CHECKED: Record<string, string> = {};

/**
 * Where the checked type is not the SDK method's plain `data` type: the
 * type expression (`SDK` is the method's own `data` type; `SDKTypes.X` any
 * type the package exports), picked by the call's arguments, and the reason.
 */
const EXPECTED: { method: string; when?: (args: unknown[]) => boolean; type: string; reason: string }[] = [
  ...['batch.send', 'batch.create'].flatMap((method) => [
    {
      method,
      when: (args: unknown[]) => (args[1] as { batchValidation?: string } | undefined)?.batchValidation === 'permissive',
      type: "SDKTypes.CreateBatchSuccessResponse<{ batchValidation: 'permissive' }>",
      reason: 'a generic method: the instantiation the call picked (`batchValidation: "permissive"`)',
    },
    {
      method,
      type: '{ data: { id: string }[] }',
      reason: "the SDK's strict type is `{data} & Record<string, never>`, which no object with `data` satisfies (`data: never`); the strict answer is `{data: [{id}]}` (docs/reference/resources.md#batch-sends, the document)",
    },
  ]),
  {
    method: 'webhooks.verify',
    type: "ReturnType<Resend['webhooks']['verify']>",
    reason: 'a local method: it returns the verified delivery payload itself (`WebhookEventPayload`), not `{data, error}`',
  },
  {
    method: 'templates.get',
    type: "Omit<SDK, 'reply_to'> & { reply_to: string | null }",
    reason: 'the interface spec ("Template": `reply_to` string or null) wins over the SDK (`string[]`)',
  },
  {
    method: 'apiKeys.remove',
    type: "Omit<SDK, 'object'> & { object: 'list' }",
    reason: 'the service answers `object: "list"` (recording API-Keys-Integration-Tests-remove-removes-an-API-key, docs/reference/resources.md#api-keys); a recording outranks the SDK (`api_key`)',
  },
  {
    method: 'broadcasts.get',
    type: "Omit<SDK, 'status'> & { status: SDK['status'] | 'scheduled' | 'canceled' }",
    reason: "the service's broadcast states include `scheduled` and `canceled` (docs/reference/resources.md#broadcasts, the service's dashboard docs); the SDK types only `draft | sent | queued`",
  },
  {
    method: 'broadcasts.list',
    type: "Omit<SDK, 'data'> & { data: (Omit<SDK['data'][number], 'status'> & { status: SDK['data'][number]['status'] | 'scheduled' | 'canceled' })[] }",
    reason: 'as broadcasts.get: list items in the `scheduled` and `canceled` states',
  },
];

/** The variant (METHODS of scripts/sdk-coverage.mjs) a recorded call exercised, or null. */
function variantOf(method: string, args: unknown[]): string | null {
  const entry = METHODS[method];
  if (!entry?.variants) return null;
  const text = argsText(args);
  const hit = entry.variants.find((v: { when?: RegExp }) => v.when?.test(text));
  return (hit ?? entry.variants.find((v: { when?: RegExp }) => !v.when)).label;
}

/** The EXPECTED entry a call is checked against, or undefined for the SDK's own type. */
function expectedEntry(call: SdkCall) {
  return EXPECTED.find((e) => e.method === call.method && (!e.when || e.when(call.args)));
}

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

describe("every SDK answer in the SDK's declared types", () => {
  const emu = useEmulator({ validateResponses: true });

  it('the checker fails a wrong value type, a missing required key, a wrong enum literal and a null where the SDK says string', () => {
    const contact = {
      object: 'contact', id: 'c', email: 'a@example.net', created_at: '2026-01-01 00:00:00.000+00', first_name: null, last_name: 'L', unsubscribed: false,
      properties: { company: { type: 'string', value: 'Acme' }, seats: { type: 'number', value: 3 } }, extra_key: 'ignored',
    };
    const { id: _omit, ...noId } = contact;
    const problems = checkResponseTypes([
      { method: 'contacts.get', data: contact },
      { method: 'contacts.get', variant: 'plain value', data: { ...contact, properties: { company: 'Acme' } } },
      { method: 'contacts.get', variant: 'no id', data: noId },
      { method: 'contacts.get', variant: 'enum', data: { ...contact, object: 'contacts' } },
      { method: 'topics.get', data: { object: 'topic', id: 't', name: 'n', description: null, default_subscription: 'opt_in', created_at: 'x' } },
    ]);
    expect(problems.map((p) => p.variant ?? p.method)).toEqual(['plain value', 'no id', 'enum', 'topics.get']);
    expect(problems[0].message).toMatch(/not assignable to type 'ContactPropertyValue'/);
    expect(problems[1].message).toMatch(/Property 'id' is missing/);
    expect(problems[2].message).toMatch(/'"contacts"' is not assignable to type '"contact"'/);
    expect(problems[3].message).toMatch(/description/);
  }, 60_000);

  it('every method answers on non-empty data, in its declared type', async () => {
    const log: SdkCall[] = [];
    const resend = recording(new Resend(emu.server.apiKey, { baseUrl: emu.server.url }), log);
    const anon = { get anon() { return client(emu.server.url); } };
    const clock = emu.server.clock;
    rx = await startReceiver();
    const admin = (p: string) => request(emu.server.url).post(p);

    // Webhooks first, so every later change raises a delivery.
    const hook = (await resend.webhooks.create({ endpoint: rx.url, events: ['email.sent', 'email.delivered', 'email.opened', 'email.clicked', 'email.received', 'contact.created', 'contact.updated', 'domain.created', 'inbox.thread.created'] })).data!;
    await resend.webhooks.get(hook.id);
    await resend.webhooks.list();
    const spare = (await resend.webhooks.create({ endpoint: 'https://hooks.example.com/spare', events: ['email.bounced'] })).data!;
    await resend.webhooks.update(spare.id, { status: 'disabled' });
    await resend.webhooks.rotateSigningSecret(spare.id);
    await resend.webhooks.remove(spare.id);

    // Contact properties, contacts with string and number properties, segments, topics.
    const prop = (await resend.contactProperties.create({ key: 'tier', type: 'string', fallbackValue: 'free' })).data!;
    await resend.contactProperties.create({ key: 'score', type: 'number' });
    await resend.contactProperties.get(prop.id);
    await resend.contactProperties.list();
    await resend.contactProperties.update({ id: prop.id, fallbackValue: 'basic' });
    const segment = (await resend.segments.create({ name: 'Readers' })).data!;
    await resend.segments.get(segment.id);
    await resend.segments.list();
    await resend.segments.update(segment.id, { name: 'Readers (all)' });
    const topic = (await resend.topics.create({ name: 'Digest', defaultSubscription: 'opt_in' })).data!;
    await resend.topics.create({ name: 'News', defaultSubscription: 'opt_out', description: 'What is new' });
    await resend.topics.get(topic.id);
    await resend.topics.list();
    await resend.topics.update({ id: topic.id, name: 'Weekly digest' });
    const readers = ['delivered+a@resend.dev', 'delivered+b@resend.dev'];
    const contact = (await resend.contacts.create({ email: readers[0], firstName: 'Ada', properties: { tier: 'pro', score: 7, company: 'Initech', plan_seats: 3 }, segments: [{ id: segment.id }], topics: [{ id: topic.id, subscription: 'opt_in' }] })).data!;
    await resend.contacts.create({ email: readers[1], segments: [{ id: segment.id }] });
    await resend.contacts.create({ audienceId: segment.id, email: 'legacy@example.net', lastName: 'Legacy' });
    await resend.contacts.get(contact.id);
    await resend.contacts.get({ email: readers[1] });
    await resend.contacts.get({ audienceId: segment.id, id: contact.id });
    await resend.contacts.list();
    await resend.contacts.list({ segmentId: segment.id });
    await resend.contacts.list({ audienceId: segment.id });
    await resend.contacts.update({ id: contact.id, lastName: 'Lovelace', properties: { score: 8 } });
    await resend.contacts.update({ audienceId: segment.id, email: 'legacy@example.net', unsubscribed: true });
    await resend.contacts.segments.list({ contactId: contact.id });
    const extra = (await resend.segments.create({ name: 'Extra' })).data!;
    await resend.contacts.segments.add({ contactId: contact.id, segmentId: extra.id });
    await resend.contacts.segments.remove({ email: readers[0], segmentId: extra.id });
    await resend.contacts.topics.list({ id: contact.id });
    await resend.contacts.topics.update({ id: contact.id, topics: [{ id: topic.id, subscription: 'opt_out' }] });
    const csv = ['email,first_name', 'imp+1@example.net,Imp', 'not-an-email,Bad'].join('\n');
    const imp = (await resend.contacts.imports.create({ file: new Blob([csv], { type: 'text/csv' }), segments: [{ id: segment.id }] })).data!;
    await clock.advance('2s');
    await resend.contacts.imports.get(imp.id);
    await resend.contacts.imports.list();
    // The audiences alias (deprecated) answers the segments' shapes.
    const aud = (await resend.audiences.create({ name: 'Old audience' })).data!;
    await resend.audiences.get(aud.id);
    await resend.audiences.list();
    await resend.audiences.update(aud.id, { name: 'Old audience (renamed)' });
    await resend.audiences.remove(aud.id);

    // Domains and claims.
    const domain = (await resend.domains.create({ name: 'mail.acme.dev', openTracking: true, clickTracking: true, trackingSubdomain: 'links' })).data!;
    const plain = (await resend.domains.create({ name: 'plain.acme.dev' })).data!;
    await resend.domains.get(domain.id);
    await resend.domains.get(plain.id);
    await resend.domains.list();
    await resend.domains.update({ id: plain.id, openTracking: true });
    await resend.domains.verify(domain.id);
    const claim = (await resend.domains.claims.create({ name: FIXTURES.claimableDomain })).data!;
    await resend.domains.claims.get(claim.domain_id!);
    await resend.domains.claims.verify(claim.domain_id!);
    await clock.advance('5s');

    // Templates with variables.
    const template = (await resend.templates.create({
      name: 'Receipt', alias: 'receipt', from: 'Acme <billing@example.com>', subject: 'Receipt for {{{AMOUNT}}}', replyTo: 'help@example.com',
      html: '<p>You paid {{{AMOUNT}}} for {{{ITEM}}}.</p>',
      variables: [{ key: 'AMOUNT', type: 'number', fallbackValue: 0 }, { key: 'ITEM', type: 'string', fallbackValue: 'your order' }],
    })).data!;
    await resend.templates.publish(template.id);
    await resend.templates.get(template.id);
    await resend.templates.get('welcome');
    await resend.templates.list();
    await resend.templates.update(template.id, { subject: 'Your receipt for {{{AMOUNT}}}' });
    const copy = (await resend.templates.duplicate(template.id)).data!;
    await resend.templates.remove(copy.id);

    // Emails with tags, attachments, cc; batch; a scheduled one updated and cancelled.
    const sent = (await resend.emails.send({
      from: 'Acme <hello@example.com>', to: ['delivered@resend.dev'], cc: ['delivered+cc@resend.dev'], bcc: 'delivered+bcc@resend.dev', replyTo: 'help@example.com',
      subject: 'Hello', html: '<p>Hi <a href="https://example.com/x">there</a></p>', tags: [{ name: 'kind', value: 'welcome' }], headers: { 'X-Ref': '1' },
      attachments: [{ filename: 'note.txt', content: Buffer.from('note') }, { filename: 'logo.png', content: Buffer.from('png'), contentType: 'image/png', contentId: 'logo' }],
    })).data!;
    await resend.emails.create({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', template: { id: 'welcome', variables: { NAME: 'Ann' } } });
    await resend.batch.send([{ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'B1', text: '1' }, { from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'B2', text: '2', tags: [{ name: 'k', value: 'v' }] }]);
    await resend.batch.create([{ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'B3', text: '3' }]);
    await resend.batch.send([{ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'B4', text: '4' }, { from: 'nope', to: 'delivered@resend.dev', subject: 'B5', text: '5' }], { batchValidation: 'permissive' });
    await resend.batch.create([{ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'B6', text: '6' }, { from: 'nope', to: 'delivered@resend.dev', subject: 'B7', text: '7' }], { batchValidation: 'permissive' });
    const later = (await resend.emails.send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'Later', text: 'x', scheduledAt: 'in 1 hour' })).data!;
    await resend.emails.update({ id: later.id, scheduledAt: 'in 2 hours' });
    await resend.emails.get(later.id);
    await resend.emails.cancel(later.id);
    await clock.advance('3s');
    await admin(`/_emulator/emails/${sent.id}/events`).send({ type: 'opened' });
    await admin(`/_emulator/emails/${sent.id}/events`).send({ type: 'clicked' });
    await resend.emails.get(sent.id);
    await resend.emails.list();
    const atts = (await resend.emails.attachments.list({ emailId: sent.id })).data!;
    await resend.emails.attachments.get({ emailId: sent.id, id: atts.data[0].id });
    await resend.emails.share(sent.id, { expiresIn: '1 hour' });
    await resend.emails.metrics();
    await resend.emails.metrics({ dimensions: ['period', 'email'], granularity: 'daily' });

    // Suppressions.
    const sup = (await resend.suppressions.add({ email: 'gone@example.net' })).data!;
    await resend.suppressions.get(sup.id);
    await resend.suppressions.list();
    await resend.suppressions.batch.add({ emails: ['x1@example.net', 'x2@example.net'] });
    await resend.suppressions.batch.remove({ emails: ['x1@example.net'] });
    await resend.suppressions.remove('gone@example.net');

    // A broadcast sent to the segment, opened and clicked; another scheduled and cancelled.
    const bc = (await resend.broadcasts.create({ segmentId: segment.id, from: 'Acme <news@example.com>', subject: 'News', html: '<p>Hi <a href="https://example.org/one">one</a></p>', name: 'News', topicId: topic.id, replyTo: 'news@example.com', previewText: 'Hi' })).data!;
    await resend.broadcasts.update(bc.id, { subject: 'News!' });
    await resend.broadcasts.send(bc.id);
    await clock.advance('1s');
    await clock.advance('1h');
    for (const e of emailsOfBroadcast(contextOf(emu.server), bc.id)) {
      await admin(`/_emulator/emails/${e.id}/events`).send({ type: 'opened' });
      await admin(`/_emulator/emails/${e.id}/events`).send({ type: 'clicked', link: 'https://example.org/one' });
    }
    await resend.broadcasts.get(bc.id);
    await resend.broadcasts.list();
    await resend.broadcasts.recipients(bc.id, { type: 'delivered' });
    await resend.broadcasts.recipients(bc.id, { type: 'clicked' });
    await resend.broadcasts.clickedLinks(bc.id);
    const draft = (await resend.broadcasts.duplicate(bc.id)).data!;
    await resend.broadcasts.send(draft.id, { scheduledAt: 'in 1 day' });
    await resend.broadcasts.get(draft.id);
    await resend.broadcasts.list();
    await resend.broadcasts.cancel(draft.id);
    await resend.broadcasts.remove(draft.id);

    // Events, automations and runs.
    const ev = (await resend.events.create({ name: 'order.paid', schema: { amount: 'number' } })).data!;
    await resend.events.get('order.paid');
    await resend.events.list();
    await resend.events.update(ev.id, { schema: { amount: 'number', sku: 'string' } });
    const automation = (await resend.automations.create({
      name: 'Thanks', status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'order.paid' } },
        { key: 'wait', type: 'delay', config: { duration: '1 hour' } },
        { key: 'mail', type: 'send_email', config: { template: { id: 'welcome', variables: { NAME: 'buyer' } } } },
      ],
      connections: [{ from: 'start', to: 'wait' }, { from: 'wait', to: 'mail' }],
    })).data!;
    await resend.events.send({ event: 'order.paid', contactId: contact.id, payload: { amount: 3 } });
    await resend.events.send({ event: 'order.paid', email: readers[1], payload: { amount: 4 } });
    await clock.advance('2h');
    await resend.automations.get(automation.id);
    await resend.automations.list();
    await resend.automations.update(automation.id, { name: 'Thanks v2' });
    const runs = (await resend.automations.runs.list({ automationId: automation.id })).data!;
    await resend.automations.runs.get({ automationId: automation.id, runId: runs.data[0].id });
    const dup = (await resend.automations.duplicate(automation.id)).data!;
    await resend.automations.stop(automation.id);
    await resend.automations.remove(dup.id);
    await resend.events.remove(ev.id);

    // Received emails (with an attachment, an inline one without a filename, cc), forwarded both ways.
    const received = await postRaw(anon, rawMessage({ cc: 'Bob <bob@example.com>' }));
    expect(received.status).toBe(201);
    await resend.emails.receiving.get(received.body.id);
    await resend.emails.receiving.list();
    const ratts = (await resend.emails.receiving.attachments.list({ emailId: received.body.id })).data!;
    await resend.emails.receiving.attachments.get({ emailId: received.body.id, id: ratts.data[0].id });
    await resend.emails.receiving.forward({ emailId: received.body.id, to: 'delivered@resend.dev', from: 'Support <support@example.com>' });
    await resend.emails.receiving.forward({ emailId: received.body.id, to: ['delivered@resend.dev'], from: 'support@example.com', passthrough: false, text: 'FYI' });

    // Inboxes: threads from received mail, labels, drafts, agent.
    const inbox = (await resend.inboxes.create({ emailAddress: 'help@example.com', fromName: 'Help' })).data!;
    const inboxId = inbox.id;
    const first = await postJson(anon, { from: 'Ada <ada@sender.test>', to: 'help@example.com', cc: 'carol@sender.test', subject: 'Printer', text: 'It jams.', message_id: '<p1@sender.test>', attachments: [{ filename: 'photo.png', content: Buffer.from('png!').toString('base64') }] });
    expect(first.status).toBe(201);
    await clock.advance('1s');
    await postJson(anon, { from: 'bob@sender.test', to: 'help@example.com', subject: 'Lunch', text: 'Pizza?' });
    await resend.inboxes.get(inboxId);
    await resend.inboxes.list();
    await resend.inboxes.update(inboxId, { name: 'Help desk' });
    const threads = (await resend.inboxes.threads.list({ inboxId })).data!;
    const printer = threads.data.find((x) => x.subject === 'Printer')!;
    const lunch = threads.data.find((x) => x.subject === 'Lunch')!;
    await resend.inboxes.threads.get({ inboxId, threadId: printer.id });
    await resend.inboxes.threads.search({ inboxId, query: 'jams' });
    const temails = (await resend.inboxes.threads.emails.list({ inboxId, threadId: printer.id })).data!;
    await resend.inboxes.threads.emails.get({ inboxId, threadId: printer.id, emailId: temails.data[0].id });
    await resend.inboxes.threads.emails.reply({ inboxId, threadId: printer.id, emailId: temails.data[0].id, text: 'Turn it off and on.' });
    await resend.inboxes.threads.emails.forward({ inboxId, threadId: printer.id, emailId: temails.data[0].id, to: 'delivered@resend.dev', text: 'FYI' });
    const label = (await resend.inboxes.labels.create({ inboxId, name: 'Hardware', color: '#E93D82' })).data!;
    const label2 = (await resend.inboxes.labels.create({ inboxId, name: 'Urgent' })).data!;
    await resend.inboxes.labels.list({ inboxId });
    await resend.inboxes.labels.update({ inboxId, labelId: label2.id, color: '#000000' });
    await resend.inboxes.threads.labels.add({ inboxId, threadId: printer.id, labels: [label.id, label2.id] });
    await resend.inboxes.threads.labels.set({ inboxId, threadId: printer.id, labels: [label.id] });
    await resend.inboxes.threads.labels.remove({ inboxId, threadId: printer.id, labelId: label.id });
    await resend.inboxes.labels.remove({ inboxId, labelId: label2.id });
    await resend.inboxes.threads.update({ inboxId, threadId: lunch.id, folder: 'archive', read: true });
    await resend.inboxes.threads.remove({ inboxId, threadId: lunch.id });
    const d = (await resend.inboxes.drafts.create({ inboxId, to: 'delivered@resend.dev', subject: 'Offer', text: 'Our price.', attachments: [{ filename: 'offer.txt', content: Buffer.from('offer').toString('base64'), contentType: 'text/plain' }] })).data!;
    await resend.inboxes.drafts.list({ inboxId });
    await resend.inboxes.drafts.update({ inboxId, draftId: d.id, cc: ['boss@example.org'] });
    await resend.inboxes.drafts.get({ inboxId, draftId: d.id });
    await resend.inboxes.drafts.send({ inboxId, draftId: d.id });
    const scratch = (await resend.inboxes.drafts.create({ inboxId, text: 'scratch' })).data!;
    await resend.inboxes.drafts.remove({ inboxId, draftId: scratch.id });
    await resend.inboxes.agent.update({ inboxId, instructions: 'Be brief.', tone: 'concise_casual', actions: ['draft_reply'] });
    await resend.inboxes.agent.get({ inboxId });
    const other = (await resend.inboxes.create({ emailAddress: 'spare@example.com' })).data!;
    await resend.inboxes.remove(other.id);

    // API keys, OAuth grants.
    const key = (await resend.apiKeys.create({ name: 'deploys', permission: 'sending_access', domain_id: FIXTURES.verifiedDomainId })).data!;
    await resend.apiKeys.list();
    await resend.apiKeys.update(key.id, { name: 'deploys (prod)' });
    await resend.apiKeys.remove(key.id);
    const grant = await admin('/_emulator/oauth-grants').send({ team_id: FIXTURES.defaultTeamId, client_name: 'Zapier', scopes: ['emails:send'] });
    expect(grant.status).toBe(201);
    await resend.oauthGrants.list();
    await resend.oauthGrants.revoke(grant.body.id);

    // Webhook events and attempts, after the clock delivered them; every delivery verified.
    await clock.advance('1s');
    const events = (await resend.webhooks.events.list({ webhookId: hook.id })).data!;
    await resend.webhooks.events.get({ webhookId: hook.id, eventId: events.data[0].id });
    await resend.webhooks.events.replay({ webhookId: hook.id, eventId: events.data[0].id });
    await clock.advance(0);
    await resend.webhooks.events.attempts.list({ webhookId: hook.id, eventId: events.data[0].id });
    expect(new Set(rx.requests.map((r) => JSON.parse(r.body).type)).size).toBeGreaterThanOrEqual(8);
    for (const r of rx.requests) resend.webhooks.verify(verifyInput(r, hook.signing_secret));

    // Logs, usage; then the removals left.
    const logs = (await resend.logs.list()).data!;
    await resend.logs.get(logs.data[0].id);
    await resend.usage.get();
    await resend.contacts.remove({ audienceId: segment.id, email: 'legacy@example.net' });
    await resend.contacts.remove(contact.id);
    await resend.contactProperties.remove(prop.id);
    await resend.topics.remove(topic.id);
    await resend.segments.remove(extra.id);
    await resend.templates.remove(template.id);
    await resend.domains.remove(plain.id);
    await resend.webhooks.remove(hook.id);

    // Every call answered data (an error would leave nothing to check).
    const failed = log.filter((c) => c.method !== 'webhooks.verify' && (c.result as { error: unknown }).error !== null);
    expect(failed.map((c) => `${c.method}(${argsText(c.args)}): ${JSON.stringify((c.result as { error: unknown }).error)}`)).toEqual([]);

    // Every method (and variant) is checked, or listed with its reason.
    const dts = fs.readFileSync(path.join(root, 'node_modules', 'resend', 'dist', 'index.d.mts'), 'utf8');
    const seen = new Set(log.map((c) => `${c.method}${variantOf(c.method, c.args) ? ` [${variantOf(c.method, c.args)}]` : ''}`));
    const missing: string[] = [];
    for (const { method } of sdkMethods(dts) as { method: string }[]) {
      if (NOT_CHECKED[method]) continue;
      const variants: (string | null)[] = METHODS[method]?.variants?.map((v: { label: string }) => v.label) ?? [null];
      for (const v of variants) if (!seen.has(v ? `${method} [${v}]` : method)) missing.push(v ? `${method} [${v}]` : method);
    }
    expect(missing).toEqual([]);

    // Every answer in its declared type.
    const calls: RecordedCall[] = log.map((c) => ({
      method: c.method,
      variant: variantOf(c.method, c.args) ?? undefined,
      data: c.method === 'webhooks.verify' ? c.result : (c.result as { data: unknown }).data,
      expected: expectedEntry(c)?.type,
    }));
    const problems = checkResponseTypes(calls);
    expect(problems.map((p) => `${p.method}${p.variant ? ` [${p.variant}]` : ''}: ${p.message}`)).toEqual([]);

    // Every EXPECTED entry is used, and needed: some answer it covers fails the SDK's plain type.
    const entryOf = log.map((c) => EXPECTED.indexOf(expectedEntry(c)!));
    expect(EXPECTED.filter((_, n) => !entryOf.includes(n)).map((e) => e.method)).toEqual([]);
    const unexcepted = checkResponseTypes(calls.flatMap((c, i) => (entryOf[i] >= 0 ? [{ ...c, expected: undefined, variant: String(entryOf[i]) }] : [])));
    expect(EXPECTED.filter((_, n) => !unexcepted.some((p) => p.variant === String(n))).map((e) => `${e.method}: its answers pass the SDK's own type; drop the exception`)).toEqual([]);
  }, 120_000);
});
