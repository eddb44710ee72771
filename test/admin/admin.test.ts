import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';

describe('admin API', () => {
  const t = useFreshEmulatorPerTest();

  it('health answers status and version', async () => {
    const res = await t.anon.get('/_emulator/health');
    expect(res.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('the manual clock stands still until advanced, by ms or to a time', async () => {
    const c1 = (await t.anon.get('/_emulator/clock')).body;
    expect(c1.mode).toBe('manual');
    const c2 = (await t.anon.get('/_emulator/clock')).body;
    expect(c2.now).toBe(c1.now);
    const adv = await t.anon.post('/_emulator/clock/advance').send({ ms: 90_000 });
    expect(Date.parse(adv.body.now) - Date.parse(c1.now)).toBe(90_000);
    const to = new Date(Date.parse(adv.body.now) + 3_600_000).toISOString();
    const adv2 = await t.anon.post('/_emulator/clock/advance').send({ to });
    expect(adv2.body.now).toBe(to);
  });

  it('advance runs due jobs in time order and reports them', async () => {
    const d = (await t.api.post('/domains').send({ name: 'acme.io' })).body;
    await t.api.post(`/domains/${d.id}/verify`);
    const none = await t.anon.post('/_emulator/clock/advance').send({ ms: 0 });
    expect(none.body.fired).toEqual([]);
    const res = await t.anon.post('/_emulator/clock/advance').send({ ms: 10_000 });
    expect(res.body.fired.map((j: any) => j.type)).toEqual(['domains.verify']);
    expect((await t.api.get(`/domains/${d.id}`)).body.status).toBe('verified');
  });

  it('rejects an advance with neither or both of ms and to, or a negative ms', async () => {
    expect((await t.anon.post('/_emulator/clock/advance').send({})).status).toBe(422);
    expect((await t.anon.post('/_emulator/clock/advance').send({ ms: 1, to: '2030-01-01T00:00:00Z' })).status).toBe(422);
    expect((await t.anon.post('/_emulator/clock/advance').send({ ms: -1 })).status).toBe(422);
  });

  it('creates isolated teams with their own full-access key', async () => {
    const res = await t.anon.post('/_emulator/teams').send({ name: 'QA', owner_email: 'qa@example.org' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), api_key: expect.stringMatching(/^re_/), owner_email: 'qa@example.org' });
    const team = t.as(res.body.api_key);
    expect((await team.get('/domains')).body.data).toEqual([]);
    const d = (await team.post('/domains').send({ name: 'qa.example.org' })).body;
    expect((await t.api.get(`/domains/${d.id}`)).status).toBe(404);
  });

  it('reset restores the fixtures', async () => {
    await t.api.post('/domains').send({ name: 'acme.io' });
    await t.api.delete(`/domains/${FIXTURES.verifiedDomainId}`);
    const res = await t.anon.post('/_emulator/reset');
    expect(res.body).toEqual({ object: 'reset', reset: true });
    const names = (await t.api.get('/domains')).body.data.map((d: any) => d.name);
    expect(names).toEqual(['example.com']);
  });

  it('exports and imports a snapshot of the whole state', async () => {
    const d = (await t.api.post('/domains').send({ name: 'acme.io' })).body;
    const snap = (await t.anon.get('/_emulator/snapshot')).body;
    expect(snap.version).toBe(1);
    expect(snap.tables.domains.some((r: any) => r.id === d.id)).toBe(true);
    await t.anon.post('/_emulator/reset');
    expect((await t.api.get(`/domains/${d.id}`)).status).toBe(404);
    const imp = await t.anon.post('/_emulator/snapshot').send(snap);
    expect(imp.body).toEqual({ object: 'snapshot', imported: true });
    expect((await t.api.get(`/domains/${d.id}`)).body.name).toBe('acme.io');
    const bad = await t.anon.post('/_emulator/snapshot').send({ tables: { nope: [] } });
    expect(bad.status).toBe(422);
    expect((await t.api.get(`/domains/${d.id}`)).status).toBe(200);
  });
});

describe('admin API: out-of-range and malformed input', () => {
  const t = useFreshEmulatorPerTest();

  it('refuses a clock advance past year 9999 with 422, and the clock still works', async () => {
    for (const [body, name] of [[{ ms: 1e20 }, 'validation_error'], [{ ms: 8.64e15 }, 'validation_error'], [{ to: '+275760-09-13T00:00:00.000Z' }, 'invalid_parameter']] as const) {
      const res = await t.anon.post('/_emulator/clock/advance').send(body);
      expect({ status: res.status, name: res.body.name }, JSON.stringify(body)).toEqual({ status: 422, name });
    }
    expect((await t.anon.get('/_emulator/clock')).status).toBe(200);
    await expect(t.emu.clock.advance(1e20)).rejects.toThrow(RangeError);
    expect(Number.isNaN(t.emu.clock.now().getTime())).toBe(false);
  });

  it('refuses a snapshot whose rows do not fit their tables (422), changing nothing', async () => {
    const before = (await t.anon.get('/_emulator/snapshot')).body;
    const bad = [
      { tables: { teams: [{ id: 'x' }] } },
      { tables: { teams: [{ id: 'x', name: 'n', owner_email: 'o@x', created_at: 'not a date' }] } },
      { tables: { teams: [{ id: 'x', name: 'n', owner_email: 'o@x', created_at: 1 }, { id: 'x', name: 'n', owner_email: 'o@x', created_at: 1 }] } },
      { tables: {}, clock_ms: 1e20 },
    ];
    for (const body of bad) {
      const res = await t.anon.post('/_emulator/snapshot').send(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.name).toBe('validation_error');
    }
    const after = (await t.anon.get('/_emulator/snapshot')).body;
    expect(after.tables).toEqual(before.tables);
    expect((await t.api.get('/domains')).status).toBe(200);
  });
  it('imports a snapshot whose tables come in any order, and refuses one with a row whose parent is missing (422 naming both tables), changing nothing', async () => {
    const before = (await t.anon.get('/_emulator/snapshot')).body;
    // Children before their parents: the foreign keys are checked once every row is in.
    const reversed = Object.fromEntries(Object.entries<unknown[]>(before.tables).reverse());
    expect(Object.keys(reversed).indexOf('contact_segments')).toBeLessThan(Object.keys(reversed).indexOf('contacts'));
    expect((await t.anon.post('/_emulator/snapshot').send({ ...before, tables: reversed })).status).toBe(200);
    const dangling = { ...before, tables: { ...before.tables, contact_topics: [...before.tables.contact_topics, { contact_id: 'no-such-contact', topic_id: before.tables.topics[0].id, subscription: 'opt_in', updated_at: 0 }] } };
    const res = await t.anon.post('/_emulator/snapshot').send(dangling);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'validation_error', message: expect.stringMatching(/^Invalid snapshot: a row of table `contact_topics` \(rowid \d+\) refers to a missing row of `contacts`\.$/) });
    expect((await t.anon.get('/_emulator/snapshot')).body.tables).toEqual(before.tables);
  });
});
