/**
 * Every email webhook type can be raised (issue 11 part 2): email outcome
 * fault rules (`outcome: delivery_delayed | failed | bounced`, `to`) make
 * matching sends end that way on the clock, and `POST
 * /_emulator/emails/{id}/events` takes `delivery_delayed` and `failed`. The
 * events reach a real receiver, signed, with the service's `data`
 * (docs/reference/webhooks.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';

const FROM = 'Acme <hello@example.com>';
const EVENTS = ['email.sent', 'email.delivered', 'email.delivery_delayed', 'email.bounced', 'email.failed', 'suppression.added'];

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

describe('email outcome rules and delivery-problem events', () => {
  const t = useFreshEmulatorPerTest();
  const sdk = () => new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
  /** A receiver with a webhook for the email events; returns the signing secret. */
  const listen = async () => {
    rx = await startReceiver();
    return (await t.api.post('/webhooks').send({ endpoint: rx.url, events: EVENTS }).expect(201)).body.signing_secret as string;
  };
  const received = () => rx!.requests.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, any> });
  const send = async (to: string | string[], subject = 'Outcome probe') => {
    const res = await t.api.post('/emails').send({ from: FROM, to, subject, text: 'hi', tags: [{ name: 'kind', value: 'probe' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  const lastEvent = async (id: string) => (await sdk().emails.get(id)).data!.last_event;

  it('outcome failed: the email fails as it leaves the queue, email.failed with failed.reason, never sent', async () => {
    const secret = await listen();
    const rule = t.emu.faults.add({ outcome: 'failed' });
    expect(rule).toMatchObject({ kind: 'outcome', outcome: 'failed', reason: 'reached_daily_quota', status: null, to: null });
    const id = await send('delivered@resend.dev');
    await t.emu.clock.advance('10s');
    expect(await lastEvent(id)).toBe('failed');
    expect(t.emu.emails({ subject: 'Outcome probe' })[0]!.events.map((e) => e.type)).toEqual(['queued', 'failed']);
    const events = received();
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
    expect(events[0]!.data).toMatchObject({ email_id: id, from: FROM, to: ['delivered@resend.dev'], subject: 'Outcome probe', tags: { kind: 'probe' }, failed: { reason: 'reached_daily_quota' } });
    expect(() => sdk().webhooks.verify(verifyInput(rx!.requests[0]!, secret))).not.toThrow();
    expect(t.emu.faults.list()[0]!.fired).toBe(1);
  });

  it('outcome bounced with `to`: only the matching recipient bounces and joins the suppression list', async () => {
    await listen();
    t.emu.faults.add({ outcome: 'bounced', to: 'ADA@' });
    const a = await send(['ada@example.org', 'bob@example.org']);
    const b = await send('bob@example.org', 'Outcome probe 2');
    await t.emu.clock.advance('10s');
    expect(await lastEvent(a)).toBe('bounced');
    expect(await lastEvent(b)).toBe('delivered');
    const bounced = received().find((e) => e.type === 'email.bounced')!;
    expect(bounced.data).toMatchObject({ email_id: a, bounce: { type: 'Permanent', subType: 'General', diagnosticCode: [expect.stringContaining('<ada@example.org>')] } });
    expect(received().filter((e) => e.type === 'suppression.added').map((e) => e.data.email)).toEqual(['ada@example.org']);
    expect(t.emu.faults.list()[0]!.fired).toBe(1);
    // The suppression list now keeps ada, as after a real hard bounce.
    const again = await send('ada@example.org', 'Outcome probe 3');
    await t.emu.clock.advance('10s');
    expect(await lastEvent(again)).toBe('suppressed');
  });

  it('outcome delivery_delayed: sent, then delivery_delayed instead of delivered; times and probability as for every rule', async () => {
    await listen();
    t.emu.faults.add({ outcome: 'delivery_delayed', times: 1 });
    const first = await send('delivered@resend.dev');
    const second = await send('delivered@resend.dev', 'Outcome probe 2');
    await t.emu.clock.advance('1m');
    expect(await lastEvent(first)).toBe('delivery_delayed');
    expect(await lastEvent(second)).toBe('delivered');
    const delayed = received().filter((e) => e.type === 'email.delivery_delayed');
    expect(delayed).toHaveLength(1);
    expect(Object.keys(delayed[0]!.data).sort()).toEqual(['created_at', 'email_id', 'from', 'message_id', 'subject', 'tags', 'to']);
    expect(delayed[0]!.data.email_id).toBe(first);
  });

  it('an outcome rule with team_id leaves other teams alone; SMTP and batch sends are covered too', async () => {
    t.emu.faults.add({ outcome: 'failed', team_id: FIXTURES.secondTeamId, reason: 'reached_monthly_quota' });
    const mine = await send('delivered@resend.dev');
    const theirs = await t.as(FIXTURES.secondTeamKey).post('/emails').send({ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 'Outcome probe', text: 'x' }).expect(200);
    const batch = await t.as(FIXTURES.secondTeamKey).post('/emails/batch').send([{ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 'Outcome probe b', text: 'x' }]).expect(200);
    await t.emu.clock.advance('10s');
    expect(await lastEvent(mine)).toBe('delivered');
    const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: t.emu.url });
    expect((await other.emails.get(theirs.body.id)).data!.last_event).toBe('failed');
    expect((await other.emails.get(batch.body.data[0].id)).data!.last_event).toBe('failed');
    expect(t.emu.webhookDeliveries().length).toBe(0); // no webhooks registered: nothing recorded
    expect(t.emu.faults.list()[0]!.fired).toBe(2);
  });

  it('POST /_emulator/emails/{id}/events delivery_delayed: moves last_event, raises the event, the email is still delivered later', async () => {
    const secret = await listen();
    const id = await send('delivered@resend.dev');
    const early = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'delivery_delayed' });
    expect(early.status).toBe(422);
    expect(early.body.message).toMatch(/cannot be delayed \(last event `queued`\)/);
    await t.emu.clock.advance('1s');
    const res = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'delivery_delayed' }).expect(200);
    expect(res.body.last_event).toBe('delivery_delayed');
    expect(res.body.events.map((e: any) => e.type)).toEqual(['queued', 'sent', 'delivery_delayed']);
    expect(await lastEvent(id)).toBe('delivery_delayed');
    await t.emu.clock.advance('5s');
    expect(await lastEvent(id)).toBe('delivered');
    expect(received().map((e) => e.type)).toEqual(['email.sent', 'email.delivery_delayed', 'email.delivered']);
    expect(received()[1]!.data).toMatchObject({ email_id: id, to: ['delivered@resend.dev'], subject: 'Outcome probe' });
    for (const r of rx!.requests) expect(() => sdk().webhooks.verify(verifyInput(r, secret))).not.toThrow();
    // Delivered now: neither event is allowed any more.
    expect((await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'delivery_delayed' })).status).toBe(422);
    expect((await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'failed' })).body.message).toMatch(/cannot fail \(last event `delivered`\)/);
  });

  it('POST /_emulator/emails/{id}/events failed (with a reason): email.failed with failed.reason, and the lifecycle stops', async () => {
    await listen();
    const queued = await send('delivered@resend.dev');
    const res = await t.anon.post(`/_emulator/emails/${queued}/events`).send({ type: 'failed', reason: 'reached_daily_quota' }).expect(200);
    expect(res.body.last_event).toBe('failed');
    const sent = await send('delivered@resend.dev', 'Outcome probe 2');
    await t.emu.clock.advance('1s');
    await t.anon.post(`/_emulator/emails/${sent}/events`).send({ type: 'failed' }).expect(200);
    await t.emu.clock.advance('1m');
    expect(await lastEvent(queued)).toBe('failed');
    expect(await lastEvent(sent)).toBe('failed');
    expect(received().map((e) => [e.type, e.data.email_id, e.data.failed?.reason])).toEqual([
      ['email.failed', queued, 'reached_daily_quota'],
      ['email.sent', sent, undefined],
      ['email.failed', sent, 'reached_daily_quota'],
    ]);
    expect((await t.anon.post(`/_emulator/emails/${sent}/events`).send({ type: 'opened', reason: 'x' })).body.message).toMatch(/`reason` field applies to `type: "failed"` only/);
  });
});
