/**
 * A broadcast's email waits for its send step in the batch's shared
 * `emails.send-many` job; cancelling that step (`cancelSend`,
 * src/resources/emails/jobs.ts: what an admin `failed` event does, as for a
 * single email's `emails.send`) takes it out of the batch's payload, and a
 * batch left empty is dropped.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { broadcastQueued } from './helpers.js';
import { storeOf } from '../../../src/internals.js';

/** The payloads of the pending `emails.send-many` jobs. */
function batches(t: TestEmulator): unknown[] {
  return (storeOf(t.emu).prepare(`SELECT payload FROM jobs WHERE status = 'pending' AND type = 'emails.send-many'`).pluck().all() as string[]).map((p) => JSON.parse(p));
}

/** Fails an email through the admin API (a `failed` event cancels its pending send step). */
async function fail(t: TestEmulator, id: string): Promise<void> {
  expect((await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'failed' })).status).toBe(200);
}

describe('cancelling a batched email\'s send step', () => {
  const t = useFreshEmulatorPerTest();

  it('takes the email out of its batch\'s payload; the batch keeps the others', async () => {
    const [first, second] = await broadcastQueued(t);
    expect(batches(t)).toEqual([{ email_ids: [first, second] }]);
    await fail(t, first);
    expect(batches(t)).toEqual([{ email_ids: [second] }]);
  });

  it('the cancelled email stays failed while the batch sends the others', async () => {
    const [first, second] = await broadcastQueued(t);
    await fail(t, first);
    await t.emu.clock.advance('1m');
    const last = async (id: string) => (await t.api.get(`/emails/${id}`).expect(200)).body.last_event;
    expect([await last(first), await last(second)]).toEqual(['failed', 'delivered']);
  });

  it('drops a batch none of whose emails is left', async () => {
    const [first, second] = await broadcastQueued(t);
    await fail(t, first);
    await fail(t, second);
    expect(batches(t)).toEqual([]);
  });
});
