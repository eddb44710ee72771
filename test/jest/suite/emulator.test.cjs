/**
 * Run by Jest's CommonJS runtime (test/jest/jest.cjs.config.mjs), not
 * vitest: `require('resend-emulator/jest')` as a CommonJS project writes it
 * (test/jest/jest.test.ts runs it and reads the report). Every test passes.
 */
const { describe, expect, it } = require('@jest/globals');
const { useEmulator } = require('resend-emulator/jest');
const { WaitTimeoutError } = require('resend-emulator');

const emu = useEmulator({ webhooks: 'record' });

async function send(to, subject, html = '<p>Hi</p>') {
  const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to, subject, html });
  expect(error).toBeNull();
  return data.id;
}

describe('resend-emulator/jest (CommonJS)', () => {
  it('hands a running emulator; toHaveSentEmail passes for a match and .not for none', async () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await send('ada@example.net', 'Welcome to Acme');
    expect(emu).toHaveSentEmail({ to: 'ADA@example', subject: 'welcome' });
    expect(emu).not.toHaveSentEmail({ to: 'bob@example.net' });
  });

  it('resets before each test', () => {
    expect(emu).not.toHaveSentEmail({ to: 'ada@example.net' });
  });

  it('reads the one-time code and the link of the newest matching email', async () => {
    await send('ada@example.net', 'Your sign-in code', '<p>Your code is 482913.</p><p><a href="https://app.example.com/verify?token=t1">Verify</a></p>');
    await expect(emu.code({ to: 'ada@example.net' })).resolves.toBe('482913');
    await expect(emu.link({ to: 'ada@example.net' }, '/verify')).resolves.toBe('https://app.example.com/verify?token=t1');
  });

  it('toHaveDeliveredWebhook compares data with Jest equality', async () => {
    const { data: hook } = await emu.resend.webhooks.create({ endpoint: 'https://hooks.example.net/in', events: ['email.sent'] });
    const id = await send('ada@example.net', 'Welcome');
    await emu.clock.advance('10s');
    // webhooks: 'record': nothing is sent, so the delivery matches as 'recorded' only (never as delivered).
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', webhook_id: hook.id, status: 'recorded', data: { email_id: id, subject: expect.stringContaining('Wel') } });
    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });
    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.bounced' });
  });

  it("the main entry and /jest share one emulator core: waitForEmail's timeout is the main entry's WaitTimeoutError", async () => {
    await expect(emu.waitForEmail({ subject: 'never sent' }, { timeout: 50 })).rejects.toBeInstanceOf(WaitTimeoutError);
  });
});
