import { describe, expect, it } from 'vitest';
import { listenerAdded, useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';
import { busOf } from '../../src/internals.js';

const FROM = 'Acme <hello@example.com>';

describe('admin: sent emails', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });
  const send = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/emails').send({ from: FROM, subject: 'Hello', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };

  it('shows every detail of a sent email', async () => {
    const id = await send({
      to: 'delivered@resend.dev', cc: 'delivered+cc@resend.dev', reply_to: ['r@example.com'],
      html: '<p>Confirm: <a href="https://app.example.com/confirm?t=1&amp;u=2">here</a> or https://app.example.com/help.</p>',
      text: 'Visit https://app.example.com/text-only now',
      headers: { 'X-Ref': 'r1' }, tags: [{ name: 'kind', value: 'confirm' }],
      attachments: [{ filename: 'a.txt', content: Buffer.from('hello').toString('base64') }],
    });
    await t.emu.clock.advance('3s');
    const res = await t.anon.get(`/_emulator/emails/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id, team_id: FIXTURES.defaultTeamId, from: FROM, to: ['delivered@resend.dev'], cc: ['delivered+cc@resend.dev'], bcc: [],
      reply_to: ['r@example.com'], subject: 'Hello', headers: { 'X-Ref': 'r1' }, tags: [{ name: 'kind', value: 'confirm' }],
      last_event: 'delivered', scheduled_at: null, broadcast_id: null, template_id: null,
      attachments: [{ id: expect.any(String), filename: 'a.txt', content_type: 'text/plain', content_id: null, size: 5 }],
    });
    expect(res.body.events.map((e: any) => e.type)).toEqual(['queued', 'sent', 'delivered']);
    expect(res.body.events[2].at).toMatch(/Z$/);
    expect(res.body.links).toEqual(['https://app.example.com/confirm?t=1&u=2', 'https://app.example.com/help', 'https://app.example.com/text-only']);
    const dl = await t.anon.get(`/_emulator/emails/${id}/attachments/${res.body.attachments[0].id}`);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toContain('text/plain');
    expect(dl.text).toBe('hello');
    expect((await t.anon.get(`/_emulator/emails/${id}/attachments/nope`)).status).toBe(404);
    expect((await t.anon.get('/_emulator/emails/nope')).status).toBe(404);
  });

  it('lists every team newest first, with filters', async () => {
    const a = await send({ to: 'Alice <delivered+alice@resend.dev>', subject: 'Reset your password', text: 'x', tags: [{ name: 'kind', value: 'reset' }] });
    const b = await send({ to: 'delivered+bob@resend.dev', bcc: 'audit@example.org', subject: 'Welcome', text: 'x', tags: [{ name: 'kind', value: 'welcome' }] });
    const other = await t.as(FIXTURES.secondTeamKey).post('/emails').send({ from: 'me@claimable.dev', to: 'delivered@resend.dev', subject: 'Other team', text: 'x' });
    const all = await t.anon.get('/_emulator/emails');
    expect(all.body.object).toBe('list');
    expect(all.body.data.slice(0, 3).map((e: any) => e.id)).toEqual([other.body.id, b, a]);
    const ids = async (q: string) => (await t.anon.get(`/_emulator/emails?${q}`)).body.data.map((e: any) => e.id);
    expect(await ids('to=DELIVERED%2BALICE')).toEqual([a]);
    expect(await ids('to=audit@example.org')).toEqual([b]);
    expect(await ids('subject=password')).toEqual([a]);
    expect(await ids('from=claimable')).toEqual([other.body.id]);
    expect(await ids('tag=kind')).toEqual([b, a]);
    expect(await ids('tag=kind:welcome')).toEqual([b]);
    expect(await ids(`team_id=${FIXTURES.secondTeamId}`)).toEqual([other.body.id]);
    expect(t.emu.emails({ to: 'delivered+bob' }).map((e) => e.id)).toEqual([b]);
  });

  it('long-polls with wait: answers when a matching email arrives, or an empty list on timeout', async () => {
    const waiting = listenerAdded(busOf(t.emu), 'email');
    const pending = t.anon.get('/_emulator/emails?to=late@example.org&wait=5000').then((r) => r);
    await waiting; // the server holds the request: what is sent from here on is "later"
    const id = await send({ to: ['delivered@resend.dev', 'owner@example.com'], text: 'x' });
    await send({ to: 'late@example.org', subject: 'Late one', text: 'x' });
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].subject).toBe('Late one');
    expect(res.body.data[0].id).not.toBe(id);

    const started = Date.now();
    const none = await t.anon.get('/_emulator/emails?to=never@example.org&wait=200');
    expect(none.body).toEqual({ object: 'list', data: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('waitForEmail resolves with the first match and rejects on timeout', async () => {
    // waitForEmail registers its waiter at once (nothing matches yet), so the email sent next arrives after it.
    const waiting = t.emu.waitForEmail({ subject: 'Magic link' }, { timeout: 5000 });
    await send({ to: 'delivered@resend.dev', subject: 'Your Magic link', html: '<a href="https://app.example.com/magic?t=abc">Sign in</a>' });
    const email = await waiting;
    expect(email.links).toEqual(['https://app.example.com/magic?t=abc']);
    await expect(t.emu.waitForEmail({ subject: 'never' }, { timeout: 100 })).rejects.toThrow(/no email matched/);
  });

  it('the default fixtures hold no sent email, so any wait waits for the test\'s own email', async () => {
    expect(t.emu.emails()).toEqual([]);
    await expect(t.emu.waitForEmail({ subject: 'Welcome' }, { timeout: 50 })).rejects.toThrow('waitForEmail: no email matched {"subject":"Welcome"} within 50 ms');
    const waiting = t.emu.waitForEmail({}, { timeout: 5000 });
    const id = await send({ to: 'delivered@resend.dev', text: 'mine' });
    expect((await waiting).id).toBe(id);
  });

  it('emu.emails() and waitForEmail() reject an unknown filter key, naming it and the allowed keys', async () => {
    await send({ to: 'delivered@resend.dev', subject: 'Typo target', text: 'x' });
    expect(() => t.emu.emails({ subjct: 'x' } as any)).toThrow(TypeError);
    expect(() => t.emu.emails({ subjct: 'x' } as any)).toThrow(/unknown email filter key "subjct" \(did you mean "subject"\?\); allowed: to, from, subject, tag, team_id, last_event/);
    expect(() => t.emu.emails({ recipient: 'x' } as any)).toThrow(/unknown email filter key "recipient"; allowed: to, from/);
    expect(() => t.emu.emails({ to: ['a@b.c'] } as any)).toThrow(/email filter "to" must be a string/);
    await expect(t.emu.waitForEmail({ subjct: 'never sent' } as any, { timeout: 5000 })).rejects.toThrow(TypeError);
    await expect(t.emu.waitForEmail({ subjct: 'never sent' } as any, { timeout: 5000 })).rejects.toThrow(/"subjct"/);
    // Known keys with undefined values are fine; over HTTP unknown query parameters are ignored.
    expect(t.emu.emails({ subject: 'Typo target', to: undefined })).toHaveLength(1);
    const http = await t.anon.get('/_emulator/emails?subjct=x&subject=Typo%20target');
    expect(http.status).toBe(200);
    expect(http.body.data).toHaveLength(1);
  });

  it('simulates opens and clicks of a delivered email, with email.opened and email.clicked', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/a', events: ['email.opened', 'email.clicked'] });
    const id = await send({ to: 'delivered@resend.dev', html: '<a href="https://example.com/a">a</a> <a href="https://example.com/b">b</a>' });
    const early = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'opened' });
    expect(early.status).toBe(422);
    expect(early.body.name).toBe('validation_error');
    await t.emu.clock.advance('3s');
    const opened = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'opened' });
    expect(opened.status).toBe(200);
    expect(opened.body.last_event).toBe('opened');
    const clicked = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'clicked', link: 'https://example.com/b' });
    expect(clicked.body.last_event).toBe('clicked');
    expect(clicked.body.events.map((e: any) => e.type)).toEqual(['queued', 'sent', 'delivered', 'opened', 'clicked']);
    expect((await t.api.get(`/emails/${id}`)).body.last_event).toBe('clicked');
    const d = t.emu.webhookDeliveries();
    expect(d.map((x) => x.event_type)).toEqual(['email.opened', 'email.clicked']);
    expect(d[1].payload.data.click).toEqual({ ipAddress: expect.any(String), link: 'https://example.com/b', timestamp: expect.stringMatching(/Z$/), userAgent: expect.any(String) });
    const firstLink = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'clicked' });
    expect(t.emu.webhookDeliveries()[2].payload.data.click.link).toBe('https://example.com/a');
    expect(firstLink.status).toBe(200);
    expect((await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'bounced' })).status).toBe(400);
  });

  it('keeps emails and attachment bytes through a snapshot export and import', async () => {
    const id = await send({ to: 'delivered@resend.dev', text: 'x', attachments: [{ filename: 'b.bin', content: Buffer.from([0, 1, 2, 255]).toString('base64') }] });
    const snap = await t.anon.get('/_emulator/snapshot');
    expect(snap.status).toBe(200);
    await t.anon.post('/_emulator/reset');
    expect((await t.anon.get(`/_emulator/emails/${id}`)).status).toBe(404);
    expect((await t.anon.post('/_emulator/snapshot').send(snap.body)).status).toBe(200);
    const email = (await t.anon.get(`/_emulator/emails/${id}`)).body;
    const dl = await t.anon.get(`/_emulator/emails/${id}/attachments/${email.attachments[0].id}`).buffer(true);
    expect([...dl.body]).toEqual([0, 1, 2, 255]);
  });
});

describe('admin: sent emails of the demo fixtures', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });

  it('the demo emails go to the fixture contacts, so a wait for delivered@resend.dev waits for the test\'s own email', async () => {
    const seeded = t.emu.emails({ team_id: FIXTURES.defaultTeamId });
    expect(seeded.map((e) => e.subject)).toEqual(["What's new in January", 'Your invoice for December', 'Welcome to Acme']);
    for (const e of seeded) expect([...e.to, ...e.cc, ...e.bcc].filter((a) => a.includes('resend.dev'))).toEqual([]);
    expect(t.emu.emails({ to: 'resend.dev' })).toEqual([]);
    expect(t.emu.emails({ subject: 'Welcome to Acme' })[0].to).toEqual(['alice@example.org']);
    const waiting = t.emu.waitForEmail({ to: 'delivered@resend.dev' }, { timeout: 5000 });
    const res = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Hello', text: 'mine' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await waiting).id).toBe(res.body.id);
  });
});
