/**
 * Run by Jest (test/jest/jest.config.mjs), not vitest: `resend-emulator/jest`
 * in a real Jest run. The last test fails on purpose: test/jest/jest.test.ts
 * checks that its message lists the closest emails (only this test's: the
 * fixtures hold no sent email).
 */
import { describe, expect, it } from '@jest/globals';
import { useEmulator } from 'resend-emulator/jest';

const emu = useEmulator({ webhooks: 'record' });

async function send(to, subject, html = '<p>Hi</p>') {
  const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to, subject, html });
  expect(error).toBeNull();
  return data.id;
}

describe('resend-emulator/jest', () => {
  it('hands a running emulator; toHaveSentEmail passes for a match and .not for none', async () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await send('ada@example.net', 'Welcome to Acme');
    expect(emu).toHaveSentEmail({ to: 'ADA@example', subject: 'welcome' });
    expect(emu).not.toHaveSentEmail({ to: 'bob@example.net' });
  });

  it('resets before each test', () => {
    expect(emu).not.toHaveSentEmail({ to: 'ada@example.net' });
  });

  it('a test that sends nothing finds nothing: toHaveSentEmail({ subject: "Welcome" }) fails and waitForEmail times out', async () => {
    expect(emu.emails()).toEqual([]);
    expect(() => expect(emu).toHaveSentEmail({ subject: 'Welcome' })).toThrow('expected an email matching {"subject":"Welcome"}, but no email was sent');
    await expect(emu.waitForEmail({ subject: 'Welcome' }, { timeout: 50 })).rejects.toMatchObject({
      name: 'WaitTimeoutError',
      message: 'waitForEmail: no email matched {"subject":"Welcome"} within 50 ms',
    });
    await expect(emu.code({ subject: 'Welcome' }, { timeout: 50 })).rejects.toMatchObject({ name: 'WaitTimeoutError' });
    expect(() => expect(emu).toHaveDeliveredWebhook()).toThrow('but no webhook delivery was recorded');
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

  it('FAILS ON PURPOSE: toHaveSentEmail lists the closest emails', async () => {
    await send('ada@example.net', 'Welcome to Acme');
    await send('bob@example.net', 'Your invoice');
    expect(emu).toHaveSentEmail({ to: 'bob@example.net', subject: 'Welcome' });
  });
});
