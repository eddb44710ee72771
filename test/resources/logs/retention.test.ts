/** Request logs stay bounded: large bodies are truncated, old rows pruned (docs/differences.md#emulator-specific-behaviours). */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { LOG_BODY_LIMIT, LOG_RETENTION } from '../../../src/resources/logs/store.js';
import { storeOf } from '../../../src/internals.js';

describe('request log bounds', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('stores a body over the limit as {truncated, length} and keeps small ones whole', async () => {
    const html = `<p>${'x'.repeat(LOG_BODY_LIMIT)}</p>`;
    const big = await t.api.post('/emails').send({ from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'Big', html });
    expect(big.status).toBe(200);
    const small = await t.api.post('/emails').send({ from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'Small', html: '<p>hi</p>' });
    const logs = (await t.api.get('/logs?limit=3')).body.data;
    const [smallLog, bigLog] = logs; // newest first; the GET /logs itself is logged after it answers
    const bigBody = (await t.api.get(`/logs/${bigLog.id}`)).body;
    expect(bigBody.request_body).toEqual({ truncated: true, length: expect.any(Number) });
    expect(bigBody.request_body.length).toBeGreaterThan(LOG_BODY_LIMIT);
    expect(bigBody.response_body).toEqual({ id: big.body.id });
    const smallBody = (await t.api.get(`/logs/${smallLog.id}`)).body;
    expect(smallBody.request_body.subject).toBe('Small');
    expect(smallBody.response_body).toEqual({ id: small.body.id });
  });

  it(`keeps the newest ${LOG_RETENTION} logs of a team`, async () => {
    const db = storeOf(t.emu);
    const teamId = (db.prepare('SELECT team_id FROM api_keys ORDER BY seq LIMIT 1').get() as { team_id: string }).team_id;
    const insert = db.prepare(`INSERT INTO logs (id, team_id, created_at, endpoint, method, response_status, user_agent, request_body, response_body) VALUES (?, ?, 0, '/domains', 'GET', 200, NULL, 'null', 'null')`);
    db.transaction(() => { for (let i = 0; i < LOG_RETENTION + 600; i++) insert.run(crypto.randomUUID(), teamId); })();
    for (let i = 0; i < 500; i++) await t.api.get('/domains'); // a prune runs every 500th insert
    const n = (db.prepare('SELECT COUNT(*) AS n FROM logs WHERE team_id = ?').get(teamId) as { n: number }).n;
    expect(n).toBeLessThanOrEqual(LOG_RETENTION + 500);
    expect(n).toBeGreaterThanOrEqual(LOG_RETENTION);
  });
});
