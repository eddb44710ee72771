/** Shared bits of the broadcasts tests. */
import type { TestEmulator } from '../../helpers.js';

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
