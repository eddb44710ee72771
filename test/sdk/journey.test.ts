/**
 * The end-to-end journey of the interface-spec issue, with the official SDK
 * against startServer(): import a CSV of contacts into a segment with topics,
 * create and enable an automation, send its event for an imported contact,
 * advance the clock, see the run completed with its steps, the email
 * recorded for that contact, and the contact listed in the segment until
 * removed by id and by email.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { startServer, type EmulatorServer } from '../../src/index.js';

describe('SDK journey: import → automation → event → email → segment removal', () => {
  let emu: EmulatorServer;
  let resend: Resend;
  beforeEach(async () => {
    emu = await startServer({ validateResponses: true, webhooks: 'record' });
    resend = new Resend(emu.apiKey, { baseUrl: emu.url });
  });
  afterEach(() => emu.close());

  it('runs the whole journey on the emulated clock', async () => {
    // A segment and a topic to import into.
    const segment = (await resend.segments.create({ name: 'Imported' })).data!;
    const topic = (await resend.topics.create({ name: 'Onboarding tips', defaultSubscription: 'opt_out' })).data!;

    // 1. Import a CSV: two good rows, one bad row.
    const csv = ['Email,First,Last', 'ada@example.net,Ada,Lovelace', 'grace@example.net,Grace,Hopper', 'not-an-email,Bad,Row'].join('\n');
    const imported = await resend.contacts.imports.create({
      file: new Blob([csv], { type: 'text/csv' }),
      columnMap: { email: 'Email', firstName: 'First', lastName: 'Last' },
      segments: [{ id: segment.id }],
      topics: [{ id: topic.id, subscription: 'opt_in' }],
    });
    expect(imported.error).toBeNull();
    expect(imported.data!.object).toBe('contact_import');
    expect((await resend.contacts.imports.get(imported.data!.id)).data!.status).toBe('queued');
    await emu.clock.advance('2s');
    const done = (await resend.contacts.imports.get(imported.data!.id)).data!;
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ total: 3, created: 2, failed: 1 });

    const ada = (await resend.contacts.get({ email: 'ada@example.net' })).data!;
    expect(ada).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', unsubscribed: false });
    const inSegment = (await resend.contacts.list({ segmentId: segment.id })).data!.data.map((c) => c.email).sort();
    expect(inSegment).toEqual(['ada@example.net', 'grace@example.net']);
    const topics = (await resend.contacts.topics.list({ id: ada.id })).data!.data;
    expect(topics.find((t) => t.id === topic.id)!.subscription).toBe('opt_in');

    // 2. A published template and an enabled automation on the event.
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
    const automationId = automation.data!.id;

    // 3. The event for an imported contact: the run is running at once.
    const sent = await resend.events.send({ event: 'user.onboarded', contactId: ada.id, payload: { first: 'Ada' } });
    expect(sent.data).toEqual({ object: 'event', event: 'user.onboarded' });
    let runs = (await resend.automations.runs.list({ automationId })).data!.data;
    expect(runs.map((r) => r.status)).toEqual(['running']);

    // 4. The delay holds it for an hour of emulated time, then the email goes out.
    await emu.clock.advance('59m');
    expect((await resend.automations.runs.get({ automationId, runId: runs[0].id })).data!.status).toBe('running');
    expect(emu.emails({ to: 'ada@example.net' })).toHaveLength(0);
    await emu.clock.advance('1m');
    const run = (await resend.automations.runs.get({ automationId, runId: runs[0].id })).data!;
    expect(run.status).toBe('completed');
    expect(run.completed_at).not.toBeNull();
    expect(run.steps.map((s) => `${s.key}:${s.status}`)).toEqual(['start:completed', 'wait:completed', 'tips:completed']);
    const output = run.steps.find((s) => s.key === 'tips')!.output as any;
    runs = (await resend.automations.runs.list({ automationId, status: 'completed' } as any)).data!.data;
    expect(runs).toHaveLength(1);

    // 5. The email is recorded for that contact, rendered from the template.
    const [email] = emu.emails({ to: 'ada@example.net' });
    expect(email.id).toBe(output.email_id);
    expect(email.subject).toBe('Tips for Ada');
    expect(email.html).toContain('Hello Ada');
    expect(email.links).toContain('https://example.com/start');
    await emu.clock.advance('3s');
    expect((await resend.emails.get(email.id)).data!.last_event).toBe('delivered');

    // 6. The contacts stay in the segment until removed, by id and by email.
    const removedById = await resend.contacts.segments.remove({ contactId: ada.id, segmentId: segment.id });
    expect(removedById.data).toEqual({ id: ada.id, audienceId: segment.id, deleted: true });
    const grace = (await resend.contacts.get({ email: 'grace@example.net' })).data!;
    const removedByEmail = await resend.contacts.segments.remove({ email: 'grace@example.net', segmentId: segment.id });
    expect(removedByEmail.data).toEqual({ id: grace.id, audienceId: segment.id, deleted: true });
    expect((await resend.contacts.list({ segmentId: segment.id })).data!.data).toEqual([]);
    // The contacts themselves remain.
    expect((await resend.contacts.get({ id: ada.id })).data!.email).toBe('ada@example.net');
  });
});
