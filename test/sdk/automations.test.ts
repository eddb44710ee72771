import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';


describe('SDK: resend.automations and resend.events', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('creates, gets, lists, updates, duplicates, stops and removes automations', async () => {
    const resend = sdk();
    const created = await resend.automations.create({
      name: 'Trial',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'trial.started' } },
        { key: 'wait', type: 'wait_for_event', config: { eventName: 'trial.converted', timeout: '3 days', filterRule: { type: 'rule', field: 'event.plan', operator: 'exists' } } },
        { key: 'mail', type: 'send_email', config: { template: { id: 'welcome', variables: { PLAN: { var: 'event.plan' } } }, replyTo: 'help@example.com' } },
        { key: 'tag', type: 'contact_update', config: { firstName: 'Trialist' } },
      ],
      connections: [
        { from: 'start', to: 'wait' },
        { from: 'wait', to: 'mail', type: 'event_received' },
        { from: 'wait', to: 'tag', type: 'timeout' },
      ],
    });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'automation', id: expect.any(String) });
    const id = created.data!.id;

    const got = await resend.automations.get(id);
    expect(got.data).toMatchObject({ object: 'automation', id, name: 'Trial', status: 'enabled' });
    expect(got.data!.steps[1]).toEqual({ key: 'wait', type: 'wait_for_event', config: { event_name: 'trial.converted', timeout: '3 days', filter_rule: { type: 'rule', field: 'event.plan', operator: 'exists' } } });
    expect(got.data!.steps[2].config).toEqual({ template: { id: 'welcome', variables: { PLAN: { var: 'event.plan' } } }, reply_to: 'help@example.com' });
    expect(got.data!.connections[0]).toEqual({ from: 'start', to: 'wait', type: 'default' });

    const enabled = await resend.automations.list({ status: 'enabled' });
    expect(enabled.data!.data.map((a) => a.id)).toContain(id);
    expect((await resend.automations.list({ status: 'disabled' })).data!.data.map((a) => a.id)).not.toContain(id);

    expect((await resend.automations.update(id, { name: 'Trial v2' })).data).toEqual({ object: 'automation', id });
    expect((await resend.automations.get(id)).data!.name).toBe('Trial v2');

    const dup = await resend.automations.duplicate(id);
    expect(dup.data).toEqual({ object: 'automation', id: expect.any(String) });

    const sent = await resend.events.send({ event: 'trial.started', email: 'sdk@example.net' });
    expect(sent.data).toEqual({ object: 'event', event: 'trial.started' });
    const runs = await resend.automations.runs.list({ automationId: id, status: ['running'] });
    expect(runs.data!.data).toHaveLength(1);
    expect(runs.data!.data[0].status).toBe('running');

    const stopped = await resend.automations.stop(id);
    expect(stopped.data).toEqual({ object: 'automation', id, status: 'disabled' });
    const run = await resend.automations.runs.get({ automationId: id, runId: runs.data!.data[0].id });
    expect(run.data).toMatchObject({ object: 'automation_run', status: 'cancelled' });
    expect((await resend.automations.runs.list({ automationId: id, status: ['completed', 'failed'] })).data!.data).toEqual([]);

    const removed = await resend.automations.remove(id);
    expect(removed.data).toEqual({ object: 'automation', id, deleted: true });
    const gone = await resend.automations.get(id);
    expect(gone.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Automation not found' });
  });

  it('maps the camelCase config of every step kind, on create and on update', async () => {
    const resend = sdk();
    const SEG = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
    const TOPIC = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const created = await resend.automations.create({
      name: 'All steps',
      status: 'disabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'user.signed_up' } },
        { key: 'pause', type: 'delay', config: { duration: '1 hour' } },
        { key: 'check', type: 'condition', config: { type: 'rule', field: 'event.plan', operator: 'eq', value: 'team' } },
        { key: 'seg', type: 'add_to_segment', config: { segmentId: SEG } },
        { key: 'mail', type: 'send_email', config: { template: { id: 'welcome' }, subject: 'Hi', from: 'Acme <hello@example.com>', replyTo: 'r@example.com', topicId: TOPIC } },
        { key: 'upd', type: 'contact_update', config: { lastName: 'L', unsubscribed: false, properties: { company: 'X' } } },
        { key: 'del', type: 'contact_delete', config: {} },
      ],
      connections: [
        { from: 'start', to: 'pause' },
        { from: 'pause', to: 'check' },
        { from: 'check', to: 'seg', type: 'condition_met' },
        { from: 'check', to: 'del', type: 'condition_not_met' },
        { from: 'seg', to: 'mail' },
        { from: 'mail', to: 'upd' },
      ],
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    const got = await resend.automations.get(id);
    expect(got.data).toMatchObject({ name: 'All steps', status: 'disabled' });
    expect(got.data!.steps.map((s) => s.config)).toEqual([
      { event_name: 'user.signed_up' },
      { duration: '1 hour' },
      { type: 'rule', field: 'event.plan', operator: 'eq', value: 'team' },
      { segment_id: SEG },
      { template: { id: 'welcome' }, subject: 'Hi', from: 'Acme <hello@example.com>', reply_to: 'r@example.com', topic_id: TOPIC },
      { last_name: 'L', unsubscribed: false, properties: { company: 'X' } },
      {},
    ]);
    expect(got.data!.connections.map((c) => c.type)).toEqual(['default', 'default', 'condition_met', 'condition_not_met', 'default', 'default']);

    const upd = await resend.automations.update(id, {
      status: 'enabled',
      steps: [{ key: 'start', type: 'trigger', config: { eventName: 'plan.changed' } }, { key: 'seg', type: 'add_to_segment', config: { segmentId: SEG } }],
      connections: [{ from: 'start', to: 'seg' }],
    });
    expect(upd.data).toEqual({ object: 'automation', id });
    const after = await resend.automations.get(id);
    expect(after.data).toMatchObject({ status: 'enabled', steps: [{ key: 'start', config: { event_name: 'plan.changed' } }, { key: 'seg', config: { segment_id: SEG } }] });

    const sent = await resend.events.send({ event: 'plan.changed', contactId: '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d', payload: { plan: 'pro' } });
    expect(sent.data).toEqual({ object: 'event', event: 'plan.changed' });
    await emu.server.clock.advance('1s');
    const runs = await resend.automations.runs.list({ automationId: id, limit: 5 });
    expect(runs.data!.data.map((r) => r.status)).toEqual(['completed']);
  });

  it('manages event definitions by id or name', async () => {
    const resend = sdk();
    const created = await resend.events.create({ name: 'invoice paid', schema: { amount: 'number', due: 'date' } });
    expect(created.data).toEqual({ object: 'event', id: expect.any(String) });
    const byName = await resend.events.get('invoice paid');
    expect(byName.data).toMatchObject({ object: 'event', id: created.data!.id, name: 'invoice paid', schema: { amount: 'number', due: 'date' } });
    const list = await resend.events.list();
    expect(list.data!.data.map((e) => e.name)).toEqual(['invoice paid', 'user.signed_up']);
    expect((await resend.events.update('invoice paid', { schema: null })).data).toEqual({ object: 'event', id: created.data!.id });
    expect((await resend.events.get(created.data!.id)).data!.schema).toBeNull();
    expect((await resend.events.remove('invoice paid')).data).toEqual({ object: 'event', id: created.data!.id, deleted: true });
    expect((await resend.events.get('invoice paid')).error).toMatchObject({ statusCode: 404, message: 'Event not found' });
  });

  it('rejects events.send without a contact', async () => {
    const res = await sdk().events.send({ event: 'x' } as any);
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });

  it('runs the fixture automation end to end and reads the run with its steps', async () => {
    const resend = sdk();
    await resend.events.send({ event: 'user.signed_up', email: 'e2e@example.net', payload: { plan: 'team' } });
    await emu.server.clock.advance(0);
    const automationId = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
    const runs = await resend.automations.runs.list({ automationId, status: 'completed' });
    expect(runs.data!.data).toHaveLength(1);
    const run = await resend.automations.runs.get({ automationId, runId: runs.data!.data[0].id });
    expect(run.data!.steps.map((s) => [s.key, s.type, s.status])).toEqual([['start', 'trigger', 'completed'], ['welcome', 'send_email', 'completed']]);
    expect(run.data!.steps[1].output).toMatchObject({ to: 'e2e@example.net', email_id: expect.any(String), template: { variables: { PLAN: 'team' } } });
  });
});
