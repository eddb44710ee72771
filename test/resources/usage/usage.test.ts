/**
 * GET /usage and the quotas of `--plan` (src/resources/usage/,
 * src/state/plans.ts): counted in emulated time, each To/CC/BCC recipient
 * and each received email one email; 429 `daily_quota_exceeded` /
 * `monthly_quota_exceeded` on API, batch and SMTP sends; quota headers;
 * the contacts quota of broadcasts; nothing changes without a plan.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { Resend, type GetUsageResponseSuccess } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../../helpers.js';
import { createContactWith } from '../../../src/resources/contacts/service.js';
import { postJson } from '../receiving/helpers.js';
import { createBroadcast } from '../broadcasts/helpers.js';
import { NO_LIMIT } from '../../../src/resources/usage/service.js';
import { contextOf, storeOf } from '../../../src/internals.js';

const FROM = 'Acme <hello@example.com>';
const DAY = 86_400_000;
const recipients = (n: number, tag = 'r') => Array.from({ length: n }, (_, i) => `delivered+${tag}${i}@resend.dev`);
const email = (to: string[], over: Record<string, unknown> = {}) => ({ from: FROM, to, subject: 's', text: 'x', ...over });

/** Moves the clock to 00:30 UTC of the next day, so a test's sends fall in one emulated day. */
async function toStartOfDay(t: TestEmulator): Promise<number> {
  const now = t.emu.clock.now().getTime();
  const target = Math.floor(now / DAY) * DAY + DAY + 30 * 60_000;
  await t.emu.clock.advance(target - now);
  return target;
}

describe('GET /usage without a plan (the default)', () => {
  const t = useFreshEmulatorPerTest();

  it("answers the SDK's GetUsageResponseSuccess: nullable limits null, the ones the SDK types number 2147483647; sends carry no quota header", async () => {
    await toStartOfDay(t);
    const sent = await t.api.post('/emails').send(email(recipients(2), { cc: 'delivered+cc@resend.dev' }));
    expect(sent.status).toBe(200);
    expect(sent.headers['x-resend-daily-quota']).toBeUndefined();
    expect(sent.headers['x-resend-monthly-quota']).toBeUndefined();
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    const { data, error } = await resend.usage.get();
    expect(error).toBeNull();
    const usage: GetUsageResponseSuccess = data!;
    const now = t.emu.clock.now();
    const tomorrow = new Date(Math.floor(now.getTime() / DAY) * DAY + DAY).toISOString();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(usage).toEqual({
      object: 'usage',
      emails: {
        daily: { used: 3, limit: null, sent: 3, received: 0, resets_at: tomorrow },
        monthly: { used: expect.any(Number), limit: NO_LIMIT, sent: expect.any(Number), received: expect.any(Number), resets_at: nextMonth },
      },
      contacts: { used: expect.any(Number), limit: 2_147_483_647 },
      segments: { used: expect.any(Number), limit: null },
      broadcasts: { used: expect.any(Number), limit: null },
      ai_credits: { used: 0, limit: null, next_increase_at: null },
      automation_runs: { used: expect.any(Number), limit: NO_LIMIT, resets_at: nextMonth },
      domains: { used: 1, limit: null },
      rate_limit: { limit: 10, duration: '1000ms' },
    });
    expect(usage.emails.monthly.used).toBeGreaterThanOrEqual(3);
    const contacts = usage.contacts.used;
    await t.api.post('/contacts').send({ email: 'new-contact@example.org' });
    expect((await resend.usage.get()).data!.contacts.used).toBe(contacts + 1);
  });

  it('is open to sending_access keys', async () => {
    const key = await t.api.post('/api-keys').send({ name: 'send only', permission: 'sending_access' });
    const res = await t.as(key.body.token).get('/usage');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('usage');
  });
});

