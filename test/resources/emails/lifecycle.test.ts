import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

const FROM = 'Acme <hello@example.com>';
const ALL_EVENTS = [
  'email.sent', 'email.delivered', 'email.bounced', 'email.complained', 'email.opened', 'email.clicked',
  'email.failed', 'email.scheduled', 'email.suppressed', 'suppression.added', 'suppression.removed',
];

describe('email lifecycle on the clock', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  async function hook() {
    const res = await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/resend', events: ALL_EVENTS });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  const send = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/emails').send({ from: FROM, subject: 'Hello', html: '<p>Hi</p>', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  const lastEvent = async (id: string) => (await t.api.get(`/emails/${id}`)).body.last_event;
  const types = () => t.emu.webhookDeliveries().map((d) => d.event_type);

  it('delivered@: queued → sent (1 s) → delivered (2 s later), with email.sent and email.delivered', async () => {
    await hook();
    const id = await send({ to: 'delivered+signup@resend.dev', tags: [{ name: 'kind', value: 'welcome' }], headers: { 'X-Ref': 'r1' } });
    expect(await lastEvent(id)).toBe('queued');
    expect(types()).toEqual([]);
    await t.emu.clock.advance(999);
    expect(await lastEvent(id)).toBe('queued');
    await t.emu.clock.advance(1);
    expect(await lastEvent(id)).toBe('sent');
    await t.emu.clock.advance('2s');
    expect(await lastEvent(id)).toBe('delivered');
    const deliveries = t.emu.webhookDeliveries();
    expect(deliveries.map((d) => d.event_type)).toEqual(['email.sent', 'email.delivered']);
    const data = deliveries[1].payload.data;
    expect(data).toEqual({
      email_id: id,
      created_at: expect.stringMatching(/Z$/),
      from: FROM,
      to: ['delivered+signup@resend.dev'],
      subject: 'Hello',
      message_id: expect.stringMatching(/^<.+>$/),
      tags: { kind: 'welcome' },
      headers: [{ name: 'X-Ref', value: 'r1' }],
    });
    expect(deliveries[1].payload.type).toBe('email.delivered');
    expect(deliveries[0].status).toBe('recorded');
  });

  it('leaves headers and tags out of the payload when none were set', async () => {
    await hook();
    await send({ to: 'delivered@resend.dev' });
    await t.emu.clock.advance('1s');
    const data = t.emu.webhookDeliveries()[0].payload.data;
    expect(data).not.toHaveProperty('headers');
    expect(data).not.toHaveProperty('tags');
    expect(data).not.toHaveProperty('broadcast_id');
  });

  it('bounced@: sent → bounced (Permanent, 550 5.1.1) and the address joins the suppression list', async () => {
    await hook();
    const id = await send({ to: 'bounced@resend.dev' });
    await t.emu.clock.advance('3s');
    expect(await lastEvent(id)).toBe('bounced');
    expect(types()).toEqual(['email.sent', 'email.bounced', 'suppression.added']);
    const bounce = t.emu.webhookDeliveries({ event_type: 'email.bounced' })[0].payload.data.bounce;
    expect(bounce).toMatchObject({ type: 'Permanent', subType: 'General' });
    // The service's words for a Permanent/General bounce (a payload recorded from the service).
    expect(bounce.message).toBe(
      "The recipient's email provider sent a hard bounce message, but didn't specify the reason for the hard bounce. We recommend removing the recipient's email address from your mailing list. Sending messages to addresses that produce hard bounces can have a negative impact on your reputation as a sender.",
    );
    expect(bounce.diagnosticCode).toEqual([expect.stringContaining('550 5.1.1')]);
    const added = t.emu.webhookDeliveries({ event_type: 'suppression.added' })[0].payload.data;
    expect(added).toMatchObject({ email: 'bounced@resend.dev', origin: 'bounce', source_id: id });
    const s = await t.api.get('/suppressions/bounced%40resend.dev');
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ object: 'suppression', origin: 'bounce', source_id: id });

    // The next send to it is suppressed, without email.sent.
    const again = await send({ to: 'bounced@resend.dev' });
    await t.emu.clock.advance('5s');
    expect(await lastEvent(again)).toBe('suppressed');
    const last = t.emu.webhookDeliveries().slice(3).map((d) => d.event_type);
    expect(last).toEqual(['email.suppressed']);
    const sup = t.emu.webhookDeliveries({ event_type: 'email.suppressed' })[0].payload.data.suppressed;
    expect(sup).toMatchObject({ type: 'OnAccountSuppressionList', reason: 'previous_bounce' });
    // The service's words (D:webhooks/emails/suppressed).
    expect(sup.message).toBe('Resend has suppressed sending to this address because it is on the account-level suppression list. This does not count toward your bounce rate metric');
  });

  it('complained@: delivered, then complained, and suppressed with origin complaint', async () => {
    await hook();
    const id = await send({ to: 'complained+x@resend.dev' });
    await t.emu.clock.advance('3s');
    expect(await lastEvent(id)).toBe('delivered');
    await t.emu.clock.advance('2s');
    expect(await lastEvent(id)).toBe('complained');
    expect(types()).toEqual(['email.sent', 'email.delivered', 'email.complained', 'suppression.added']);
    const list = await t.api.get('/suppressions?origin=complaint');
    expect(list.body.data.map((s: any) => s.email)).toEqual(['complained+x@resend.dev']);
  });

  it('suppressed@ (no label): suppressed with reason previous_bounce and no email.sent', async () => {
    await hook();
    const id = await send({ to: 'suppressed@resend.dev' });
    await t.emu.clock.advance('10s');
    expect(await lastEvent(id)).toBe('suppressed');
    expect(types()).toEqual(['email.suppressed']);
    expect(t.emu.webhookDeliveries()[0].payload.data.suppressed).toMatchObject({
      reason: 'previous_bounce',
      type: 'Suppressed',
      // The service's words for this type (D:webhooks/emails/bounced, its `subType: "Suppressed"` example).
      message: "The recipient's email address is on the suppression list because it has a recent history of producing hard bounces.",
    });
    const labelled = await send({ to: 'suppressed+x@resend.dev' });
    await t.emu.clock.advance('3s');
    expect(await lastEvent(labelled)).toBe('delivered');
  });

  it('suppresses an address of the team list (manual) and delivers to the other recipients', async () => {
    await hook();
    await t.api.post('/suppressions').send({ email: 'Blocked@Example.net' });
    const only = await send({ to: 'blocked@example.net' });
    const mixed = await send({ to: ['blocked@example.net', 'delivered@resend.dev'] });
    await t.emu.clock.advance('3s');
    expect(await lastEvent(only)).toBe('suppressed');
    expect(await lastEvent(mixed)).toBe('delivered');
    const forMixed = t.emu.webhookDeliveries().filter((d) => d.payload.data.email_id === mixed).map((d) => d.event_type);
    expect(forMixed).toEqual(['email.suppressed', 'email.sent', 'email.delivered']);
    // Another team's list does not apply.
    const otherTeam = await storeOf(t.emu).prepare('SELECT COUNT(*) AS n FROM suppressions').get() as { n: number };
    expect(otherTeam.n).toBe(1);
  });

  it('scheduled: email.scheduled at once, sent at scheduled_at; reschedule and cancel', async () => {
    await hook();
    const id = await send({ to: 'delivered@resend.dev', scheduled_at: 'in 10 min' });
    expect(types()).toEqual(['email.scheduled']);
    await t.emu.clock.advance('9m');
    expect(await lastEvent(id)).toBe('scheduled');
    const upd = await t.api.patch(`/emails/${id}`).send({ scheduled_at: 'in 1 hour' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'email', id });
    await t.emu.clock.advance('2m');
    expect(await lastEvent(id)).toBe('scheduled');
    await t.emu.clock.advance('1h');
    expect(await lastEvent(id)).toBe('delivered');
    expect(types()).toEqual(['email.scheduled', 'email.sent', 'email.delivered']);

    const other = await send({ to: 'delivered@resend.dev', scheduled_at: 'in 5 min' });
    const cancel = await t.api.post(`/emails/${other}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ object: 'email', id: other });
    await t.emu.clock.advance('1h');
    expect(await lastEvent(other)).toBe('canceled');
    // canceled is final
    const again = await t.api.patch(`/emails/${other}`).send({ scheduled_at: 'in 1 hour' });
    expect(again.status).toBe(422);
    expect(again.body.name).toBe('validation_error');
    expect((await t.api.post(`/emails/${other}/cancel`)).status).toBe(422);
  });

  it('refuses to update or cancel an email that is not scheduled (422)', async () => {
    const id = await send({ to: 'delivered@resend.dev' });
    const upd = await t.api.patch(`/emails/${id}`).send({ scheduled_at: 'in 1 hour' });
    expect(upd.status).toBe(422);
    expect(upd.body.name).toBe('validation_error');
    const c = await t.api.post(`/emails/${id}/cancel`);
    expect(c.status).toBe(422);
    expect((await t.api.post('/emails/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a/cancel')).status).toBe(404);
  });
});
