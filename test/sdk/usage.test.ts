/**
 * The official SDK's `usage.get()` against the emulator: the SDK's
 * `GetUsageResponseSuccess`, with the limits of `--plan` (src/state/plans.ts).
 */
import { describe, expect, it } from 'vitest';
import { Resend, type GetUsageResponseSuccess } from 'resend';
import { useEmulator } from '../../src/vitest.js';

describe('SDK usage', () => {
  const emu = useEmulator({ validateResponses: true, plan: 'free' });

  it("usage.get() answers the SDK's type with the free plan's limits, counting each recipient", async () => {
    const resend = new Resend(emu.server.apiKey, { baseUrl: emu.server.url });
    const before = (await resend.usage.get()).data!;
    const sent = await resend.emails.send({ from: 'Acme <hello@example.com>', to: ['delivered+a@resend.dev', 'delivered+b@resend.dev'], cc: 'delivered+c@resend.dev', subject: 'Hi', text: 'x' });
    expect(sent.error).toBeNull();
    const { data, error } = await resend.usage.get();
    expect(error).toBeNull();
    const usage: GetUsageResponseSuccess = data!;
    expect(usage.object).toBe('usage');
    expect(usage.emails.daily).toMatchObject({ limit: 100, sent: before.emails.daily.sent + 3, used: before.emails.daily.used + 3 });
    expect(usage.emails.monthly.limit).toBe(3000);
    expect(usage.contacts.limit).toBe(1000);
    expect(usage.broadcasts.limit).toBeNull();
    expect(usage.rate_limit).toEqual({ limit: 10, duration: '1000ms' });
    expect(Date.parse(usage.emails.daily.resets_at)).toBeGreaterThan(emu.server.clock.now().getTime());
  });
});
