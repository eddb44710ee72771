/**
 * `Idempotency-Key` as one pipeline step (src/http/idempotency.ts,
 * `honourIdempotencyKey` in src/http/pipeline.ts): the operations that take
 * the key are those that declare the header in spec/paths/*.yaml, the key is
 * scoped to the team, the operationId and the path parameters, and a replay
 * answers before the handler runs. The rules of a key on one operation
 * (24 h, another body, bad keys) are in
 * test/resources/emails/batch-idempotency.test.ts; concurrency in
 * test/reliability/idempotency-race.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec.js';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { busOf, storeOf } from '../../src/internals.js';

describe('Idempotency-Key, the step', () => {
  const t = useFreshEmulatorPerTest();

  it('the operations that honour the key are the ones whose document declares the header', async () => {
    const { operations } = await loadSpec();
    expect(operations.filter((o) => o.idempotent).map((o) => o.operationId).sort()).toEqual([
      'emails/send',
      'emails/send-batch',
      'emails/send-legacy',
      'inboxes/drafts/create',
      'inboxes/drafts/send',
      'inboxes/threads/emails/forward',
      'inboxes/threads/emails/reply',
    ]);
  });

  it('an operation that does not declare the header ignores it: each call runs', async () => {
    const a = await t.api.post('/topics').set('Idempotency-Key', 'same').send({ name: 'Weekly', default_subscription: 'opt_in' });
    const b = await t.api.post('/topics').set('Idempotency-Key', 'same').send({ name: 'Weekly', default_subscription: 'opt_in' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
    // Not even a bad key is looked at.
    expect((await t.api.post('/topics').set('Idempotency-Key', 'k'.repeat(300)).send({ name: 'Daily', default_subscription: 'opt_in' })).status).toBe(201);
  });

  it('a key is scoped by the path parameters: one key on two drafts sends both; on the same draft it replays, even once the draft is sent', async () => {
    const inbox = (await t.api.post('/inboxes').send({ email_address: 'keys@example.com' })).body.id;
    const one = (await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'a@example.net', subject: 'One', text: '1' })).body.id;
    const two = (await t.api.post(`/inboxes/${inbox}/drafts`).send({ to: 'b@example.net', subject: 'Two', text: '2' })).body.id;
    const send = (draft: string) => t.api.post(`/inboxes/${inbox}/drafts/${draft}/send`).set('Idempotency-Key', 'send-it').send({});
    const first = await send(one);
    const second = await send(two);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.id).not.toBe(first.body.id);
    // The draft is sent now (a send without the key is 409), yet the key's replay answers the recorded reply.
    expect((await t.api.post(`/inboxes/${inbox}/drafts/${one}/send`).send({})).status).toBe(409);
    const replay = await send(one);
    expect([replay.status, replay.body]).toEqual([200, first.body]);
  });

  it('the same key on two operations is two keys', async () => {
    const body = { from: 'a@example.com', to: 'delivered@resend.dev', subject: 'scoped', text: 'x' };
    const single = await t.api.post('/emails').set('Idempotency-Key', 'shared').send(body);
    const batch = await t.api.post('/emails/batch').set('Idempotency-Key', 'shared').send([body]);
    expect([single.status, batch.status]).toEqual([200, 200]);
    expect(batch.body.data[0].id).not.toBe(single.body.id);
  });
  it('the handler and the record of its answer commit in one transaction, for the batch too: when its emails are committed, the key is recorded', async () => {
    const keyed = () => storeOf(t.emu).prepare('SELECT COUNT(*) FROM idempotency_keys WHERE key = ?').pluck().get('one-commit') as number;
    // The bus tells of an email once its transaction committed (src/bus.ts): what that commit holds is read then.
    const seen: number[] = [];
    busOf(t.emu).on('email', () => seen.push(keyed()));
    const items = [1, 2, 3].map((n) => ({ from: 'a@example.com', to: `one-commit${n}@example.net`, subject: 'one commit', text: 'x' }));
    const res = await t.api.post('/emails/batch').set('Idempotency-Key', 'one-commit').send(items);
    expect(res.status).toBe(200);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((n) => n === 1)).toBe(true);
  });
});

