/**
 * Concurrency (issue 13): 20 simultaneous identical `POST /emails` with one
 * `Idempotency-Key` create exactly one email, and every caller gets the same
 * answer (the handler and the record of its answer are one synchronous
 * transaction, so no call finds the first still in flight:
 * src/http/idempotency.ts); the same for `POST /emails/batch`. Requests with the same key and another body get 409
 * `invalid_idempotent_request`, and never a second email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';

const CALLERS = 20;

describe('idempotency under concurrency', () => {
  let emu: EmulatorServer;
  beforeAll(async () => {
    emu = await startServer({ validateResponses: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  /** `CALLERS` requests started together (one event-loop turn), each with its own connection. */
  const race = (path: string, key: string, bodies: (i: number) => unknown) =>
    Promise.all(
      Array.from({ length: CALLERS }, async (_, i) => {
        const res = await fetch(`${emu.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key, connection: 'close' },
          body: JSON.stringify(bodies(i)),
        });
        return { status: res.status, body: (await res.json()) as any };
      }),
    );

  /** The answers are one success, repeated (calls with one key never overlap: src/http/idempotency.ts): returns the success body. */
  function oneAnswer(answers: { status: number; body: any }[]): any {
    expect(answers.map((a) => a.status)).toEqual(Array(CALLERS).fill(200));
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    return answers[0].body;
  }

  it('POST /emails: 20 at once with one key create exactly one email, all get its id', async () => {
    const body = { from: 'race@example.com', to: 'race@example.net', subject: 'race-single', text: 'once' };
    const answers = await race('/emails', 'race-single-key', () => body);
    const first = oneAnswer(answers);
    expect(emu.emails({ subject: 'race-single' }).map((e) => e.id)).toEqual([first.id]);
    // Later retries get the same answer, still one email.
    const again = await race('/emails', 'race-single-key', () => body);
    expect(again.every((a) => a.status === 200 && a.body.id === first.id)).toBe(true);
    expect(emu.emails({ subject: 'race-single' })).toHaveLength(1);
  });

  it('POST /emails/batch: 20 at once with one key create the batch once, all get the same ids', async () => {
    const batch = [1, 2, 3].map((n) => ({ from: 'race@example.com', to: `batch${n}@example.net`, subject: 'race-batch', text: `n${n}` }));
    const first = oneAnswer(await race('/emails/batch', 'race-batch-key', () => batch));
    expect(first.data).toHaveLength(3);
    const stored = emu.emails({ subject: 'race-batch' }).map((e) => e.id).sort();
    expect(stored).toEqual(first.data.map((d: { id: string }) => d.id).sort());
  });

  it('one key, different bodies at once: one email, the others 409 (never a second email)', async () => {
    const answers = await race('/emails', 'race-mixed-key', (i) => ({ from: 'race@example.com', to: 'mixed@example.net', subject: 'race-mixed', text: `body ${i}` }));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(['invalid_idempotent_request', 'concurrent_idempotent_requests']).toContain(a.body.name);
    }
    expect(emu.emails({ subject: 'race-mixed' }).map((e) => e.id)).toEqual([ok[0].body.id]);
  });
});
