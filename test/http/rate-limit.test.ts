import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';
import { RateLimiter, wallClock } from '../../src/http/rate-limit.js';

const realNow = wallClock.now;
/** Pins the limiter's wall clock (the window is 1 s of wall time); `at` ms. */
let wall = 0;
function pinWall(start: number) {
  wall = start;
  wallClock.now = () => wall;
}

describe('RateLimiter', () => {
  it('lets N requests through per 1-second window, then limits; a new window starts over', () => {
    const l = new RateLimiter();
    const at = 1_800_000_000_250;
    expect(l.hit('t', 2, at)).toEqual({
      limited: false,
      headers: { 'ratelimit-limit': '2', 'ratelimit-policy': '2;w=1', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' },
    });
    expect(l.hit('t', 2, at + 100).headers['ratelimit-remaining']).toBe('0');
    const third = l.hit('t', 2, at + 700);
    expect(third.limited).toBe(true);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.headers['ratelimit-remaining']).toBe('0');
    expect(l.hit('other', 2, at + 700).limited).toBe(false);
    expect(l.hit('t', 2, at + 750).limited).toBe(false);
  });
});

describe('rate limiting (--rate-limit 3)', () => {
  const t = useFreshEmulatorPerTest({ rateLimit: 3 });
  beforeEach(() => pinWall(1_800_000_000_000));
  afterEach(() => {
    wallClock.now = realNow;
  });

  it('passes N requests with headers, answers N+1 with 429 rate_limit_exceeded and retry-after', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.api.get('/domains');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-policy']).toBe('3;w=1');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
      expect(res.headers['ratelimit-reset']).toBe('1');
    }
    const over = await t.api.get('/api-keys');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ statusCode: 429, message: expect.stringContaining('3 requests per second'), name: 'rate_limit_exceeded' });
    expect(over.headers['retry-after']).toBe('1');
    expect(over.headers['ratelimit-remaining']).toBe('0');

    wall += 1000;
    const next = await t.api.get('/domains');
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('2');
  });

  it('counts per team, not per key, and never counts the admin API', async () => {
    const key = await t.api.post('/api-keys').send({ name: 'second key' });
    for (let i = 0; i < 5; i++) expect((await t.anon.get('/_emulator/health')).headers['ratelimit-limit']).toBeUndefined();
    expect((await t.api.get('/domains')).headers['ratelimit-remaining']).toBe('1');
    const third = await t.as(key.body.token).get('/domains');
    expect(third.status).toBe(200);
    expect(third.headers['ratelimit-remaining']).toBe('0');
    expect((await t.as(key.body.token).get('/domains')).status).toBe(429);
    const otherTeam = await t.as(FIXTURES.secondTeamKey).get('/domains');
    expect(otherTeam.status).toBe(200);
    expect(otherTeam.headers['ratelimit-remaining']).toBe('2');
  });

  it('sends the headers on authenticated errors, none on failed authentication', async () => {
    const notFound = await t.api.get('/webhooks/7f1c9f3e-4b2a-4c6d-8e9f-0a1b2c3d4e5f');
    expect(notFound.status).toBe(404);
    expect(notFound.headers['ratelimit-remaining']).toBe('2');
    const noKey = await t.anon.get('/domains');
    expect(noKey.status).toBe(401);
    expect(noKey.headers['ratelimit-limit']).toBeUndefined();
  });

  it('hands the 429 error to SDK callers as is (the SDK does not retry)', async () => {
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    for (let i = 0; i < 3; i++) expect((await resend.domains.list()).error).toBeNull();
    const res = await resend.domains.list();
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ name: 'rate_limit_exceeded', statusCode: 429 });
    expect(res.headers?.['retry-after']).toBe('1');
  });
});

describe('rate limiting off (the default)', () => {
  const t = useFreshEmulatorPerTest();

  it('never answers 429 and sends no rate-limit headers', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await t.api.get('/domains');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      expect(res.headers['ratelimit-remaining']).toBeUndefined();
    }
  });
});
