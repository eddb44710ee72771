/**
 * Fault injection seen through the official SDK (issue 11 part 2): each
 * injected error reaches the caller as `{ data: null, error }` with the
 * service's name and status, a retry loop gets through once the rule is
 * spent, and a refused send leaves nothing behind.
 */
import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';

const EMAIL = { from: 'Acme <hello@example.com>', to: ['delivered@resend.dev'], subject: 'SDK fault probe', html: '<p>Hi</p>' };

describe('official SDK: injected faults', () => {
  const t = useFreshEmulatorPerTest();
  const sdk = () => new Resend(t.emu.apiKey, { baseUrl: t.emu.url });

  it.each([
    [429, 'rate_limit_exceeded'],
    [500, 'application_error'],
    [503, 'service_unavailable'],
    [409, 'concurrent_idempotent_requests'],
    [401, 'missing_api_key'],
    [422, 'validation_error'],
  ] as const)('emails.send answers { data: null, error } for an injected %i (%s); no email is created', async (status, name) => {
    t.emu.faults.add({ operation: 'emails/send', status });
    const res = await sdk().emails.send(EMAIL);
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ statusCode: status, name });
    expect(res.error!.message.length).toBeGreaterThan(0);
    expect(t.emu.emails({ subject: 'SDK fault probe' })).toEqual([]);
    if (status === 429) expect(res.headers).toMatchObject({ 'retry-after': '1', 'ratelimit-remaining': '0' });
  });

  it('a retry loop gets through once `times` is spent, and the email is sent once', async () => {
    t.emu.faults.add({ operation: 'POST /emails', status: 503, times: 2 });
    const resend = sdk();
    const names: (string | null)[] = [];
    let id: string | undefined;
    for (let attempt = 0; attempt < 5 && !id; attempt++) {
      const res = await resend.emails.send(EMAIL);
      names.push(res.error?.name ?? null);
      id = res.data?.id;
    }
    expect(names).toEqual(['service_unavailable', 'service_unavailable', null]);
    expect(t.emu.emails({ subject: 'SDK fault probe' }).map((e) => e.id)).toEqual([id]);
    expect(t.emu.faults.list()[0]).toMatchObject({ fired: 2, times: 2 });
  });

  it('a custom name and message reach the caller as given; other operations and teams are untouched', async () => {
    t.emu.faults.add({ operation: 'domains/list', team_id: FIXTURES.defaultTeamId, status: 429, name: 'daily_quota_exceeded', message: 'You have reached your daily email sending quota.' });
    const res = await sdk().domains.list();
    expect(res).toMatchObject({ data: null, error: { statusCode: 429, name: 'daily_quota_exceeded', message: 'You have reached your daily email sending quota.' } });
    expect((await sdk().apiKeys.list()).error).toBeNull();
    const other = new Resend(FIXTURES.secondTeamKey, { baseUrl: t.emu.url });
    expect((await other.domains.list()).error).toBeNull();
  });

  it('batch.send fails whole, and probability with a seed makes the same calls fail on every run', async () => {
    t.emu.faults.add({ operation: 'emails/send-batch', status: 500 });
    const batch = await sdk().batch.send([EMAIL, EMAIL]);
    expect(batch).toMatchObject({ data: null, error: { statusCode: 500, name: 'application_error' } });
    expect(t.emu.emails({ subject: 'SDK fault probe' })).toEqual([]);

    t.emu.faults.clear();
    const probe = (await sdk().emails.send(EMAIL)).data!.id;
    const pattern = async () => {
      t.emu.faults.clear();
      t.emu.faults.add({ operation: 'emails/get', status: 500, probability: 0.5, seed: 2026 });
      const out: boolean[] = [];
      for (let i = 0; i < 12; i++) out.push((await sdk().emails.get(probe)).error !== null);
      return out;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first).toContain(true);
    expect(first).toContain(false);
  });
});
