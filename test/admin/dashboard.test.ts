/**
 * The dashboard views of a team (src/admin/dashboard.ts): seeded state, then
 * new state made through the API, and the SSE `change` / `inbound` events.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';

const TEAM = FIXTURES.defaultTeamId;

describe('admin: dashboard views', () => {
  const t = useFreshEmulatorPerTest();
  const view = async (name: string, team = TEAM) => {
    const res = await t.anon.get(`/_emulator/teams/${team}/${name}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('domains: records with statuses, verification state and claim', async () => {
    const seeded = await view('domains');
    expect(seeded.data.map((d: any) => [d.name, d.status])).toEqual([['example.com', 'verified']]);
    expect(seeded.data[0].records.every((r: any) => r.status === 'verified')).toBe(true);
    expect(seeded.data[0].claim).toBeNull();
    const claim = await t.api.post('/domains/claim').send({ name: FIXTURES.claimableDomain });
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    const fresh = await t.api.post('/domains').send({ name: 'fresh.dev' });
    await t.api.post(`/domains/${fresh.body.id}/verify`).expect(200);
    const after = await view('domains');
    const claimed = after.data.find((d: any) => d.name === FIXTURES.claimableDomain);
    expect(claimed.claim).toMatchObject({ status: 'pending', record: { type: 'TXT', name: '_resend' } });
    const pending = after.data.find((d: any) => d.name === 'fresh.dev');
    expect(pending.status).toBe('pending');
    expect(pending.records.map((r: any) => r.status)).toContain('pending');
    expect((await t.anon.get('/_emulator/teams/nope/domains')).body).toEqual({ statusCode: 404, message: 'Team not found', name: 'not_found' });
  });

  it('contacts with segments, topics and properties', async () => {
    const seeded = await view('contacts');
    expect(seeded.segments.map((s: any) => s.name)).toContain('Newsletter');
    expect(seeded.topics.map((s: any) => s.name)).toContain('Product updates');
    const alice = seeded.data.find((c: any) => c.email === 'alice@example.org');
    expect(alice.segments.map((s: any) => s.name)).toContain('Newsletter');
    expect(Object.keys(alice.properties)).toContain('company');
    const topicId = seeded.topics[0].id;
    const created = await t.api.post('/contacts').send({
      email: 'zoe@example.org', first_name: 'Zoë', properties: { company: 'Zed' },
      segments: [{ id: seeded.segments[0].id }], topics: [{ id: topicId, subscription: 'opt_out' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const after = await view('contacts');
    expect(after.data[0]).toMatchObject({
      email: 'zoe@example.org', first_name: 'Zoë', unsubscribed: false,
      segments: [{ id: seeded.segments[0].id, name: seeded.segments[0].name }],
      properties: { company: 'Zed' },
    });
    expect(after.data[0].topics.find((x: any) => x.id === topicId).subscription).toBe('opt_out');
  });

  it('broadcasts with status and recipient counts', async () => {
    const seeded = await view('broadcasts');
    expect(seeded.data.map((b: any) => [b.name, b.status])).toEqual([['February newsletter', 'draft']]);
    const seg = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
    for (const email of ['delivered+a@resend.dev', 'bounced@resend.dev']) {
      expect((await t.api.post('/contacts').send({ email, segments: [{ id: seg }] })).status).toBe(201);
    }
    const b = await t.api.post('/broadcasts').send({ name: 'Spring', segment_id: seg, from: 'news@example.com', subject: 'Spring', html: '<a href="https://example.com/x">x</a>' });
    await t.api.post(`/broadcasts/${b.body.id}/send`).send({}).expect(200);
    await t.emu.clock.advance('10s');
    const opened = t.emu.emails({ to: 'delivered+a@' })[0];
    await t.anon.post(`/_emulator/emails/${opened.id}/events`).send({ type: 'clicked' }).expect(200);
    const row = (await view('broadcasts')).data[0];
    expect(row).toMatchObject({ id: b.body.id, name: 'Spring', status: 'sent', segment_name: 'Readers' });
    expect(row.stats).toEqual({ recipients: 2, sent: 2, delivered: 1, opened: 1, clicked: 1, bounced: 1, complained: 0 });
  });

  it('automation runs with each step', async () => {
    expect((await view('automation-runs')).data).toEqual([]);
    await t.api.post('/events/send').send({ event: 'user.signed_up', email: 'delivered+new@resend.dev', payload: { plan: 'pro' } }).expect(202);
    await t.emu.clock.advance('5s');
    const [run] = (await view('automation-runs')).data;
    expect(run).toMatchObject({ automation_name: 'Welcome series', status: 'completed', event_name: 'user.signed_up', contact_email: 'delivered+new@resend.dev' });
    expect(run.steps.map((s: any) => [s.key, s.status])).toEqual([['start', 'completed'], ['welcome', 'completed']]);
    expect(run.steps[1].output).not.toBeNull();
  });

  it('received emails with raw link, links and codes', async () => {
    expect((await view('received-emails')).data).toEqual([]);
    await t.anon.post('/_emulator/inbound').send({ from: 'Ada <ada@sender.test>', to: 'support@example.com', subject: 'Code 482913', text: 'See https://sender.test/a' }).expect(201);
    const [r] = (await view('received-emails')).data;
    expect(r).toMatchObject({ from: 'Ada <ada@sender.test>', to: ['support@example.com'], subject: 'Code 482913', codes: ['482913'], links: ['https://sender.test/a'] });
    const raw = await t.anon.get(r.raw_url);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('message/rfc822');
  });

  it('the event stream tells of API writes (change) and received emails (inbound)', async () => {
    const events: string[] = [];
    const req = http.get(`${t.emu.url}/_emulator/events`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => events.push(chunk));
    });
    try {
      await expect.poll(() => events.join('')).toContain('event: hello');
      await t.api.post('/contacts').send({ email: 'x@example.org' }).expect(201);
      await t.anon.post('/_emulator/inbound').send({ from: 'a@sender.test', to: 'support@example.com', subject: 's', text: 't' }).expect(201);
      await expect.poll(() => events.join('')).toContain(`event: change\ndata: {"team_id":"${TEAM}","operation":"contacts/create"}`);
      await expect.poll(() => events.join('')).toContain('event: inbound');
    } finally {
      req.destroy();
    }
  });
});

describe('admin: dashboard usage view', () => {
  const t = useFreshEmulatorPerTest({ plan: 'free' });

  it("answers GET /usage's body for the team, with the plan's limits", async () => {
    const res = await t.anon.get(`/_emulator/teams/${TEAM}/usage`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'usage', emails: { daily: { limit: 100 }, monthly: { limit: 3000 } }, contacts: { limit: 1000 }, domains: { used: 1, limit: 1 } });
    expect(res.body).toEqual((await t.api.get('/usage')).body);
  });
});
