import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const SEGMENT = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

/** A graph using every step type of docs/reference/resources.md#automations-and-runs. */
const EVERY_STEP = {
  steps: [
    { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
    { key: 'pause', type: 'delay', config: { duration: '30 minutes' } },
    { key: 'is_pro', type: 'condition', config: { type: 'and', rules: [{ type: 'rule', field: 'event.plan', operator: 'eq', value: 'pro' }, { type: 'or', rules: [{ type: 'rule', field: 'contact.email', operator: 'ends_with', value: '.com' }, { type: 'rule', field: 'event.seats', operator: 'gte', value: 5 }] }] } },
    { key: 'welcome', type: 'send_email', config: { template: { id: 'welcome', variables: { NAME: { var: 'contact.first_name' }, PLAN: 'pro' } }, subject: 'Hi', from: 'Acme <a@example.com>' } },
    { key: 'wait_login', type: 'wait_for_event', config: { event_name: 'user.logged_in', timeout: '2 days', filter_rule: { type: 'rule', field: 'event.device', operator: 'exists' } } },
    { key: 'tag', type: 'contact_update', config: { first_name: { var: 'event.first_name' }, unsubscribed: false, properties: { plan: 'pro' } } },
    { key: 'segment', type: 'add_to_segment', config: { segment_id: SEGMENT } },
    { key: 'bye', type: 'contact_delete', config: {} },
  ],
  connections: [
    { from: 'start', to: 'pause' },
    { from: 'pause', to: 'is_pro', type: 'default' },
    { from: 'is_pro', to: 'welcome', type: 'condition_met' },
    { from: 'is_pro', to: 'bye', type: 'condition_not_met' },
    { from: 'welcome', to: 'wait_login' },
    { from: 'wait_login', to: 'tag', type: 'event_received' },
    { from: 'wait_login', to: 'segment', type: 'timeout' },
  ],
};

const simple = (event = 'x.happened') => ({
  steps: [{ key: 'start', type: 'trigger', config: { event_name: event } }, { key: 'wait', type: 'delay', config: { duration: '1 hour' } }],
  connections: [{ from: 'start', to: 'wait' }],
});

describe('automations', () => {
  const t = useFreshEmulatorPerTest();

  it('creates with every step type and gets it back with connection types filled in', async () => {
    const res = await t.api.post('/automations').send({ name: 'Onboarding', status: 'enabled', ...EVERY_STEP });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'automation', id: expect.any(String) });
    const got = await t.api.get(`/automations/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      object: 'automation',
      id: res.body.id,
      name: 'Onboarding',
      status: 'enabled',
      created_at: expect.stringMatching(TS),
      updated_at: expect.stringMatching(TS),
      steps: EVERY_STEP.steps,
      connections: EVERY_STEP.connections.map((c) => ({ type: 'default', ...c })),
    });
  });

  it('defaults to disabled and accepts neither steps nor connections', async () => {
    const res = await t.api.post('/automations').send({ name: 'Empty' });
    expect(res.status).toBe(201);
    const got = (await t.api.get(`/automations/${res.body.id}`)).body;
    expect(got).toMatchObject({ status: 'disabled', steps: [], connections: [] });
  });

  it('needs steps and connections together (Errors #4) and a name', async () => {
    const onlySteps = await t.api.post('/automations').send({ name: 'x', steps: simple().steps });
    expect(onlySteps.status).toBe(422);
    expect(onlySteps.body).toEqual({ statusCode: 422, message: 'The `steps` and `connections` fields must be provided together.', name: 'validation_error' });
    const onlyConnections = await t.api.post('/automations').send({ name: 'x', connections: [] });
    expect(onlyConnections.status).toBe(422);
    expect(onlyConnections.body.name).toBe('validation_error');
    const noName = await t.api.post('/automations').send(simple());
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({ statusCode: 422, message: 'Missing `name` field.', name: 'missing_required_field' });
    expect((await t.api.post('/automations').send({ name: 'x', status: 'paused' })).status).toBe(400);
  });

  it('needs exactly one trigger', async () => {
    const none = await t.api.post('/automations').send({ name: 'x', steps: [{ key: 'd', type: 'delay', config: { duration: '1 hour' } }], connections: [] });
    expect(none.status).toBe(422);
    expect(none.body.name).toBe('validation_error');
    expect(none.body.message).toContain('exactly one `trigger`');
    const two = await t.api.post('/automations').send({
      name: 'x',
      steps: [{ key: 'a', type: 'trigger', config: { event_name: 'a' } }, { key: 'b', type: 'trigger', config: { event_name: 'b' } }],
      connections: [],
    });
    expect(two.status).toBe(422);
    expect(two.body.message).toContain('exactly one `trigger`');
    const empty = await t.api.post('/automations').send({ name: 'x', steps: [], connections: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.name).toBe('validation_error');
  });

  it('checks the graph: unique keys, known ends, nothing into the trigger, fitting connection types, no cycles', async () => {
    const post = (steps: any[], connections: any[]) => t.api.post('/automations').send({ name: 'x', steps, connections });
    const trig = { key: 'start', type: 'trigger', config: { event_name: 'e' } };
    const d = (key: string) => ({ key, type: 'delay', config: { duration: '1 minute' } });
    const cases = [
      { res: await post([trig, d('a'), d('a')], []), msg: 'key `a`' },
      { res: await post([trig, d('a')], [{ from: 'start', to: 'zzz' }]), msg: '`zzz`' },
      { res: await post([trig, d('a')], [{ from: 'a', to: 'start' }]), msg: 'trigger' },
      { res: await post([trig, d('a')], [{ from: 'start', to: 'a', type: 'condition_met' }]), msg: 'connections[0].type' },
      { res: await post([trig, d('a'), d('b')], [{ from: 'start', to: 'a' }, { from: 'a', to: 'b' }, { from: 'b', to: 'a' }]), msg: 'cycle' },
      { res: await post([trig, { key: 'c', type: 'condition', config: { type: 'rule', field: 'event.a', operator: 'exists' } }, d('a')], [{ from: 'start', to: 'c' }, { from: 'c', to: 'a' }]), msg: 'condition_met' },
    ];
    for (const { res, msg } of cases) {
      expect(res.status).toBe(422);
      expect(res.body.name).toBe('validation_error');
      expect(res.body.message).toContain(msg);
    }
  });

  // Each step type's config, one test per type (a failure hides no other): a second step after the trigger.
  const postStep = (step: any) => t.api.post('/automations').send({ name: 'x', steps: [{ key: 'start', type: 'trigger', config: { event_name: 'e' } }, step], connections: [{ from: 'start', to: step.key }] });

  it('validates a trigger step: event_name is required', async () => {
    const noEvent = await t.api.post('/automations').send({ name: 'x', steps: [{ key: 's', type: 'trigger', config: {} }], connections: [] });
    expect(noEvent.status).toBe(422);
    expect(noEvent.body).toEqual({ statusCode: 422, message: 'Missing `steps[0].config.event_name` field.', name: 'missing_required_field' });
  });

  it("validates a delay step: a readable duration of at most 30 days", async () => {
    const unreadable = await postStep({ key: 'd', type: 'delay', config: { duration: 'a little while' } });
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.name).toBe('validation_error');
    expect(unreadable.body.message).toContain('steps[1].config.duration');
    const tooLong = await postStep({ key: 'd', type: 'delay', config: { duration: '31 days' } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.message).toContain('30 days');
    expect((await postStep({ key: 'd', type: 'delay', config: { duration: '30 days' } })).status).toBe(201);
  });

  it('validates a wait_for_event step: event_name required, timeout within its bound', async () => {
    expect((await postStep({ key: 'w', type: 'wait_for_event', config: { event_name: 'x', timeout: '45 days' } })).status).toBe(422);
    expect((await postStep({ key: 'w', type: 'wait_for_event', config: {} })).body.name).toBe('missing_required_field');
  });

  it("validates a send_email step: the template's id is required", async () => {
    const noTemplate = await postStep({ key: 'm', type: 'send_email', config: { template: {} } });
    expect(noTemplate.status).toBe(422);
    expect(noTemplate.body.message).toBe('Missing `steps[1].config.template.id` field.');
  });

  it.each([
    ['an unknown operator (400 validation_error)', { type: 'rule', field: 'event.a', operator: 'like', value: 'x' }, 400],
    ['gt with a value that is not a number', { type: 'rule', field: 'event.a', operator: 'gt', value: 'ten' }, 400],
    ['eq without a value', { type: 'rule', field: 'event.a', operator: 'eq' }, 422],
    ['a field named user.a', { type: 'rule', field: 'user.a', operator: 'exists' }, 400],
    ['an empty and', { type: 'and', rules: [] }, 400],
  ])('validates a condition step: %s is refused', async (rule, config, status) => {
    const res = await postStep({ key: 'c', type: 'condition', config });
    expect(res.status).toBe(status);
    if (rule.startsWith('an unknown operator')) expect(res.body.name).toBe('validation_error');
  });

  it('validates an add_to_segment step: segment_id is a required UUID', async () => {
    const badSegment = await postStep({ key: 'g', type: 'add_to_segment', config: { segment_id: 'not-a-uuid' } });
    expect(badSegment.status).toBe(422);
    expect(badSegment.body.name).toBe('invalid_parameter');
    expect((await postStep({ key: 'g', type: 'add_to_segment', config: {} })).body.name).toBe('missing_required_field');
  });

  it('validates a contact_update step and refuses an unknown step type', async () => {
    expect((await postStep({ key: 'u', type: 'contact_update', config: { unsubscribed: 'yes' } })).status).toBe(400);
    expect((await postStep({ key: 'z', type: 'teleport', config: {} })).status).toBe(400);
  });

  it('lists newest first, filtered by status', async () => {
    const a = (await t.api.post('/automations').send({ name: 'A', status: 'enabled', ...simple() })).body.id;
    const b = (await t.api.post('/automations').send({ name: 'B', ...simple() })).body.id;
    const all = await t.api.get('/automations');
    expect(all.status).toBe(200);
    expect(all.body.data.slice(0, 2).map((x: any) => x.id)).toEqual([b, a]);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['created_at', 'id', 'name', 'status', 'updated_at']);
    const enabled = (await t.api.get('/automations?status=enabled')).body.data.map((x: any) => x.id);
    expect(enabled).toContain(a);
    expect(enabled).not.toContain(b);
    expect((await t.api.get('/automations?status=disabled')).body.data.map((x: any) => x.id)).toEqual([b]);
    const bad = await t.api.get('/automations?status=paused');
    expect(bad.status).toBe(422);
    expect(bad.body.name).toBe('validation_error');
  });

  it('updates name, status or the graph (steps and connections together)', async () => {
    const id = (await t.api.post('/automations').send({ name: 'A', ...simple() })).body.id;
    await t.emu.clock.advance('1m');
    const upd = await t.api.patch(`/automations/${id}`).send({ name: 'B', status: 'enabled' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'automation', id });
    const got = (await t.api.get(`/automations/${id}`)).body;
    expect(got).toMatchObject({ name: 'B', status: 'enabled' });
    expect(got.updated_at).not.toBe(got.created_at);
    const half = await t.api.patch(`/automations/${id}`).send({ steps: simple('y').steps });
    expect(half.status).toBe(422);
    expect(half.body.message).toBe('The `steps` and `connections` fields must be provided together.');
    const empty = await t.api.patch(`/automations/${id}`).send({});
    expect(empty.status).toBe(422);
    expect(empty.body.name).toBe('validation_error');
    expect((await t.api.patch(`/automations/${id}`).send(simple('y.happened'))).status).toBe(200);
    expect((await t.api.get(`/automations/${id}`)).body.steps[0].config.event_name).toBe('y.happened');
  });

  it('duplicates into a disabled copy (201)', async () => {
    const id = (await t.api.post('/automations').send({ name: 'A', status: 'enabled', ...EVERY_STEP })).body.id;
    const dup = await t.api.post(`/automations/${id}/duplicate`);
    expect(dup.status).toBe(201);
    expect(dup.body).toEqual({ object: 'automation', id: expect.any(String) });
    const copy = (await t.api.get(`/automations/${dup.body.id}`)).body;
    expect(copy).toMatchObject({ name: 'A (copy)', status: 'disabled' });
    expect(copy.steps).toEqual(EVERY_STEP.steps);
  });

  it('removes; unknown is 404 "Automation not found"', async () => {
    const id = (await t.api.post('/automations').send({ name: 'A' })).body.id;
    const del = await t.api.delete(`/automations/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'automation', id, deleted: true });
    for (const res of [await t.api.get(`/automations/${id}`), await t.api.delete(`/automations/${id}`), await t.api.post(`/automations/${id}/stop`), await t.api.get(`/automations/${id}/runs`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Automation not found', name: 'not_found' });
    }
    const notUuid = await t.api.get('/automations/abc');
    expect(notUuid.status).toBe(422);
    expect(notUuid.body.name).toBe('invalid_parameter');
  });

  it('stops: disabled, running runs cancelled, no new runs', async () => {
    const id = (await t.api.post('/automations').send({ name: 'A', status: 'enabled', ...simple('stop.me') })).body.id;
    await t.api.post('/events/send').send({ event: 'stop.me', email: 'ada@example.net' });
    const stop = await t.api.post(`/automations/${id}/stop`);
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ object: 'automation', id, status: 'disabled' });
    expect((await t.api.get(`/automations/${id}`)).body.status).toBe('disabled');
    const runs = (await t.api.get(`/automations/${id}/runs`)).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('cancelled');
    expect(runs[0].completed_at).toMatch(TS);
    await t.emu.clock.advance('2h');
    const run = (await t.api.get(`/automations/${id}/runs/${runs[0].id}`)).body;
    expect(run.status).toBe('cancelled');
    expect(run.steps.map((s: any) => s.status)).toEqual(['skipped']);
    await t.api.post('/events/send').send({ event: 'stop.me', email: 'ada@example.net' });
    expect((await t.api.get(`/automations/${id}/runs`)).body.data).toHaveLength(1);
  });

  it("never shows another team's automations", async () => {
    const id = (await t.api.post('/automations').send({ name: 'A' })).body.id;
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/automations/${id}`)).status).toBe(404);
    expect((await other.get('/automations')).body.data).toEqual([]);
  });

  it('seeds the fixture automation, enabled, triggered by user.signed_up', async () => {
    const got = (await t.api.get('/automations/2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d')).body;
    expect(got).toMatchObject({ name: 'Welcome series', status: 'enabled' });
    expect(got.steps.map((s: any) => s.type)).toEqual(['trigger', 'send_email']);
    expect(got.steps[0].config.event_name).toBe('user.signed_up');
  });
});

describe('automation runs listing', () => {
  const t = useFreshEmulatorPerTest();

  async function withRuns(n: number) {
    const id = (await t.api.post('/automations').send({ name: 'A', status: 'enabled', ...simple('tick') })).body.id;
    for (let i = 0; i < n; i++) await t.api.post('/events/send').send({ event: 'tick', email: `u${i}@example.net` });
    return id as string;
  }

  it('returns every run when limit is omitted, newest first, and pages with limit', async () => {
    const id = await withRuns(25);
    const all = await t.api.get(`/automations/${id}/runs`);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(25);
    expect(all.body.has_more).toBe(false);
    const page = await t.api.get(`/automations/${id}/runs?limit=10`);
    expect(page.body.data).toHaveLength(10);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data[0].id).toBe(all.body.data[0].id);
    const next = await t.api.get(`/automations/${id}/runs?limit=10&after=${page.body.data[9].id}`);
    expect(next.body.data[0].id).toBe(all.body.data[10].id);
  });

  it('filters by a comma-separated status list and rejects unknown statuses', async () => {
    const id = await withRuns(2);
    expect((await t.api.get(`/automations/${id}/runs?status=running`)).body.data).toHaveLength(2);
    expect((await t.api.get(`/automations/${id}/runs?status=completed,failed`)).body.data).toHaveLength(0);
    await t.api.post(`/automations/${id}/stop`);
    expect((await t.api.get(`/automations/${id}/runs?status=completed,cancelled`)).body.data).toHaveLength(2);
    for (const q of ['skipped', 'running,paused', 'running,', 'Running']) {
      const bad = await t.api.get(`/automations/${id}/runs?status=${q}`);
      expect(bad.status).toBe(422);
      expect(bad.body.name).toBe('validation_error');
      expect(bad.body.message).toContain('running, completed, failed, cancelled');
    }
  });

  it('gets a run; unknown is 404 "Automation run not found"', async () => {
    const id = await withRuns(1);
    const other = (await t.api.post('/automations').send({ name: 'B' })).body.id;
    const runId = (await t.api.get(`/automations/${id}/runs`)).body.data[0].id;
    expect((await t.api.get(`/automations/${id}/runs/${runId}`)).status).toBe(200);
    const wrong = await t.api.get(`/automations/${other}/runs/${runId}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ statusCode: 404, message: 'Automation run not found', name: 'not_found' });
  });
});
