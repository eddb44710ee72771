/**
 * The run lifecycle on the emulated clock, through the contacts contract
 * (`findContact`, `createContact`, ...) and `sendEmail`.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { createContact, findContact } from '../../../src/resources/contacts/service.js';
import { contextOf } from '../../../src/internals.js';


const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ms = (ts: string) => Date.parse(ts.replace(' ', 'T').replace('+00', 'Z'));

describe('automation runs', () => {
  const t = useFreshEmulatorPerTest();

  async function template(body: Record<string, unknown> = {}, publish = true): Promise<string> {
    const res = await t.api.post('/templates').send({
      name: 'T',
      from: 'Acme <hi@example.com>',
      subject: 'Hello {{{NAME}}}',
      html: '<p>{{{NAME}}} is on {{{PLAN}}}</p>',
      variables: [{ key: 'NAME', type: 'string', fallback_value: 'there' }, { key: 'PLAN', type: 'string', fallback_value: 'free' }],
      ...body,
    });
    expect(res.status).toBe(201);
    if (publish) expect((await t.api.post(`/templates/${res.body.id}/publish`)).status).toBe(200);
    return res.body.id;
  }

  async function automation(event: string, steps: any[], connections: any[]): Promise<string> {
    const res = await t.api.post('/automations').send({ name: 'A', status: 'enabled', steps: [{ key: 'start', type: 'trigger', config: { event_name: event } }, ...steps], connections });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function send(event: string, who: { email?: string; contact_id?: string }, payload?: Record<string, unknown>) {
    const res = await t.api.post('/events/send').send({ event, ...who, payload });
    expect(res.status).toBe(202);
  }

  async function runs(automationId: string): Promise<any[]> {
    const list = (await t.api.get(`/automations/${automationId}/runs`)).body.data;
    return Promise.all(list.reverse().map(async (r: any) => (await t.api.get(`/automations/${automationId}/runs/${r.id}`)).body));
  }

  it('runs trigger → send_email on the next advance and completes with outputs', async () => {
    const tpl = await template();
    const id = await automation('signup.done', [{ key: 'mail', type: 'send_email', config: { template: { id: tpl, variables: { PLAN: { var: 'event.plan' } } } } }], [{ from: 'start', to: 'mail' }]);
    await send('signup.done', { email: 'ada@example.net' }, { plan: 'pro' });
    let [run] = await runs(id);
    expect(run.status).toBe('running');
    expect(run.completed_at).toBeNull();
    await t.emu.clock.advance(0);
    [run] = await runs(id);
    expect(run).toMatchObject({ object: 'automation_run', status: 'completed', started_at: expect.stringMatching(TS), completed_at: expect.stringMatching(TS) });
    expect(run.steps).toEqual([
      { key: 'start', type: 'trigger', status: 'completed', started_at: expect.stringMatching(TS), completed_at: expect.stringMatching(TS), output: null, error: null, created_at: expect.stringMatching(TS) },
      {
        key: 'mail',
        type: 'send_email',
        status: 'completed',
        started_at: expect.stringMatching(TS),
        completed_at: expect.stringMatching(TS),
        output: { to: 'ada@example.net', email_id: expect.stringMatching(UUID), template: { id: tpl, variables: { PLAN: 'pro' } } },
        error: null,
        created_at: expect.stringMatching(TS),
      },
    ]);
    // The unknown email became a contact when the run started.
    expect(findContact(contextOf(t.emu), FIXTURES.defaultTeamId, 'ada@example.net')?.email).toBe('ada@example.net');
    const email = await t.api.get(`/emails/${run.steps[1].output.email_id}`);
    expect(email.status).toBe(200);
    expect(email.body.subject).toBe('Hello there');
    expect(email.body.to).toEqual(['ada@example.net']);
  });

  it('waits exactly the duration of a delay step', async () => {
    const tpl = await template();
    const id = await automation('d.start', [
      { key: 'pause', type: 'delay', config: { duration: '2 hours' } },
      { key: 'mail', type: 'send_email', config: { template: { id: tpl } } },
    ], [{ from: 'start', to: 'pause' }, { from: 'pause', to: 'mail' }]);
    await send('d.start', { email: 'bo@example.net' });
    await t.emu.clock.advance(0);
    let [run] = await runs(id);
    expect(run.status).toBe('running');
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['pause', 'waiting']]);
    await t.emu.clock.advance(2 * 3_600_000 - 1);
    [run] = await runs(id);
    expect(run.steps[1].status).toBe('waiting');
    expect(run.steps[1].completed_at).toBeNull();
    await t.emu.clock.advance(1);
    [run] = await runs(id);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['pause', 'completed'], ['mail', 'completed']]);
    expect(ms(run.steps[1].completed_at) - ms(run.steps[1].started_at)).toBe(2 * 3_600_000);
  });

  it('follows condition_met or condition_not_met from event and contact fields', async () => {
    const pro = await template({ subject: 'pro' });
    const free = await template({ subject: 'free' });
    const id = await automation('plan.chosen', [
      { key: 'is_pro', type: 'condition', config: { type: 'or', rules: [{ type: 'rule', field: 'event.plan', operator: 'eq', value: 'pro' }, { type: 'rule', field: 'contact.email', operator: 'ends_with', value: '@vip.example' }] } },
      { key: 'mail_pro', type: 'send_email', config: { template: { id: pro } } },
      { key: 'mail_free', type: 'send_email', config: { template: { id: free } } },
    ], [{ from: 'start', to: 'is_pro' }, { from: 'is_pro', to: 'mail_pro', type: 'condition_met' }, { from: 'is_pro', to: 'mail_free', type: 'condition_not_met' }]);
    await send('plan.chosen', { email: 'a@example.net' }, { plan: 'pro' });
    await send('plan.chosen', { email: 'b@example.net' }, { plan: 'free' });
    await send('plan.chosen', { email: 'c@vip.example' }, { plan: 'free' });
    await t.emu.clock.advance(0);
    const [a, b, c] = await runs(id);
    expect(a.steps.map((s: any) => s.key)).toEqual(['start', 'is_pro', 'mail_pro']);
    expect(a.steps[1].output).toEqual({ result: true });
    expect(b.steps.map((s: any) => s.key)).toEqual(['start', 'is_pro', 'mail_free']);
    expect(b.steps[1].output).toEqual({ result: false });
    expect(c.steps.map((s: any) => s.key)).toEqual(['start', 'is_pro', 'mail_pro']);
    for (const r of [a, b, c]) expect(r.status).toBe('completed');
  });

  it('fails the run when the template does not exist or was never published', async () => {
    const draft = await template({}, false);
    const id = await automation('f.start', [{ key: 'mail', type: 'send_email', config: { template: { id: 'no-such-template' } } }, { key: 'after', type: 'delay', config: { duration: '1 minute' } }], [{ from: 'start', to: 'mail' }, { from: 'mail', to: 'after' }]);
    const id2 = await automation('f.start', [{ key: 'mail', type: 'send_email', config: { template: { id: draft } } }], [{ from: 'start', to: 'mail' }]);
    await send('f.start', { email: 'x@example.net' });
    await t.emu.clock.advance(0);
    const [run] = await runs(id);
    expect(run.status).toBe('failed');
    expect(run.completed_at).toMatch(TS);
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['mail', 'failed']]);
    expect(run.steps[1].error).toEqual({ statusCode: 404, message: 'Template not found', name: 'not_found' });
    expect(run.steps[1].output).toBeNull();
    const [run2] = await runs(id2);
    expect(run2.status).toBe('failed');
    expect(run2.steps[1].error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect((await t.api.get(`/automations/${id}/runs?status=failed`)).body.data).toHaveLength(1);
  });

  it('skips send_email for an unsubscribed contact and runs the other steps', async () => {
    const tpl = await template();
    const contact = createContact(contextOf(t.emu), FIXTURES.defaultTeamId, { email: 'gone@example.net', unsubscribed: true }).contact;
    const id = await automation('u.start', [
      { key: 'mail', type: 'send_email', config: { template: { id: tpl } } },
      { key: 'rename', type: 'contact_update', config: { first_name: { var: 'event.name' } } },
    ], [{ from: 'start', to: 'mail' }, { from: 'mail', to: 'rename' }]);
    await send('u.start', { contact_id: contact.id }, { name: 'Grace' });
    await t.emu.clock.advance(0);
    const [run] = await runs(id);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['mail', 'skipped'], ['rename', 'completed']]);
    expect(findContact(contextOf(t.emu), FIXTURES.defaultTeamId, contact.id)?.first_name).toBe('Grace');
  });

  it('resumes wait_for_event on the same contact\'s matching event, or follows timeout', async () => {
    const tpl = await template();
    const steps = [
      { key: 'wait', type: 'wait_for_event', config: { event_name: 'w.clicked', timeout: '1 day', filter_rule: { type: 'rule', field: 'event.link', operator: 'exists' } } },
      { key: 'mail', type: 'send_email', config: { template: { id: tpl, variables: { NAME: { var: 'event.link' } } } } },
      { key: 'nudge', type: 'delay', config: { duration: '1 minute' } },
    ];
    const id = await automation('w.start', steps, [{ from: 'start', to: 'wait' }, { from: 'wait', to: 'mail', type: 'event_received' }, { from: 'wait', to: 'nudge', type: 'timeout' }]);
    await send('w.start', { email: 'eve@example.net' });
    await send('w.start', { email: 'mallory@example.net' });
    await t.emu.clock.advance(0);
    let [eve, mallory] = await runs(id);
    expect(eve.steps.map((s: any) => s.status)).toEqual(['completed', 'waiting']);

    await send('w.clicked', { email: 'eve@example.net' }, { other: 1 }); // filter fails
    await send('w.clicked', { email: 'someone@example.net' }, { link: 'x' }); // other contact
    await t.emu.clock.advance(0);
    [eve] = await runs(id);
    expect(eve.steps[1].status).toBe('waiting');

    await send('w.clicked', { email: 'EVE@example.net' }, { link: 'https://x.test' });
    await t.emu.clock.advance(0);
    [eve, mallory] = await runs(id);
    expect(eve.status).toBe('completed');
    expect(eve.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['wait', 'completed'], ['mail', 'completed']]);
    expect(eve.steps[1].output).toEqual({ event: 'w.clicked', payload: { link: 'https://x.test' } });
    expect(eve.steps[2].output.template.variables).toEqual({ NAME: 'https://x.test' });
    expect(mallory.status).toBe('running');

    await t.emu.clock.advance('1 day');
    [, mallory] = await runs(id);
    expect(mallory.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['wait', 'completed'], ['nudge', 'waiting']]);
    expect(mallory.steps[1].output).toEqual({ timed_out: true });
    await t.emu.clock.advance('1m');
    [, mallory] = await runs(id);
    expect(mallory.status).toBe('completed');
  });

  // Also needs the segments module (POST /segments, GET /segments/{id}/contacts).
  it('updates, segments and deletes the contact', async () => {
    const seg = await t.api.post('/segments').send({ name: 'Movers' });
    expect(seg.status).toBe(201);
    const id = await automation('c.start', [
      { key: 'upd', type: 'contact_update', config: { last_name: { var: 'event.last' }, properties: {} } },
      { key: 'seg', type: 'add_to_segment', config: { segment_id: seg.body.id } },
      { key: 'pause', type: 'delay', config: { duration: '1 minute' } },
      { key: 'del', type: 'contact_delete', config: {} },
    ], [{ from: 'start', to: 'upd' }, { from: 'upd', to: 'seg' }, { from: 'seg', to: 'pause' }, { from: 'pause', to: 'del' }]);
    await send('c.start', { email: 'mo@example.net' }, { last: 'Ver' });
    await t.emu.clock.advance(0);
    const contact = findContact(contextOf(t.emu), FIXTURES.defaultTeamId, 'mo@example.net');
    expect(contact?.last_name).toBe('Ver');
    const members = await t.api.get(`/segments/${seg.body.id}/contacts`);
    expect(members.body.data.map((c: any) => c.email)).toContain('mo@example.net');
    await t.emu.clock.advance('1m');
    const [run] = await runs(id);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => s.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
    expect(findContact(contextOf(t.emu), FIXTURES.defaultTeamId, 'mo@example.net')).toBeUndefined();
  });

  it('cancels a waiting run when the automation is stopped; nothing is sent afterwards', async () => {
    const tpl = await template();
    const id = await automation('s.start', [
      { key: 'pause', type: 'delay', config: { duration: '10 minutes' } },
      { key: 'mail', type: 'send_email', config: { template: { id: tpl } } },
    ], [{ from: 'start', to: 'pause' }, { from: 'pause', to: 'mail' }]);
    await send('s.start', { email: 'sam@example.net' });
    await t.emu.clock.advance(0);
    await t.api.post(`/automations/${id}/stop`);
    await t.emu.clock.advance('1h');
    const [run] = await runs(id);
    expect(run.status).toBe('cancelled');
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['pause', 'skipped']]);
  });

  it('runs the fixture automation for user.signed_up with the event payload as variables', async () => {
    await send('user.signed_up', { email: 'new@example.net' }, { plan: 'pro' });
    await t.emu.clock.advance(0);
    const [run] = await runs('2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d');
    expect(run.status).toBe('completed');
    expect(run.steps[1].output).toMatchObject({ to: 'new@example.net', template: { id: '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b', variables: { PLAN: 'pro' } } });
  });

  it('resolves contact_id at send time: an unknown contact is 404 "Contact not found"', async () => {
    const res = await t.api.post('/events/send').send({ event: 'x', contact_id: '3f0e7c1a-1111-4222-8333-444455556666' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Contact not found', name: 'not_found' });
  });
});
