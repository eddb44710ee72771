import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { emailsOfBroadcast, sendEmail } from '../../../src/resources/emails/service.js';
import { contextOf } from '../../../src/internals.js';

const FROM = 'Acme <hello@example.com>';

describe('listing the demo fixtures', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });

  it('lists the demo history of the default team (delivered and opened)', async () => {
    const res = await t.api.get('/emails');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((e: any) => e.last_event)).toEqual(['opened', 'delivered', 'opened']);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['bcc', 'cc', 'created_at', 'from', 'id', 'last_event', 'message_id', 'reply_to', 'scheduled_at', 'subject', 'to']);
    expect(res.body.data[1].cc).toEqual([FIXTURES.ownerEmail]);
    expect(res.body.data[0].cc).toBeNull();
    expect((await t.as(FIXTURES.secondTeamKey).get('/emails')).body.data).toEqual([]);
  });
});

describe('listing, sharing and metrics', () => {
  const t = useFreshEmulatorPerTest();
  const send = async (body: Record<string, unknown> = {}) => {
    const res = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Hello', text: 'x', ...body });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  it('lists no email on the default fixtures (an account set up, no history)', async () => {
    const res = await t.api.get('/emails');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', has_more: false, data: [] });
  });

  it('lists newest first, 20 by default, with cursors', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(await send({ subject: `s${i}` }));
    const page = await t.api.get('/emails');
    expect(page.body.data).toHaveLength(20);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data[0].id).toBe(ids[21]);
    const next = await t.api.get(`/emails?limit=5&after=${page.body.data[19].id}`);
    expect(next.body.data[0].id).toBe(ids[1]);
    expect((await t.api.get('/emails?limit=101')).status).toBe(422);
  });

  it('shares an email for at most 48 hours', async () => {
    const id = await send();
    const res = await t.api.post(`/emails/${id}/share`).send({ expires_in: '2 hours' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'email', id, url: expect.stringContaining(`/_emulator/emails/${id}`) });
    expect((await t.api.post(`/emails/${id}/share`).send({})).status).toBe(200);
    const tooLong = await t.api.post(`/emails/${id}/share`).send({ expires_in: '3 days' });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.name).toBe('validation_error');
  });

  it('answers 422 invalid_parameter for an id that is not a UUID', async () => {
    const res = await t.api.get('/emails/not-a-uuid');
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('invalid_parameter');
  });

  it('counts events in /emails/metrics, with totals and breakdowns', async () => {
    // From a minute past the next full hour, so every event below falls in one hourly period (a run at 12:59:58 split them).
    const now = t.emu.clock.now().getTime();
    await t.emu.clock.advance(3_600_000 - (now % 3_600_000) + 60_000);
    const a = await send({ to: 'delivered@resend.dev' });
    await send({ to: 'bounced@resend.dev' });
    await t.emu.clock.advance('5s');
    await t.anon.post(`/_emulator/emails/${a}/events`).send({ type: 'opened' });
    const res = await t.api.get('/emails/metrics');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'metrics', dimensions: [], granularity: 'daily' });
    expect(res.body.totals).toMatchObject({ sent: 2, delivered: 1, bounced: 1, bounced_permanent: 1, opened: 1, unique_opened: 1, delivery_rate: 0.5, bounce_rate: 0.5, open_rate: 1 });
    expect(res.body).not.toHaveProperty('data');

    const some = await t.api.get(`/emails/metrics?metrics=sent,delivered&dimensions=email,domain&email_id=${a}`);
    expect(some.status).toBe(200);
    expect(some.body.metrics).toEqual(['sent', 'delivered']);
    expect(some.body.totals).toEqual({ sent: 1, delivered: 1 });
    expect(some.body.data).toEqual([{ email_id: a, domain_id: FIXTURES.verifiedDomainId, domain_name: 'example.com', sent: 1, delivered: 1 }]);

    const byDay = await t.api.get('/emails/metrics?dimensions=period&granularity=hourly&metrics=sent');
    expect(byDay.body.data).toHaveLength(1);
    expect(byDay.body.data[0].period).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00$/);

    expect((await t.api.get('/emails/metrics?metrics=sent,nope')).status).toBe(422);
    expect((await t.api.get('/emails/metrics?dimensions=email,broadcast')).status).toBe(422);
    expect((await t.api.get('/emails/metrics?timezone=Mars/Base')).status).toBe(422);
    expect((await t.api.get('/emails/metrics?start_date=2026-02-01&end_date=2026-01-01')).status).toBe(422);
  });

  it('sendEmail (the contract) records broadcast emails that emailsOfBroadcast lists with their clicks', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/b', events: ['email.sent'] });
    const ctx = contextOf(t.emu);
    const bid = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
    const one = sendEmail(ctx, { from: FROM, to: 'delivered+1@resend.dev', subject: 'B', html: '<a href="https://example.com/deal">deal</a>' }, { teamId: FIXTURES.defaultTeamId, source: 'broadcast', broadcastId: bid });
    const two = sendEmail(ctx, { from: FROM, to: 'delivered+2@resend.dev', subject: 'B', text: 'x' }, { teamId: FIXTURES.defaultTeamId, source: 'broadcast', broadcastId: bid });
    expect(() => sendEmail(ctx, { from: 'me@x.com', to: 'a@example.com', subject: 'B' }, { teamId: FIXTURES.defaultTeamId, source: 'broadcast', broadcastId: bid })).toThrow(/not verified/);
    await t.emu.clock.advance('3s');
    await t.anon.post(`/_emulator/emails/${one.id}/events`).send({ type: 'clicked' });
    const list = emailsOfBroadcast(ctx, bid);
    expect(list.map((e) => e.id)).toEqual([one.id, two.id]);
    expect(list[0]).toMatchObject({ to: ['delivered+1@resend.dev'], last_event: 'clicked', clicks: [{ link: 'https://example.com/deal', at: expect.any(Number) }] });
    expect(list[1]).toMatchObject({ last_event: 'delivered', clicks: [] });
    expect(t.emu.webhookDeliveries()[0].payload.data.broadcast_id).toBe(bid);
    expect(t.emu.emails({ to: 'delivered+2' })[0].broadcast_id).toBe(bid);
  });
});
