/**
 * Fault injection over HTTP (issue 11 part 2): the admin API
 * `/_emulator/faults` and what its API rules do to public requests
 * (answer, headers, request log, no state change, times, probability,
 * latency, teams, the admin API left alone, reset).
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';
import { diffState, storeState } from '../http/store-state.js';
import { mulberry32 } from '../../src/faults/prng.js';
import { startServer } from '../../src/index.js';
import { contextOf } from '../../src/internals.js';

const SEND = { from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'Fault probe', text: 'hello' };

describe('admin: fault rules', () => {
  const t = useFreshEmulatorPerTest();
  const addFault = async (rule: Record<string, unknown>) => {
    const res = await t.anon.post('/_emulator/faults').send(rule);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('creates a rule (201 with id and defaults), lists it with fired, deletes one and all', async () => {
    const rule = await addFault({ operation: 'emails/send', status: 503 });
    expect(rule).toEqual({
      object: 'fault', id: expect.stringMatching(/^[0-9a-f-]{36}$/), kind: 'api', operation: 'emails/send', operation_id: 'emails/send',
      team_id: null, status: 503, name: 'service_unavailable', message: expect.stringMatching(/unavailable/), latency_ms: 0,
      probability: 1, seed: 0, times: null, smtp: null, outcome: null, to: null, reason: null, fired: 0,
    });
    const second = await addFault({ operation: 'GET /emails/{id}', latency_ms: 5 });
    expect(second).toMatchObject({ operation: 'GET /emails/{id}', operation_id: 'emails/get', status: null, name: null, message: null, latency_ms: 5 });

    await t.api.post('/emails').send(SEND).expect(503);
    const listed = await t.anon.get('/_emulator/faults').expect(200);
    expect(listed.body.object).toBe('list');
    expect(listed.body.data.map((r: any) => [r.id, r.fired])).toEqual([[rule.id, 1], [second.id, 0]]);

    expect((await t.anon.delete(`/_emulator/faults/${rule.id}`).expect(200)).body).toEqual({ object: 'fault', id: rule.id, deleted: true });
    const gone = await t.anon.delete(`/_emulator/faults/${rule.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ statusCode: 404, message: 'Fault rule not found', name: 'not_found' });
    await addFault({});
    expect((await t.anon.delete('/_emulator/faults').expect(200)).body).toEqual({ deleted: 2 });
    expect((await t.anon.get('/_emulator/faults')).body.data).toEqual([]);
    await t.api.post('/emails').send(SEND).expect(200);
  });

  it('refuses an unknown operation (422 naming it), an admin operation, an unknown team, and fields of another kind', async () => {
    const refuse = async (rule: Record<string, unknown>, status: number, message: RegExp) => {
      const res = await t.anon.post('/_emulator/faults').send(rule);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(Object.keys(res.body)).toEqual(['statusCode', 'message', 'name']);
      expect(res.body.message).toMatch(message);
    };
    await refuse({ operation: 'emails/sned' }, 422, /Unknown `operation` `emails\/sned`/);
    await refuse({ operation: 'POST /nowhere' }, 422, /Unknown `operation` `POST \/nowhere`/);
    await refuse({ operation: 'admin/reset' }, 422, /admin API/);
    await refuse({ operation: 'POST /_emulator/reset' }, 422, /admin API/);
    await refuse({ team_id: '00000000-0000-4000-8000-000000000000' }, 422, /names no team/);
    await refuse({ team_id: 'nope' }, 422, /UUID/);
    await refuse({ status: 418 }, 422, /no error name for status 418; give `name`/);
    await refuse({ outcome: 'bounced', status: 500 }, 422, /`status` field does not apply to an email outcome rule/);
    await refuse({ smtp: 'mail', operation: 'emails/send' }, 422, /`operation` field does not apply to an SMTP rule/);
    await refuse({ smtp: 'mail', status: 503 }, 422, /SMTP rule must be one of 421, 450/);
    await refuse({ smtp: 'connect', team_id: FIXTURES.defaultTeamId }, 422, /team is known from `mail` on/);
    await refuse({ outcome: 'bounced', reason: 'x' }, 422, /`outcome: "failed"` only/);
    await refuse({ to: 'a@b.c' }, 422, /`to` field does not apply to an API rule/);
    await refuse({ probability: 1.5 }, 400, /`probability` field must be at most 1/);
    await refuse({ times: 0 }, 400, /`times` field must be at least 1/);
    await refuse({ nope: 1 }, 400, /`nope` field is not allowed/);
    await refuse({ name: 'made_up' }, 400, /Invalid `name` field/);
    expect((await t.anon.get('/_emulator/faults')).body.data).toEqual([]);
    // A status without a name of its own is fine with one.
    expect(await addFault({ status: 502, name: 'application_error', message: 'Bad gateway' })).toMatchObject({ status: 502, name: 'application_error', message: 'Bad gateway' });
    // A name alone picks its status.
    expect(await addFault({ name: 'daily_quota_exceeded' })).toMatchObject({ status: 429, name: 'daily_quota_exceeded', message: 'You have reached your daily email sending quota.' });
  });

  it('answers before the operation runs: the service error shape, nothing written, the request log records it', async () => {
    await addFault({ operation: 'POST /emails' });
    const before = storeState(t.emu);
    const res = await t.api.post('/emails').send(SEND);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ statusCode: 500, message: 'Internal server error. We are unable to process your request right now, please try again later.', name: 'application_error' });
    // Only the key's last_used_at (authentication ran) and the request log may differ.
    expect(diffState(before, storeState(t.emu)).filter((d) => !d.startsWith('api_keys:'))).toEqual([]);
    expect(t.emu.emails({ subject: 'Fault probe' })).toHaveLength(0);
    // An invalid body gets the fault too: it answers before validation.
    expect((await t.api.post('/emails').send({ nonsense: true })).status).toBe(500);

    const logs = await t.api.get('/logs').expect(200);
    // Newest first: the invalid body, then the first send.
    expect(logs.body.data.map((l: any) => [l.method, l.endpoint, l.response_status])).toEqual([['POST', '/emails', 500], ['POST', '/emails', 500]]);
    const full = await t.api.get(`/logs/${logs.body.data[1].id}`).expect(200);
    expect(full.body).toMatchObject({ endpoint: '/emails', response_status: 500, request_body: SEND, response_body: { name: 'application_error' } });
    // Another operation is untouched.
    await t.api.get('/domains').expect(200);
  });

  it('429 carries retry-after and the ratelimit-* headers; 409 and 503 get the service names', async () => {
    await addFault({ operation: 'emails/list', status: 429 });
    const limited = await t.api.get('/emails');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests. You can only make 10 requests per second. See rate limit response headers for more information.' });
    expect(limited.headers).toMatchObject({ 'retry-after': '1', 'ratelimit-limit': '10', 'ratelimit-policy': '10;w=1', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });

    await addFault({ operation: 'domains/list', status: 409 });
    expect((await t.api.get('/domains')).body).toEqual({ statusCode: 409, name: 'concurrent_idempotent_requests', message: 'Same idempotency key used while original request is still in progress.' });
    await addFault({ operation: 'segments/list', status: 503, message: 'Down for maintenance' });
    expect((await t.api.get('/segments')).body).toEqual({ statusCode: 503, name: 'service_unavailable', message: 'Down for maintenance' });
  });

  it('a rule without operation covers every public operation, never the admin API; unauthenticated requests keep their 401', async () => {
    await addFault({ status: 503 });
    expect((await t.api.get('/domains')).status).toBe(503);
    expect((await t.api.get('/api-keys')).status).toBe(503);
    expect((await t.api.post('/contacts').send({ email: 'a@example.com' })).status).toBe(503);
    expect((await t.anon.get('/_emulator/health')).status).toBe(200);
    expect((await t.anon.get('/_emulator/emails')).status).toBe(200);
    expect((await t.anon.get('/domains')).body.name).toBe('missing_api_key');
    expect((await t.as('re_unknown').get('/domains')).body.name).toBe('invalid_api_key');
    expect((await t.anon.get('/_emulator/faults')).body.data[0].fired).toBe(3);
  });

  it('team_id limits the rule to one team', async () => {
    await addFault({ team_id: FIXTURES.secondTeamId, status: 500 });
    expect((await t.api.get('/domains')).status).toBe(200);
    expect((await t.as(FIXTURES.secondTeamKey).get('/domains')).status).toBe(500);
  });

  it('times: fires that often, then is spent (and stays listed)', async () => {
    const rule = await addFault({ operation: 'emails/send', status: 500, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.api.post('/emails').send(SEND)).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect(t.emu.emails({ subject: 'Fault probe' })).toHaveLength(2);
    expect((await t.anon.get('/_emulator/faults')).body.data).toEqual([expect.objectContaining({ id: rule.id, fired: 2, times: 2 })]);
  });

  it('probability: the draws come from the rule\'s seeded generator, so runs repeat', async () => {
    const run = async (seed: number) => {
      await t.anon.delete('/_emulator/faults').expect(200);
      await addFault({ operation: 'domains/list', status: 503, probability: 0.3, seed });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await t.api.get('/domains')).status);
      return out;
    };
    const a = await run(42);
    const b = await run(42);
    expect(b).toEqual(a);
    // Exactly the draws of mulberry32(42) below 0.3.
    const draw = mulberry32(42);
    expect(a).toEqual(Array.from({ length: 30 }, () => (draw() < 0.3 ? 503 : 200)));
    const failures = a.filter((s) => s === 503).length;
    expect(failures).toBeGreaterThan(2);
    expect(failures).toBeLessThan(20);
    expect((await t.anon.get('/_emulator/faults')).body.data[0].fired).toBe(failures);
    expect(await run(7)).not.toEqual(a);
    // 0 never fires.
    await t.anon.delete('/_emulator/faults');
    await addFault({ operation: 'domains/list', probability: 0 });
    expect((await t.api.get('/domains')).status).toBe(200);
  });

  it('latency_ms alone delays the normal answer (wall time); with a status, the error after the delay', async () => {
    await addFault({ operation: 'domains/list', latency_ms: 150 });
    let start = Date.now();
    const ok = await t.api.get('/domains');
    expect(ok.status).toBe(200);
    expect(ok.body.object).toBe('list');
    expect(Date.now() - start).toBeGreaterThanOrEqual(145);
    start = Date.now();
    await t.api.get('/api-keys').expect(200);
    expect(Date.now() - start).toBeLessThan(145);

    await addFault({ operation: 'api-keys/list', latency_ms: 100, status: 500 });
    start = Date.now();
    expect((await t.api.get('/api-keys')).status).toBe(500);
    expect(Date.now() - start).toBeGreaterThanOrEqual(95);
  });

  it('reset clears the rules (startServer without faults)', async () => {
    await addFault({ status: 500 });
    await t.anon.post('/_emulator/reset').expect(200);
    expect((await t.anon.get('/_emulator/faults')).body.data).toEqual([]);
    await t.api.get('/domains').expect(200);
  });

  it('a snapshot import leaves the rules as they are (they are not state)', async () => {
    const snap = (await t.anon.get('/_emulator/snapshot').expect(200)).body;
    await addFault({ operation: 'domains/list', status: 503 });
    await t.anon.post('/_emulator/snapshot').send(snap).expect(200);
    expect((await t.anon.get('/_emulator/faults')).body.data.map((r: { status: number }) => r.status)).toEqual([503]);
    await t.api.get('/domains').expect(503);
  });
});

describe('emu.faults and startServer({ faults })', () => {
  const t = useFreshEmulatorPerTest();

  it('add, list, remove, clear; a refused rule throws with statusCode and the API message', async () => {
    const rule = t.emu.faults.add({ operation: 'emails/send', status: 429 });
    expect(rule).toMatchObject({ object: 'fault', kind: 'api', status: 429, name: 'rate_limit_exceeded', fired: 0 });
    expect((await t.api.post('/emails').send(SEND)).status).toBe(429);
    expect(t.emu.faults.list()).toEqual([{ ...rule, fired: 1 }]);
    // list() hands out copies.
    t.emu.faults.list()[0]!.fired = 99;
    expect(t.emu.faults.list()[0]!.fired).toBe(1);
    expect(t.emu.faults.remove(rule.id)).toBe(true);
    expect(t.emu.faults.remove(rule.id)).toBe(false);
    t.emu.faults.add({});
    t.emu.faults.add({ latency_ms: 1 });
    expect(t.emu.faults.clear()).toBe(2);
    expect(() => t.emu.faults.add({ operation: 'emails/nope' })).toThrow(expect.objectContaining({ statusCode: 422, message: expect.stringMatching(/Unknown `operation` `emails\/nope`/) }));
    expect(() => t.emu.faults.add({ probability: 2 })).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(t.emu.faults.list()).toEqual([]);
  });

  it('close() ends what waits out a latency (a request, an SMTP stage) with a 503 at once, so nothing runs on the closed store later', async () => {
    const emu = await startServer({ logLevel: 'error' });
    const waiting = contextOf(emu).faults.delay(60_000);
    const settled = waiting.then(() => 'resolved', (err) => err);
    await emu.close();
    expect(await settled).toMatchObject({ statusCode: 503, name: 'service_unavailable', message: 'The emulator is closing.' });
  });

  it('start rules come back at every reset, fired 0, draws from the seed again', async () => {
    const emu = await startServer({ faults: [{ operation: 'domains/list', status: 503, probability: 0.5, seed: 3 }, { operation: 'emails/send', status: 500, times: 1 }] });
    try {
      const call = () => fetch(`${emu.url}/domains`, { headers: { authorization: `Bearer ${emu.apiKey}` } }).then((r) => r.status);
      const first: number[] = [];
      for (let i = 0; i < 8; i++) first.push(await call());
      expect(emu.faults.list().map((r) => r.fired)).toEqual([first.filter((s) => s === 503).length, 0]);
      emu.faults.clear();
      await emu.reset();
      expect(emu.faults.list().map((r) => [r.operation, r.fired])).toEqual([['domains/list', 0], ['emails/send', 0]]);
      const again: number[] = [];
      for (let i = 0; i < 8; i++) again.push(await call());
      expect(again).toEqual(first);
    } finally {
      await emu.close();
    }
    await expect(startServer({ faults: [{ operation: 'emails/nope' }] })).rejects.toThrow(/fault rule 1: Unknown `operation` `emails\/nope`/);
  });
});
