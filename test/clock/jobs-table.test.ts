/**
 * Issue 13, defect 7: the jobs table stays bounded. Every email used to
 * leave two rows behind for ever (more with webhooks); now a job's row goes
 * when it ends (done or cancelled) and only the newest failures are kept
 * (src/clock/scheduler.ts `KEEP_FAILED_JOBS`).
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { storeOf } from '../../src/internals.js';

describe('jobs table', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });
  const rows = () => storeOf(t.emu).prepare('SELECT type, status FROM jobs ORDER BY id').all() as { type: string; status: string }[];

  it('is empty once every email has run its course, webhooks included; a cancelled schedule leaves no row', async () => {
    const deliveredBefore = t.emu.emails({ last_event: 'delivered' }).length;
    expect((await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.net/in', events: ['email.sent', 'email.delivered'] })).status).toBe(201);
    const batch = Array.from({ length: 40 }, (_, i) => ({ from: 'a@example.com', to: `r${i}@example.net`, subject: `n${i}`, text: 't' }));
    expect((await t.api.post('/emails/batch').send(batch)).status).toBe(200);
    const later = await t.api.post('/emails').send({ from: 'a@example.com', to: 'later@example.net', subject: 'later', text: 't', scheduled_at: 'in 1 hour' });
    expect(later.status).toBe(200);
    expect(rows().length).toBeGreaterThanOrEqual(41);
    expect((await t.api.post(`/emails/${later.body.id}/cancel`)).status).toBe(200);
    await t.emu.clock.advance('1m');
    expect(t.emu.webhookDeliveries()).toHaveLength(80);
    expect(t.emu.emails({ last_event: 'delivered' })).toHaveLength(deliveredBefore + 40);
    expect(rows()).toEqual([]);
  });
});
