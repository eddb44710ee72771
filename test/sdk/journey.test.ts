/**
 * The end-to-end journey of the interface-spec issue, with the official SDK
 * against startServer(): import a CSV of contacts into a segment with topics,
 * create and enable an automation, send its event for an imported contact,
 * advance the clock, see the run completed with its steps, the email
 * recorded for that contact, and the contact listed in the segment until
 * removed by id and by email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { startServer, type EmulatorServer } from '../../src/index.js';

// One emulator for the whole journey: each step is an `it` of its own (its rule named), and runs on the state the steps before it left.
describe('SDK journey: import → automation → event → email → segment removal', () => {
  let emu: EmulatorServer;
  let resend: Resend;
  let segmentId: string;
  let topicId: string;
  let adaId: string;
  let automationId: string;
  let runId: string;
  beforeAll(async () => {
    emu = await startServer({ validateResponses: true, webhooks: 'record' });
    resend = new Resend(emu.apiKey, { baseUrl: emu.url });
    // A segment and a topic to import into.
    segmentId = (await resend.segments.create({ name: 'Imported' })).data!.id;
    topicId = (await resend.topics.create({ name: 'Onboarding tips', defaultSubscription: 'opt_out' })).data!.id;
  });
  afterAll(() => emu.close());

  it('1. a CSV import is queued, then completes on the clock with its good rows created and its bad row failed', async () => {
    const csv = ['Email,First,Last', 'ada@example.net,Ada,Lovelace', 'grace@example.net,Grace,Hopper', 'not-an-email,Bad,Row'].join('\n');
    const imported = await resend.contacts.imports.create({
      file: new Blob([csv], { type: 'text/csv' }),
      columnMap: { email: 'Email', firstName: 'First', lastName: 'Last' },
      segments: [{ id: segmentId }],
      topics: [{ id: topicId, subscription: 'opt_in' }],
    });
    expect(imported.error).toBeNull();
    expect(imported.data!.object).toBe('contact_import');
    expect((await resend.contacts.imports.get(imported.data!.id)).data!.status).toBe('queued');
    await emu.clock.advance('2s');
    const done = (await resend.contacts.imports.get(imported.data!.id)).data!;
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ total: 3, created: 2, failed: 1 });
  });

  it('2. an imported contact has its mapped names, the segment and the topic subscription of the import', async () => {
    const ada = (await resend.contacts.get({ email: 'ada@example.net' })).data!;
    adaId = ada.id;
    expect(ada).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', unsubscribed: false });
    const inSegment = (await resend.contacts.list({ segmentId })).data!.data.map((c) => c.email).sort();
    expect(inSegment).toEqual(['ada@example.net', 'grace@example.net']);
    const topics = (await resend.contacts.topics.list({ id: ada.id })).data!.data;
    expect(topics.find((t) => t.id === topicId)!.subscription).toBe('opt_in');
  });

  it('3. the event of an enabled automation starts a run at once', async () => {
    const template = (await resend.templates.create({
      name: 'Tips',
      from: 'Acme <tips@example.com>',
      subject: 'Tips for {{{FIRST}}}',
      html: '<p>Hello {{{FIRST}}}, start <a href="https://example.com/start">here</a>.</p>',
      variables: [{ key: 'FIRST', type: 'string', fallbackValue: 'friend' }],
    })).data!;
    expect((await resend.templates.publish(template.id)).error).toBeNull();
    const automation = await resend.automations.create({
      name: 'Onboarding',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'user.onboarded' } },
        { key: 'wait', type: 'delay', config: { duration: '1 hour' } },
        { key: 'tips', type: 'send_email', config: { template: { id: template.id, variables: { FIRST: { var: 'event.first' } } } } },
      ],
      connections: [{ from: 'start', to: 'wait' }, { from: 'wait', to: 'tips' }],
    });
    expect(automation.error).toBeNull();
    automationId = automation.data!.id;
    const sent = await resend.events.send({ event: 'user.onboarded', contactId: adaId, payload: { first: 'Ada' } });
    expect(sent.data).toEqual({ object: 'event', event: 'user.onboarded' });
    const runs = (await resend.automations.runs.list({ automationId })).data!.data;
    expect(runs.map((r) => r.status)).toEqual(['running']);
    runId = runs[0].id;
  });

  it('4. the delay holds the run for an hour of emulated time, then it completes with every step', async () => {
    await emu.clock.advance('59m');
    expect((await resend.automations.runs.get({ automationId, runId })).data!.status).toBe('running');
    expect(emu.emails({ to: 'ada@example.net' })).toHaveLength(0);
    await emu.clock.advance('1m');
    const run = (await resend.automations.runs.get({ automationId, runId })).data!;
    expect(run.status).toBe('completed');
    expect(run.completed_at).not.toBeNull();
    expect(run.steps.map((s) => `${s.key}:${s.status}`)).toEqual(['start:completed', 'wait:completed', 'tips:completed']);
    const completed = (await resend.automations.runs.list({ automationId, status: 'completed' } as any)).data!.data;
    expect(completed.map((r) => r.id)).toEqual([runId]);
  });

  it("5. the run's email is recorded for that contact, rendered from the template, and is delivered", async () => {
    const run = (await resend.automations.runs.get({ automationId, runId })).data!;
    const output = run.steps.find((s) => s.key === 'tips')!.output as any;
    const [email] = emu.emails({ to: 'ada@example.net' });
    expect(email.id).toBe(output.email_id);
    expect(email.subject).toBe('Tips for Ada');
    expect(email.html).toContain('Hello Ada');
    expect(email.links).toContain('https://example.com/start');
    await emu.clock.advance('3s');
    expect((await resend.emails.get(email.id)).data!.last_event).toBe('delivered');
  });

  it('6. contacts leave the segment when removed by id and by email, and remain as contacts', async () => {
    const removedById = await resend.contacts.segments.remove({ contactId: adaId, segmentId });
    expect(removedById.data).toEqual({ id: adaId, audienceId: segmentId, deleted: true });
    const grace = (await resend.contacts.get({ email: 'grace@example.net' })).data!;
    const removedByEmail = await resend.contacts.segments.remove({ email: 'grace@example.net', segmentId });
    expect(removedByEmail.data).toEqual({ id: grace.id, audienceId: segmentId, deleted: true });
    expect((await resend.contacts.list({ segmentId })).data!.data).toEqual([]);
    expect((await resend.contacts.get({ id: adaId })).data!.email).toBe('ada@example.net');
  });
});
