/**
 * Sending a broadcast to real contacts. These tests go through the contacts,
 * segments, topics, contact-properties and emails modules (the contracts
 * `segmentContactsPage`, `topicSubscription`, `contactPropertyValues`,
 * `sendEmail`, `emailsOfBroadcast`) end to end.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { emailsOfBroadcast } from '../../../src/resources/emails/service.js';
import { NEWSLETTER_SEGMENT, createBroadcast, getBroadcast } from './helpers.js';
import { contextOf, schedulerOf, storeOf } from '../../../src/internals.js';

async function ok(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function segment(t: TestEmulator, name = 'Readers'): Promise<string> {
  return (await ok(await t.api.post('/segments').send({ name }), 'create segment')).id;
}

async function contact(t: TestEmulator, segmentId: string, body: Record<string, unknown>): Promise<string> {
  return (await ok(await t.api.post('/contacts').send({ ...body, segments: [{ id: segmentId }] }), 'create contact')).id;
}

/** The emails the broadcast produced (ids from the emails module's `emailsOfBroadcast`), as GET /emails/{id} shows them. */
async function emailsOf(t: TestEmulator, broadcastId: string) {
  const out = [];
  for (const e of emailsOfBroadcast(contextOf(t.emu), broadcastId)) out.push(await ok(await t.api.get(`/emails/${e.id}`), 'get email'));
  return out;
}

