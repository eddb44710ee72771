/** Shared bits of the broadcasts tests. */
import { expect } from 'vitest';
import type { TestEmulator } from '../../helpers.js';
import { contextOf, schedulerOf } from '../../../src/internals.js';
import { emailsOfBroadcast } from '../../../src/resources/emails/service.js';

/** The fixtures' "Newsletter" segment of the default team (fixtures/default.json). */
export const NEWSLETTER_SEGMENT = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
/** The fixtures' draft broadcast (both sets) and the demo set's sent one (fixtures/demo.json: `useFreshEmulatorPerTest({ fixtures: 'demo' })`). */
export const DRAFT_BROADCAST = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const SENT_BROADCAST = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';

/** A valid create body; `over` replaces fields. */
export function draftBody(over: Record<string, unknown> = {}) {
  return {
    name: 'Launch',
    segment_id: NEWSLETTER_SEGMENT,
    from: 'Acme <news@example.com>',
    subject: 'We launched',
    html: '<p>Hi {{{contact.first_name|there}}}</p>',
    ...over,
  };
}

/** Creates a broadcast through the API and returns its id. */
export async function createBroadcast(t: TestEmulator, over: Record<string, unknown> = {}): Promise<string> {
  const res = await t.api.post('/broadcasts').send(draftBody(over));
  if (res.status !== 201) throw new Error(`create broadcast: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** The broadcast as GET answers it. */
export async function getBroadcast(t: TestEmulator, id: string) {
  const res = await t.api.get(`/broadcasts/${id}`);
  if (res.status !== 200) throw new Error(`get broadcast: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A segment of two contacts and a broadcast to it, sent; resolves with its emails' ids once its batch's `emails.send-many` job is pending. */
export async function broadcastQueued(t: TestEmulator): Promise<string[]> {
  const seg = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
  for (const email of ['one@example.org', 'two@example.org']) {
    expect((await t.api.post('/contacts').send({ email, segments: [{ id: seg }] })).status).toBe(201);
  }
  const id = await createBroadcast(t, { segment_id: seg });
  expect((await t.api.post(`/broadcasts/${id}/send`).send({})).status).toBe(200);
  for (let i = 0; i < 600 && !schedulerOf(t.emu).pending().some((j) => j.type === 'emails.send-many'); i++) await schedulerOf(t.emu).advance(100);
  const ids = emailsOfBroadcast(contextOf(t.emu), id).map((e) => e.id);
  expect(ids).toHaveLength(2);
  return ids;
}