describe('--plan free', () => {
  const t = useFreshEmulatorPerTest({ plan: 'free', smtpPort: 0 });

  it('an idempotent replay answers the first body with the quota headers of now (the replay sends nothing)', async () => {
    await toStartOfDay(t);
    const body = email(recipients(3, 'idem'));
    const first = await t.api.post('/emails').set('Idempotency-Key', 'quota-replay').send(body);
    expect(first.status).toBe(200);
    expect(first.headers['x-resend-daily-quota']).toBe('3');
    await t.api.post('/emails').send(email(recipients(2, 'other')));
    const replay = await t.api.post('/emails').set('Idempotency-Key', 'quota-replay').send(body);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['x-resend-daily-quota']).toBe('5');
    expect(replay.headers['x-resend-monthly-quota']).toBe('5');
  });

  it('refuses the 101st recipient of an emulated day with 429 daily_quota_exceeded, and takes email again after midnight', async () => {
    await toStartOfDay(t);
    const first = await t.api.post('/emails').send(email(recipients(50, 'a')));
    expect(first.status).toBe(200);
    expect(first.headers['x-resend-daily-quota']).toBe('50');
    expect(first.headers['x-resend-monthly-quota']).toBe('50');
    const second = await t.api.post('/emails').send(email(recipients(49, 'b'), { bcc: 'delivered+bcc@resend.dev' }));
    expect(second.status).toBe(200);
    expect(second.headers['x-resend-daily-quota']).toBe('100');

    const over = await t.api.post('/emails').send(email(['delivered+over@resend.dev']));
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ statusCode: 429, name: 'daily_quota_exceeded', message: 'You have reached your daily email sending quota.' });
    expect(over.headers['x-resend-daily-quota']).toBe('100');

    const usage = (await t.api.get('/usage')).body;
    expect(usage.emails.daily).toMatchObject({ used: 100, limit: 100, sent: 100, received: 0 });
    expect(usage.emails.monthly).toMatchObject({ limit: 3000 });
    expect(usage.contacts.limit).toBe(1000);
    expect(usage.domains).toEqual({ used: 1, limit: 1 });

    await t.emu.clock.advance(DAY - 30 * 60_000);
    const next = await t.api.post('/emails').send(email(['delivered+next@resend.dev']));
    expect(next.status).toBe(200);
    expect(next.headers['x-resend-daily-quota']).toBe('1');
    expect(next.headers['x-resend-monthly-quota']).toBe(new Date(t.emu.clock.now()).getUTCDate() === 1 ? '1' : '101');
  });

  it('counts received emails toward the quota', async () => {
    await toStartOfDay(t);
    for (let i = 0; i < 3; i++) {
      expect((await postJson(t, { from: 'someone@example.org', to: 'inbox@example.com', subject: `in ${i}`, text: 'x' })).status).toBe(201);
    }
    const usage = (await t.api.get('/usage')).body;
    expect(usage.emails.daily).toMatchObject({ used: 3, sent: 0, received: 3 });
    const sent = await t.api.post('/emails').send(email(recipients(97)));
    expect(sent.status).toBe(422); // `to` takes at most 50: the quota is not the first check to fail
    expect((await t.api.post('/emails').send(email(recipients(50, 'x')))).status).toBe(200);
    expect((await t.api.post('/emails').send(email(recipients(47, 'y')))).status).toBe(200);
    expect((await t.api.post('/emails').send(email(['delivered+z@resend.dev']))).body.name).toBe('daily_quota_exceeded');
  });

  it('refuses a strict batch that would go over as a whole, and reports the items over it in permissive mode', async () => {
    await toStartOfDay(t);
    expect((await t.api.post('/emails').send(email(recipients(50, 'a')))).status).toBe(200);
    const items = [email(recipients(40, 'b')), email(recipients(20, 'c'))];
    const strict = await t.api.post('/emails/batch').send(items);
    expect(strict.status).toBe(429);
    expect(strict.body.name).toBe('daily_quota_exceeded');
    expect((await t.api.get('/usage')).body.emails.daily.used).toBe(50);
    const permissive = await t.api.post('/emails/batch').set('x-batch-validation', 'permissive').send(items);
    expect(permissive.status).toBe(200);
    expect(permissive.body.data).toHaveLength(1);
    expect(permissive.body.errors).toEqual([{ index: 1, message: 'You have reached your daily email sending quota.' }]);
    expect(permissive.headers['x-resend-daily-quota']).toBe('90');
  });

  it('reads the usage once a request: a batch of 100 items, a send, GET /usage', async () => {
    await toStartOfDay(t);
    // A read of the usage is one query of the ledger's table (usage's `emailUsage`): counted where the store prepares it.
    const db = storeOf(t.emu);
    const prepare = db.prepare;
    let reads = 0;
    db.prepare = ((sql: string) => {
      if (sql.includes('FROM emulator_usage')) reads++;
      return prepare.call(db, sql);
    }) as typeof db.prepare;
    try {
      const batch = await t.api.post('/emails/batch').send(Array.from({ length: 100 }, (_, i) => email([`delivered+b${i}@resend.dev`])));
      expect(batch.status).toBe(200);
      expect(batch.headers['x-resend-daily-quota']).toBe('100');
      expect(reads).toBe(1);
      expect((await t.api.post('/emails').send(email(['delivered+one@resend.dev']))).status).toBe(429);
      expect(reads).toBe(2);
      expect((await t.api.get('/usage')).body.emails.daily.used).toBe(100);
      expect(reads).toBe(3);
    } finally {
      db.prepare = prepare;
    }
  });

  it('gives back what a permissive batch item took when the item then fails (nothing stored, nothing counted)', async () => {
    await toStartOfDay(t);
    expect((await t.api.post('/emails').send(email(recipients(50, 'a')))).status).toBe(200);
    const items = [email(recipients(45, 'b'), { from: 'Someone <x@unverified.example>' }), email(recipients(50, 'c'))];
    const res = await t.api.post('/emails/batch').set('x-batch-validation', 'permissive').send(items);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([{ index: 0, message: expect.stringContaining('domain is not verified') }]);
    expect(res.body.data).toHaveLength(1);
    expect(res.headers['x-resend-daily-quota']).toBe('100');
  });

  it('keeps the counts with the rows: a reset empties them, a snapshot import brings them back', async () => {
    await toStartOfDay(t);
    expect((await t.api.post('/emails').send(email(recipients(30, 's')))).status).toBe(200);
    expect((await postJson(t, { from: 'someone@example.org', to: 'inbox@example.com', subject: 'in', text: 'x' })).status).toBe(201);
    const before = (await t.api.get('/usage')).body.emails;
    expect(before.daily).toMatchObject({ sent: 30, received: 1 });
    const snap = (await t.anon.get('/_emulator/snapshot').expect(200)).body;
    expect(Object.keys(snap.tables).filter((name) => name.startsWith('emulator_'))).toEqual([]);
    await t.anon.post('/_emulator/reset').expect(200);
    const reset = (await t.api.get('/usage')).body.emails;
    expect(reset.daily).toMatchObject({ sent: 0, received: 0 });
    await t.anon.post('/_emulator/snapshot').send(snap).expect(200);
    expect((await t.api.get('/usage')).body.emails).toEqual(before);
  });

  it('a snapshot import replaces the counts with those of its emails, never adds to them (sends are counted by the code that stores them)', async () => {
    await toStartOfDay(t);
    expect((await t.api.post('/emails').send(email(recipients(30, 's')))).status).toBe(200);
    const snap = (await t.anon.get('/_emulator/snapshot').expect(200)).body;
    expect((await t.api.post('/emails').send(email(recipients(10, 'later')))).status).toBe(200);
    expect((await t.api.get('/usage')).body.emails.daily).toMatchObject({ sent: 40 });
    await t.anon.post('/_emulator/snapshot').send(snap).expect(200);
    expect((await t.api.get('/usage')).body.emails.daily).toMatchObject({ sent: 30 });
    expect((await t.api.post('/emails').send(email(recipients(5, 'after')))).status).toBe(200);
    expect((await t.api.get('/usage')).body.emails.daily).toMatchObject({ sent: 35 });
  });

  it('counts the emails of an older snapshot once, when it is imported (a schema 19 snapshot, resend-emulator 0.x)', async () => {
    const snap = JSON.parse(fs.readFileSync(new URL('../../fixtures/snapshots/v19.json', import.meta.url), 'utf8'));
    // The clock never goes back, and it runs on real time here: the snapshot is moved whole days ahead, to the
    // emulator's next day, so its day is the emulator's day after the import whatever the date the suite runs on.
    const shift = (Math.floor(t.emu.clock.now().getTime() / DAY) + 1 - Math.floor(snap.clock_ms / DAY)) * DAY;
    snap.clock_ms += shift;
    for (const name of ['emails', 'received_emails']) for (const r of snap.tables[name] as { created_at: number }[]) r.created_at += shift;
    await t.anon.post('/_emulator/snapshot').send(snap).expect(200);
    const w = { day: Math.floor(snap.clock_ms / DAY) * DAY, month: Date.UTC(new Date(snap.clock_ms).getUTCFullYear(), new Date(snap.clock_ms).getUTCMonth(), 1) };
    const len = (v: string | null) => (v ? JSON.parse(v).length : 0);
    const rows = (name: string) => (snap.tables[name] as { team_id: string; created_at: number; source?: string; to_addrs?: string; cc?: string | null; bcc?: string | null }[])
      .filter((r) => r.team_id === FIXTURES.defaultTeamId);
    const sent = (since: number) => rows('emails').filter((r) => r.created_at >= since && ['api', 'batch', 'smtp'].includes(r.source!))
      .reduce((n, r) => n + len(r.to_addrs!) + len(r.cc ?? null) + len(r.bcc ?? null), 0);
    const received = (since: number) => rows('received_emails').filter((r) => r.created_at >= since).length;
    expect(sent(w.month)).toBeGreaterThan(0);
    const usage = (await t.api.get('/usage')).body.emails;
    expect(usage.daily).toMatchObject({ sent: sent(w.day), received: received(w.day) });
    expect(usage.monthly).toMatchObject({ sent: sent(w.month), received: received(w.month) });
  });

  it('answers 452 over SMTP once the daily quota is used up', async () => {
    await toStartOfDay(t);
    expect((await t.api.post('/emails').send(email(recipients(50, 'a')))).status).toBe(200);
    expect((await t.api.post('/emails').send(email(recipients(50, 'b')))).status).toBe(200);
    const err: any = await nodemailer
      .createTransport({ host: '127.0.0.1', port: t.emu.smtpPort!, secure: false, auth: { user: 'resend', pass: t.emu.apiKey } })
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' })
      .then(() => null, (e) => e);
    expect(err?.responseCode).toBe(452);
    expect(err.response).toContain('You have reached your daily email sending quota.');
  });

  it('refuses to send a broadcast over the contacts quota (403 validation_error)', async () => {
    const usage = (await t.api.get('/usage')).body;
    const id = await createBroadcast(t);
    // Up to the quota through the contacts service (1,000 API calls would only be slower), the last one over the API.
    for (let i = usage.contacts.used; i < 1000; i++) createContactWith(contextOf(t.emu), FIXTURES.defaultTeamId, { email: `c${i}@example.org` });
    expect((await t.api.get('/usage')).body.contacts).toEqual({ used: 1000, limit: 1000 });
    expect((await t.api.post('/contacts').send({ email: 'one-more@example.org' })).status).toBe(201);
    expect((await t.api.get('/usage')).body.contacts).toEqual({ used: 1001, limit: 1000 });
    const res = await t.api.post(`/broadcasts/${id}/send`).send({});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, name: 'validation_error', message: 'You have reached your contacts quota. Please upgrade your plan to send more emails.' });
  });
});

describe('--plan pro', () => {
  const t = useFreshEmulatorPerTest({ plan: 'pro' });

  it('has no daily quota, refuses past 50,000 a month with 429 monthly_quota_exceeded, and sends only the monthly header', async () => {
    const now = t.emu.clock.now();
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    await t.emu.clock.advance(monthStart + 60_000 - now.getTime());
    const batch = Array.from({ length: 100 }, (_, i) => email(recipients(50, `m${i}-`)));
    for (let i = 0; i < 10; i++) {
      const res = await t.api.post('/emails/batch').send(batch);
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
      expect(res.headers['x-resend-daily-quota']).toBeUndefined();
      expect(res.headers['x-resend-monthly-quota']).toBe(String((i + 1) * 5000));
    }
    const over = await t.api.post('/emails').send(email(['delivered+over@resend.dev']));
    expect(over.status).toBe(429);
    expect(over.body.name).toBe('monthly_quota_exceeded');
    const usage = (await t.api.get('/usage')).body;
    expect(usage.emails.daily).toMatchObject({ used: 50_000, limit: null });
    expect(usage.emails.monthly).toMatchObject({ used: 50_000, limit: 50_000 });
  });
});
