/**
 * `scheduled_at` in the natural language the service documents, for emails
 * and broadcasts, read on the emulated clock (src/clock/natural-time.ts):
 * "in 1 min", "in 1 hour", "tomorrow at 9am", "Friday at 3pm ET", "next day
 * at 9am PST" (D:api-reference/emails/send-email; D:dashboard/emails/schedule-email).
 * Each test first moves the clock to the next Monday 12:00 UTC, so every
 * expected time is a fixed offset from it (ET's offset is read from the time
 * zone database, so the test holds in summer and winter).
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { createBroadcast, getBroadcast } from '../broadcasts/helpers.js';

const FROM = 'Acme <hello@example.com>';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Moves the emulated clock to the next Monday 12:00 UTC; returns its ms. */
async function toMondayNoon(t: TestEmulator): Promise<number> {
  const now = t.emu.clock.now().getTime();
  const midnight = Math.floor(now / DAY) * DAY;
  const weekday = new Date(midnight).getUTCDay();
  let target = midnight + ((8 - weekday) % 7) * DAY + 12 * HOUR;
  if (target <= now) target += 7 * DAY;
  await t.emu.clock.advance(target - now);
  return target;
}

/** 15:00 wall time in America/New_York on the UTC day of `dayMs`, as epoch ms. */
function threePmNewYork(dayMs: number): number {
  const guess = dayMs + 15 * HOUR;
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' }).formatToParts(new Date(guess + 5 * HOUR));
  const offset = Number(/GMT([+-]\d+)/.exec(parts.find((p) => p.type === 'timeZoneName')!.value)![1]);
  return guess - offset * HOUR;
}

/** The documented examples and their time from Monday 12:00 UTC (`m`). */
const EXAMPLES: [string, (m: number) => number][] = [
  ['in 1 min', (m) => m + 60_000],
  ['in 1 hour', (m) => m + HOUR],
  ['tomorrow at 9am', (m) => m - 12 * HOUR + DAY + 9 * HOUR],
  ['Friday at 3pm ET', (m) => threePmNewYork(m - 12 * HOUR + 4 * DAY)],
  ['next day at 9am PST', (m) => m - 12 * HOUR + DAY + 17 * HOUR],
];

const ms = (apiTime: string) => Date.parse(apiTime.replace(' ', 'T').replace(/\+00$/, 'Z'));

describe('natural-language scheduled_at', () => {
  const t = useFreshEmulatorPerTest();

  for (const [text, expected] of EXAMPLES) {
    it(`schedules an email "${text}" at the right emulated time, and sends it then`, async () => {
      const monday = await toMondayNoon(t);
      const res = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', scheduled_at: text });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const got = (await t.api.get(`/emails/${res.body.id}`)).body;
      expect(got.last_event).toBe('scheduled');
      const at = expected(monday);
      expect(new Date(ms(got.scheduled_at)).toISOString()).toBe(new Date(at).toISOString());
      await t.emu.clock.advance(at - monday - 1);
      expect((await t.api.get(`/emails/${res.body.id}`)).body.last_event).toBe('scheduled');
      await t.emu.clock.advance(60_000);
      expect((await t.api.get(`/emails/${res.body.id}`)).body.last_event).not.toBe('scheduled');
    });

    it(`schedules a broadcast "${text}" at the right emulated time`, async () => {
      const monday = await toMondayNoon(t);
      const id = await createBroadcast(t);
      const res = await t.api.post(`/broadcasts/${id}/send`).send({ scheduled_at: text });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const b = await getBroadcast(t, id);
      expect(b.status).toBe('scheduled');
      expect(new Date(ms(b.scheduled_at)).toISOString()).toBe(new Date(expected(monday)).toISOString());
    });
  }

  it('reschedules with PATCH /emails/{id} in natural language', async () => {
    const monday = await toMondayNoon(t);
    const res = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', scheduled_at: 'in 1 hour' });
    expect((await t.api.patch(`/emails/${res.body.id}`).send({ scheduled_at: 'tomorrow at 9am' })).status).toBe(200);
    expect(ms((await t.api.get(`/emails/${res.body.id}`)).body.scheduled_at)).toBe(monday + 21 * HOUR);
  });

  it('refuses what it cannot read as one date with 422 naming the field', async () => {
    for (const text of ['banana', 'tomorrow at 9am please', 'at some point']) {
      const email = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', scheduled_at: text });
      expect(email.status, text).toBe(422);
      expect(email.body).toMatchObject({ name: 'validation_error', message: expect.stringContaining('`scheduled_at`') });
      const id = await createBroadcast(t);
      const broadcast = await t.api.post(`/broadcasts/${id}/send`).send({ scheduled_at: text });
      expect(broadcast.status, text).toBe(422);
      expect(broadcast.body.message).toContain('`scheduled_at`');
    }
  });

  it("reads an email's and a broadcast's scheduled_at with one parser: the same refusal, and only the email's is held to 30 days", async () => {
    const email = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', scheduled_at: 'next blue moon' });
    const broadcast = await t.api.post(`/broadcasts/${await createBroadcast(t)}/send`).send({ scheduled_at: 'next blue moon' });
    expect(broadcast.body).toEqual(email.body);
    const farEmail = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 's', text: 'x', scheduled_at: 'in 40 days' });
    expect(farEmail.status).toBe(422);
    expect(farEmail.body.message).toContain('30 days');
    const farBroadcast = await t.api.post(`/broadcasts/${await createBroadcast(t)}/send`).send({ scheduled_at: 'in 40 days' });
    expect(farBroadcast.status).toBe(200);
  });
});
