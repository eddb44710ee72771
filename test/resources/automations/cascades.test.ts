/**
 * An automation's runs go with it, and a run's steps with the run (foreign
 * keys, automations' migration 41): deleting an automation through the API
 * removes its runs and their steps, and only its own.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

describe('automation runs and their steps go with their automation', () => {
  const t = useFreshEmulatorPerTest();
  const runIds = (automationId: string) => (storeOf(t.emu).prepare('SELECT id FROM automation_runs WHERE automation_id = ?').all(automationId) as { id: string }[]).map((r) => r.id);
  /** Steps of these runs (by run id: they would outlive a run deleted without them). */
  const steps = (ids: string[]) => (storeOf(t.emu).prepare('SELECT COUNT(*) AS n FROM automation_run_steps WHERE run_id IN (SELECT value FROM json_each(?))').get(JSON.stringify(ids)) as { n: number }).n;

  it('deleting an automation removes its runs and their steps, not another automation\'s', async () => {
    const mk = async (event: string) => {
      const res = await t.api.post('/automations').send({
        name: event, status: 'enabled',
        steps: [{ key: 'start', type: 'trigger', config: { event_name: event } }, { key: 'pause', type: 'delay', config: { duration: '1 hour' } }],
        connections: [{ from: 'start', to: 'pause' }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const [a, b] = [await mk('a.happened'), await mk('b.happened')];
    for (const event of ['a.happened', 'a.happened', 'b.happened']) expect((await t.api.post('/events/send').send({ event, email: 'ada@example.net' })).status).toBe(202);
    await t.emu.clock.advance(0);
    const [ofA, ofB] = [runIds(a), runIds(b)];
    expect(ofA).toHaveLength(2);
    expect(steps(ofA)).toBeGreaterThanOrEqual(2);
    const stepsOfB = steps(ofB);
    expect(stepsOfB).toBeGreaterThanOrEqual(1);
    expect((await t.api.delete(`/automations/${a}`)).status).toBe(200);
    expect(runIds(a)).toEqual([]);
    expect(steps(ofA)).toBe(0);
    expect(runIds(b)).toEqual(ofB);
    expect(steps(ofB)).toBe(stepsOfB);
  });
});
