/**
 * Deleting sent emails from the admin API (issue 39 item 3):
 * `DELETE /_emulator/emails/{id}` and `DELETE /_emulator/emails?team_id=…`
 * (src/admin/emails.ts, `deleteEmails` of src/resources/emails/delete.ts).
 * An email goes with its pending jobs and the webhook deliveries of its
 * events; other emails and teams are untouched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, client, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { startReceiver, type Receiver } from '../deliveries/receiver.js';
import { startServer } from '../../src/index.js';
import { schedulerOf } from '../../src/internals.js';

const FROM = `Acme <hello@${FIXTURES.verifiedDomain}>`;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function send(t: TestEmulator, subject: string): Promise<string> {
  return (await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject, text: 'x' }).expect(200)).body.id as string;
}
/** The email ids the receiver was told about. */
const emailIdsSeen = (rx: Receiver) => rx.requests.map((r) => JSON.parse(r.body).data.email_id as string);

describe('DELETE /_emulator/emails/{id}', () => {
  const t = useFreshEmulatorPerTest();

  it('answers {object, id, deleted} and the email is gone from the admin API and the API', async () => {
    const id = await send(t, 'Gone');
    expect((await t.anon.delete(`/_emulator/emails/${id}`).expect(200)).body).toEqual({ object: 'email', id, deleted: true });
    await t.anon.get(`/_emulator/emails/${id}`).expect(404);
    await t.api.get(`/emails/${id}`).expect(404);
  });

  it('leaves the other emails as they were', async () => {
    const gone = await send(t, 'Gone');
    const kept = await send(t, 'Kept');
    await t.anon.delete(`/_emulator/emails/${gone}`).expect(200);
    expect((await t.anon.get('/_emulator/emails').expect(200)).body.data.map((e: { id: string }) => e.id)).toEqual([kept]);
  });

  it('cancels its pending jobs: the clock moves on and it is never sent or delivered', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['email.sent', 'email.delivered'] }).expect(201);
    const gone = await send(t, 'Gone');
    const kept = await send(t, 'Kept');
    const before = schedulerOf(t.emu).pending().length;
    await t.anon.delete(`/_emulator/emails/${gone}`).expect(200);
    expect(schedulerOf(t.emu).pending().length).toBe(before - 1);
    await t.emu.clock.advance('10s');
    await t.emu.clock.advance('10s');
    expect(new Set(emailIdsSeen(rx))).toEqual(new Set([kept]));
  });

  it('deletes the webhook deliveries of its events, with their pending attempts', async () => {
    const rx = await startReceiver(() => 500);
    receivers.push(rx);
    await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['email.sent'] }).expect(201);
    const gone = await send(t, 'Gone');
    const kept = await send(t, 'Kept');
    await t.emu.clock.advance('1s');
    await t.emu.clock.advance(0);
    const deliveries = () => t.emu.webhookDeliveries().map((d) => JSON.parse(d.body).data.email_id as string);
    expect(deliveries().sort()).toEqual([gone, kept].sort());
    const attempts = rx.requests.length;
    await t.anon.delete(`/_emulator/emails/${gone}`).expect(200);
    expect(deliveries()).toEqual([kept]);
    await t.emu.clock.advance('1h');
    // The kept email's delivery is still retried (so the check below has attempts to look at); the deleted one's never again.
    const later = emailIdsSeen(rx).slice(attempts);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((id) => id === kept)).toBe(true);
  });

  it('leaves the team usage as it was: a quota counts what was sent, not what is still stored', async () => {
    const id = await send(t, 'Gone');
    await send(t, 'Kept');
    expect((await t.api.get('/usage').expect(200)).body.emails.daily.used).toBe(2);
    await t.anon.delete(`/_emulator/emails/${id}`).expect(200);
    await t.anon.delete('/_emulator/emails').expect(200);
    expect((await t.api.get('/usage').expect(200)).body.emails.daily.used).toBe(2);
  });

  it('answers 404 Email not found for an unknown id', async () => {
    expect((await t.anon.delete('/_emulator/emails/4ef9a417-02e9-4d39-ad75-9611e0fcc33c').expect(404)).body).toEqual({ statusCode: 404, name: 'not_found', message: 'Email not found' });
  });
});

describe('DELETE /_emulator/emails?team_id=', () => {
  const t = useFreshEmulatorPerTest();

  it("deletes every sent email of the team and answers how many; another team's stay", async () => {
    await send(t, 'One');
    await send(t, 'Two');
    const theirs = (await t.as(FIXTURES.secondTeamKey).post('/emails').send({ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 'Theirs', text: 'x' }).expect(200)).body.id;
    expect((await t.anon.delete(`/_emulator/emails?team_id=${FIXTURES.defaultTeamId}`).expect(200)).body).toEqual({ object: 'email_deletion', deleted: 2 });
    expect((await t.anon.get('/_emulator/emails').expect(200)).body.data.map((e: { id: string }) => e.id)).toEqual([theirs]);
  });

  it('without team_id deletes the sent emails of every team', async () => {
    await send(t, 'One');
    await t.as(FIXTURES.secondTeamKey).post('/emails').send({ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 'Theirs', text: 'x' }).expect(200);
    expect((await t.anon.delete('/_emulator/emails').expect(200)).body).toEqual({ object: 'email_deletion', deleted: 2 });
    expect((await t.anon.get('/_emulator/emails').expect(200)).body.data).toEqual([]);
  });

  it('leaves received emails', async () => {
    await send(t, 'One');
    await t.anon.post('/_emulator/inbound').send({ from: 'ada@example.org', to: `support@${FIXTURES.verifiedDomain}`, subject: 'In', text: 'hi' });
    const received = (await t.anon.get(`/_emulator/teams/${FIXTURES.defaultTeamId}/received-emails`).expect(200)).body.data.length;
    expect(received).toBeGreaterThan(0);
    await t.anon.delete(`/_emulator/emails?team_id=${FIXTURES.defaultTeamId}`).expect(200);
    expect((await t.anon.get(`/_emulator/teams/${FIXTURES.defaultTeamId}/received-emails`).expect(200)).body.data.length).toBe(received);
  });

  it('answers 404 Team not found for an unknown team', async () => {
    expect((await t.anon.delete('/_emulator/emails?team_id=nope').expect(404)).body).toEqual({ statusCode: 404, name: 'not_found', message: 'Team not found' });
  });
});

describe('deleting emails behind --admin-token', () => {
  it('refuses a request without the token (401) and deletes nothing', async () => {
    const emu = await startServer({ adminToken: 'secret-token-123', validateResponses: true });
    try {
      const api = client(emu.url, emu.apiKey);
      const id = (await api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Kept', text: 'x' }).expect(200)).body.id;
      expect((await client(emu.url).delete(`/_emulator/emails/${id}`).expect(401)).body.name).toBe('missing_admin_token');
      expect((await client(emu.url).delete('/_emulator/emails').expect(401)).body.name).toBe('missing_admin_token');
      await api.get(`/emails/${id}`).expect(200);
    } finally {
      await emu.close();
    }
  });
});