describe('broadcasts: sending to a segment', () => {
  const t = useFreshEmulatorPerTest();

  it('draft → queued → sent on the clock, one rendered email per subscribed contact, sent_at set', async () => {
    const seg = await segment(t);
    await contact(t, seg, { email: 'ada@example.org', first_name: 'Ada' });
    await contact(t, seg, { email: 'anon@example.org' });
    await contact(t, seg, { email: 'gone@example.org', first_name: 'Gone', unsubscribed: true });
    const id = await createBroadcast(t, {
      segment_id: seg,
      subject: 'News for {{{contact.first_name|you}}}',
      html: '<p>Hi {{{contact.first_name|there}}}</p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">unsubscribe</a>',
      text: 'Hi {{{contact.first_name|there}}}',
    });
    expect((await getBroadcast(t, id)).status).toBe('draft');
    await ok(await t.api.post(`/broadcasts/${id}/send`).send({}), 'send');
    const queued = await getBroadcast(t, id);
    expect(queued.status).toBe('queued');
    expect(queued.sent_at).toBeNull();
    const fired = await t.emu.clock.advance('1s');
    expect(fired.map((j) => j.type)).toContain('broadcasts.deliver');
    const sent = await getBroadcast(t, id);
    expect(sent.status).toBe('sent');
    expect(sent.sent_at).not.toBeNull();
    const emails = await emailsOf(t, id);
    expect(emails.map((e) => e.to).flat().sort()).toEqual(['ada@example.org', 'anon@example.org']);
    const ada = emails.find((e) => e.to.includes('ada@example.org'));
    const anon = emails.find((e) => e.to.includes('anon@example.org'));
    expect(ada.subject).toBe('News for Ada');
    expect(anon.subject).toBe('News for you');
    expect(ada.html).toContain('<p>Hi Ada</p>');
    expect(anon.html).toContain('<p>Hi there</p>');
    expect(ada.text).toBe('Hi Ada');
    expect(ada.html).toMatch(/href="http:\/\/[^"]+\/_emulator\/unsubscribe\/[A-Za-z0-9_-]+"/);
    expect(ada.html).not.toBe(anon.html.replace('there', 'Ada'));
    expect(ada.from).toBe('Acme <news@example.com>');
  });

  it('fills contact properties with the team fallback', async () => {
    // The fixtures' `company` property (fallback "your company").
    expect((await t.api.get('/contact-properties')).body.data.find((p: any) => p.key === 'company').fallback_value).toBe('your company');
    const seg = await segment(t);
    await contact(t, seg, { email: 'with@example.org', properties: { company: 'Acme' } });
    await contact(t, seg, { email: 'without@example.org' });
    const id = await createBroadcast(t, { segment_id: seg, html: '<p>Team {{{contact.company}}}</p>', send: true });
    await t.emu.clock.advance('1s');
    const emails = await emailsOf(t, id);
    expect(emails.find((e) => e.to.includes('with@example.org')).html).toContain('Team Acme');
    expect(emails.find((e) => e.to.includes('without@example.org')).html).toContain('Team your company');
  });

  it('respects topic subscriptions: opted-out contacts get nothing (default opt_in topic)', async () => {
    const topic = (await ok(await t.api.post('/topics').send({ name: 'Product news', default_subscription: 'opt_in' }), 'topic')).id;
    const seg = await segment(t);
    await contact(t, seg, { email: 'in@example.org' });
    await contact(t, seg, { email: 'out@example.org', topics: [{ id: topic, subscription: 'opt_out' }] });
    const id = await createBroadcast(t, { segment_id: seg, topic_id: topic, send: true });
    expect((await getBroadcast(t, id)).topic_id).toBe(topic);
    await t.emu.clock.advance('1s');
    expect((await getBroadcast(t, id)).status).toBe('sent');
    expect((await emailsOf(t, id)).map((e) => e.to).flat()).toEqual(['in@example.org']);
  });

  it('a default opt_out topic reaches only contacts that opted in', async () => {
    const topic = (await ok(await t.api.post('/topics').send({ name: 'Beta', default_subscription: 'opt_out' }), 'topic')).id;
    const seg = await segment(t);
    await contact(t, seg, { email: 'quiet@example.org' });
    await contact(t, seg, { email: 'keen@example.org', topics: [{ id: topic, subscription: 'opt_in' }] });
    const id = await createBroadcast(t, { segment_id: seg, topic_id: topic, send: true });
    await t.emu.clock.advance('1s');
    expect((await emailsOf(t, id)).map((e) => e.to).flat()).toEqual(['keen@example.org']);
  });

  it('sends in batches of 100; canceling mid-send keeps what went out and stops the rest', async () => {
    const seg = await segment(t);
    for (let i = 0; i < 150; i++) await contact(t, seg, { email: `reader${i}@example.org` });
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1s');
    expect((await getBroadcast(t, id)).status).toBe('queued');
    expect(emailsOfBroadcast(contextOf(t.emu), id)).toHaveLength(100);
    await ok(await t.api.post(`/broadcasts/${id}/cancel`), 'cancel');
    await t.emu.clock.advance('1m');
    const b = await getBroadcast(t, id);
    expect(b.status).toBe('canceled');
    expect(b.sent_at).toBeNull();
    expect(emailsOfBroadcast(contextOf(t.emu), id)).toHaveLength(100);
  });

  it('a batch\'s emails share one emails.send-many and one emails.deliver-many job, each with the lifecycle and times of its own', async () => {
    const seg = await segment(t);
    await contact(t, seg, { email: 'delivered@resend.dev' });
    await contact(t, seg, { email: 'bounced@resend.dev' });
    await contact(t, seg, { email: 'complained@resend.dev' });
    await contact(t, seg, { email: 'suppressed@resend.dev' });
    await contact(t, seg, { email: 'failed-meanwhile@example.org' });
    // fetch refuses port 9 (a "bad port"): each attempt fails on this machine, nothing leaves it (test/local-webhooks.ts); only the recorded deliveries are read.
    // Two endpoints: the batch reads the subscriptions once, and every step still reaches each endpoint that listens.
    const sentHook = (await ok(await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/a', events: ['email.sent', 'email.delivered'] }), 'webhook')).id;
    const bounceHook = (await ok(await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/b', events: ['email.bounced', 'email.sent'] }), 'webhook')).id;
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    const start = t.emu.clock.nowMs();
    const types = (fired: { type: string }[]) => fired.map((j) => j.type).filter((type) => type.startsWith('emails.') || type.startsWith('broadcasts.'));
    expect(types(await t.emu.clock.advance('1s'))).toEqual(['broadcasts.deliver']);
    const byTo = new Map((await emailsOf(t, id)).map((e: any) => [e.to[0], e.id as string]));
    expect(byTo.size).toBe(5);
    // Every email queued, none with a send job of its own: one job holds them all, in the segment's order.
    expect(schedulerOf(t.emu).pending().filter((j) => j.type.startsWith('emails.')).map((j) => j.type)).toEqual(['emails.send-many']);
    const failed = await t.anon.post(`/_emulator/emails/${byTo.get('failed-meanwhile@example.org')}/events`).send({ type: 'failed', reason: 'reached_daily_quota' });
    expect(failed.status).toBeLessThan(300);
    expect(types(await t.emu.clock.advance('1s'))).toEqual(['emails.send-many']);
    expect(types(await t.emu.clock.advance('2s'))).toEqual(['emails.deliver-many']);
    await t.emu.clock.advance('1m');
    const history = (to: string) => (storeOf(t.emu).prepare('SELECT events FROM emails WHERE id = ?').pluck().get(byTo.get(to)) as string);
    const steps = (to: string) => (JSON.parse(history(to)) as { type: string; at: number }[]).map((e) => `${e.type}@${e.at - start}`);
    expect(steps('delivered@resend.dev')).toEqual(['queued@1000', 'sent@2000', 'delivered@4000']);
    expect(steps('bounced@resend.dev')).toEqual(['queued@1000', 'sent@2000', 'bounced@4000']);
    expect(steps('complained@resend.dev')).toEqual(['queued@1000', 'sent@2000', 'delivered@4000', 'complained@6000']);
    expect(steps('suppressed@resend.dev')).toEqual(['queued@1000', 'suppressed@2000']);
    // Failed by the admin API while queued: the batch's send step leaves it as it is.
    expect(steps('failed-meanwhile@example.org').map((s) => s.split('@')[0])).toEqual(['queued', 'failed']);
    // The bounce joined the suppression list, as with a job per email.
    expect((await t.api.get('/suppressions')).body.data.map((s: any) => s.email)).toContain('bounced@resend.dev');
    const deliveries = (hook: string) =>
      (storeOf(t.emu).prepare('SELECT event_type, payload FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq').all(hook) as { event_type: string; payload: string }[])
        .map((d) => `${d.event_type} ${JSON.parse(d.payload).data.to[0]}`)
        .sort();
    expect(deliveries(sentHook)).toEqual(
      ['email.sent bounced@resend.dev', 'email.sent complained@resend.dev', 'email.sent delivered@resend.dev', 'email.delivered complained@resend.dev', 'email.delivered delivered@resend.dev'].sort(),
    );
    // The webhook data of a step read from the email's whole row, as with a job per email.
    const sentData = JSON.parse((storeOf(t.emu).prepare(`SELECT payload FROM webhook_deliveries WHERE webhook_id = ? AND event_type = 'email.sent' ORDER BY seq LIMIT 1`).get(sentHook) as { payload: string }).payload).data;
    const email = (await ok(await t.api.get(`/emails/${sentData.email_id}`), 'get email')) as any;
    expect(sentData).toMatchObject({ email_id: email.id, from: email.from, to: email.to, subject: email.subject, message_id: email.message_id, broadcast_id: id });
    expect(sentData.headers.map((h: any) => h.name)).toEqual(['List-Unsubscribe', 'List-Unsubscribe-Post']);
    expect(deliveries(bounceHook)).toEqual(['email.bounced bounced@resend.dev', 'email.sent bounced@resend.dev', 'email.sent complained@resend.dev', 'email.sent delivered@resend.dev'].sort());
  });

  it("an email whose step throws is rolled back alone and recorded as its own emails.send job's failure; the batch's other steps, and an outcome rule's count, are as with a job each", async () => {
    const seg = await segment(t);
    for (const email of ['a@example.org', 'boom@example.org', 'c@example.org', 'd@example.org']) await contact(t, seg, { email });
    // The second email's every UPDATE fails (its step throws after the fault rule decided it).
    storeOf(t.emu).exec(`CREATE TEMP TRIGGER boom BEFORE UPDATE ON emails WHEN OLD.to_addrs LIKE '%boom@%' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    const rule = t.emu.faults.add({ outcome: 'failed', times: 2 });
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1m');
    const emails = emailsOfBroadcast(contextOf(t.emu), id);
    const last = new Map(emails.map((e) => [e.to[0], e.last_event]));
    // The rule fired for the first two emails once each (the failing one's draw is not taken again), then ran out.
    expect(Object.fromEntries(last)).toEqual({ 'a@example.org': 'failed', 'boom@example.org': 'queued', 'c@example.org': 'delivered', 'd@example.org': 'delivered' });
    expect(t.emu.faults.list().find((r) => r.id === rule.id)!.fired).toBe(2);
    // The same record as a single email's failed emails.send job (test/resources/broadcasts/failed-email.test.ts).
    const failed = storeOf(t.emu).prepare(`SELECT type, payload, error FROM jobs WHERE status = 'failed'`).all() as { type: string; payload: string; error: string }[];
    const boom = emails.find((e) => e.to[0] === 'boom@example.org')!.id;
    expect(failed.map((f) => ({ type: f.type, payload: JSON.parse(f.payload) }))).toEqual([{ type: 'emails.send', payload: { email_id: boom } }]);
    expect(failed[0].error).toMatch(/^SqliteError: boom/);
  });

  it('an email whose step writes several statements (a webhook takes its event) and fails after the first is rolled back alone', async () => {
    const seg = await segment(t);
    for (const email of ['a@example.org', 'boom@example.org', 'c@example.org']) await contact(t, seg, { email });
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hook', events: ['email.sent'] }).expect(201);
    // The second email's delivery fails, after its row's UPDATE was written: that UPDATE must be undone too.
    storeOf(t.emu).exec(`CREATE TEMP TRIGGER boom BEFORE INSERT ON webhook_deliveries WHEN NEW.payload LIKE '%boom@%' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1m');
    const emails = emailsOfBroadcast(contextOf(t.emu), id);
    const sentFor = t.emu.webhookDeliveries({ event_type: 'email.sent' }).map((d) => (d.payload.data.to as string[])[0]).sort();
    expect(sentFor).toEqual(['a@example.org', 'c@example.org']);
    expect(emails.find((e) => e.to[0] === 'boom@example.org')!.last_event).toBe('queued');
  });

  it('a scheduled broadcast sends when its time comes', async () => {
    const seg = await segment(t);
    await contact(t, seg, { email: 'later@example.org', first_name: 'Lee' });
    const id = await createBroadcast(t, { segment_id: seg, send: true, scheduled_at: 'in 1 hour' });
    await t.emu.clock.advance('59m');
    expect(await emailsOf(t, id)).toEqual([]);
    await t.emu.clock.advance('1m1s');
    expect((await getBroadcast(t, id)).status).toBe('sent');
    expect((await emailsOf(t, id))[0].html).toContain('Hi Lee');
  });

  it('after sending, update (except name) and delete are refused', async () => {
    const seg = await segment(t);
    await contact(t, seg, { email: 'x@example.org' });
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1s');
    expect((await getBroadcast(t, id)).status).toBe('sent');
    const upd = await t.api.patch(`/broadcasts/${id}`).send({ html: '<p>changed</p>' });
    expect(upd.status).toBe(403);
    expect(upd.body.name).toBe('validation_error');
    const del = await t.api.delete(`/broadcasts/${id}`);
    expect(del.status).toBe(403);
    expect(del.body.name).toBe('validation_error');
    expect((await t.api.patch(`/broadcasts/${id}`).send({ name: 'Done' })).status).toBe(200);
  });

  it('lists recipients by event type, filtered by email, with cursors', async () => {
    const seg = await segment(t);
    await contact(t, seg, { email: 'delivered+a@resend.dev' });
    await contact(t, seg, { email: 'delivered+b@resend.dev' });
    await contact(t, seg, { email: 'bounced@resend.dev' });
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1s');
    await t.emu.clock.advance('1h');
    const sent = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=sent`), 'recipients');
    expect(sent.data.map((r: any) => r.email).sort()).toEqual(['bounced@resend.dev', 'delivered+a@resend.dev', 'delivered+b@resend.dev']);
    expect(sent.data[0]).toEqual({ id: expect.any(String), contact_id: expect.any(String), email: expect.any(String) });
    const delivered = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=delivered`), 'delivered');
    expect(delivered.data.map((r: any) => r.email).sort()).toEqual(['delivered+a@resend.dev', 'delivered+b@resend.dev']);
    const bounced = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=bounced`), 'bounced');
    expect(bounced.data).toEqual([{ id: expect.any(String), contact_id: expect.any(String), email: 'bounced@resend.dev', bounce_type: 'permanent' }]);
    const one = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=sent&email=DELIVERED%2Ba@resend.dev`), 'by email');
    expect(one.data.map((r: any) => r.email)).toEqual(['delivered+a@resend.dev']);
    const page = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=sent&limit=2`), 'page');
    expect(page.has_more).toBe(true);
    const rest = await ok(await t.api.get(`/broadcasts/${id}/recipients?type=sent&limit=2&after=${page.data[1].id}`), 'page 2');
    expect(rest.has_more).toBe(false);
    expect([...page.data, ...rest.data].map((r: any) => r.email).sort()).toEqual(sent.data.map((r: any) => r.email).sort());
  });

  it('rejects an unknown segment (404 Audience not found) and an unknown topic (404 Topic not found)', async () => {
    const seg = await t.api.post('/broadcasts').send({ segment_id: '00000000-0000-4000-8000-000000000000', from: 'a@example.com', subject: 's', html: 'h' });
    expect(seg.status).toBe(404);
    expect(seg.body).toEqual({ statusCode: 404, message: 'Audience not found', name: 'not_found' });
    const topic = await t.api.post('/broadcasts').send({ segment_id: NEWSLETTER_SEGMENT, topic_id: '00000000-0000-4000-8000-000000000000', from: 'a@example.com', subject: 's', html: 'h' });
    expect(topic.status).toBe(404);
    expect(topic.body).toEqual({ statusCode: 404, message: 'Topic not found', name: 'not_found' });
  });

  it('the fixtures hold the Newsletter segment of the broadcasts', async () => {
    const res = await t.api.get(`/segments/${NEWSLETTER_SEGMENT}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Newsletter');
  });

  it('applies the sending rules of POST /emails when sent: 403 for onboarding@resend.dev to strangers or an unverified domain, never a silent nothing (issue 13, defect 9)', async () => {
    const seg = await segment(t, 'Mixed');
    await contact(t, seg, { email: 'owner@example.com' });
    await contact(t, seg, { email: 'stranger@example.org' });
    const testing = await createBroadcast(t, { segment_id: seg, from: 'onboarding@resend.dev' });
    const refused = await t.api.post(`/broadcasts/${testing}/send`).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('validation_error');
    expect(refused.body.message).toContain('You can only send testing emails to your own email address (owner@example.com)');
    expect((await getBroadcast(t, testing)).status).toBe('draft');
    // Created with send: true, the broadcast is not created either.
    const before = (await t.api.get('/broadcasts')).body.data.length;
    const atCreate = await t.api.post('/broadcasts').send({ name: 'x', segment_id: seg, from: 'onboarding@resend.dev', subject: 's', html: '<p>x</p>', send: true });
    expect(atCreate.status).toBe(403);
    expect((await t.api.get('/broadcasts')).body.data.length).toBe(before);
    // From a domain the team has not verified: the same 403 as POST /emails.
    const unverified = await createBroadcast(t, { segment_id: seg, from: 'news@not-mine.example' });
    const res = await t.api.post(`/broadcasts/${unverified}/send`).send({});
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('The `not-mine.example` domain is not verified. Please, add and verify your domain.');

    // To the owner (and @resend.dev addresses) only, the testing sender works.
    const own = await segment(t, 'Own');
    await contact(t, own, { email: 'owner@example.com' });
    await contact(t, own, { email: 'delivered@resend.dev' });
    const fine = await createBroadcast(t, { segment_id: own, from: 'onboarding@resend.dev' });
    expect((await t.api.post(`/broadcasts/${fine}/send`).send({})).status).toBe(200);
    await t.emu.clock.advance('5m');
    expect((await getBroadcast(t, fine)).status).toBe('sent');
    expect((await emailsOf(t, fine)).map((e: any) => e.to[0]).sort()).toEqual(['delivered@resend.dev', 'owner@example.com']);
  });
});
