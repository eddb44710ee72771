/**
 * Playwright (run by test/playwright/signup.test.ts): signing in through a
 * link the app emails, clicked in the browser. Here the emulator is the
 * worker's own (`workerEmulator`, started in-process) and the app is a
 * worker-scoped fixture started with its URL; the `emulator` fixture
 * resets it before each test.
 */
import { expect, test as base, WaitTimeoutError } from 'resend-emulator/playwright';
import { startApp } from './app/server.mjs';

const test = base.extend<{}, { appUrl: string }>({
  appUrl: [
    async ({ workerEmulator }, use) => {
      const app = await startApp({ resendBaseUrl: workerEmulator.url, apiKey: workerEmulator.apiKey });
      await use(app.url);
      await app.close();
    },
    { scope: 'worker' },
  ],
});

test('signs in by clicking the link in the email', async ({ page, emulator, appUrl }) => {
  expect(emulator.server).not.toBeNull();
  await page.goto(appUrl);
  await page.getByLabel('Email').fill('grace@example.net');
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading')).toHaveText('Check your inbox for a sign-in link');

  const link = await emulator.link({ to: 'grace@example.net', subject: 'sign-in link' }, /\/magic\?token=[0-9a-f]{32}$/);
  expect(link.startsWith(`${appUrl}/magic?token=`)).toBe(true);
  await expect(emulator.link({ to: 'grace@example.net' }, 'help')).resolves.toBe('https://acme.example.com/help');

  // The email as the user sees it: its HTML in the browser, the link clicked.
  const sent = await emulator.waitForEmail({ to: 'grace@example.net' });
  await page.setContent(sent.html!);
  await page.getByRole('link', { name: 'sign in' }).click();
  await expect(page.getByRole('heading')).toHaveText('Signed in as grace@example.net');
  await expect(emulator).toHaveSentEmail({ to: 'grace@example.net', subject: 'Your Acme sign-in link' });
});

test('starts from the fixtures; a failing matcher lists the closest emails, as the Vitest matcher does', async ({ emulator, appUrl }) => {
  expect(await emulator.emails({ to: 'grace@example.net' })).toEqual([]);
  const res = await fetch(`${appUrl}/signup`, { method: 'POST', body: new URLSearchParams({ email: 'grace@example.net' }) });
  expect(res.status).toBe(200);
  const error: Error = await expect.configure({ timeout: 300 })(emulator).toHaveSentEmail({ to: 'grace@example.net', subject: 'sign-in link' }).then(
    () => new Error('the assertion passed'),
    (err: Error) => err,
  );
  // The one email the app sent: the fixtures hold none.
  expect(error.message).toContain('expected an email matching {"to":"grace@example.net","subject":"sign-in link"}, but none of the 1 sent email matches. Closest:');
  expect(error.message).toMatch(/1\. \S+ "Your Acme sign-up code" from "Acme <onboarding@example.com>" to \["grace@example.net"\] \(queued\)\n {5}- subject: "Your Acme sign-up code" does not contain "sign-in link"/);
  await expect(emulator.code({ to: 'nobody@example.net' }, { timeout: 100 })).rejects.toThrow('waitForEmail: no email matched {"to":"nobody@example.net"} within 100 ms');
  await expect(emulator.link({ to: 'grace@example.net' })).rejects.toThrow(/has no link; its links: \[\]/);
  // The filter goes to the emulator's emails(): a misspelt key is its TypeError, not a pass.
  await expect(expect(emulator).toHaveSentEmail({ subjct: 'x' } as never)).rejects.toThrow(TypeError);
  await expect(expect(emulator).toHaveSentEmail({ subjct: 'x' } as never)).rejects.toThrow('unknown email filter key "subjct" (did you mean "subject"?)');
  await expect(emulator).not.toHaveSentEmail({ to: 'grace@example.net', q: 'has:attachment' });
});

test('a test that sends nothing finds nothing: toHaveSentEmail({ subject: "Welcome" }) fails and waitForEmail times out', async ({ emulator }) => {
  expect(await emulator.emails()).toEqual([]);
  const error: Error = await expect.configure({ timeout: 300 })(emulator).toHaveSentEmail({ subject: 'Welcome' }).then(
    () => new Error('the assertion passed'),
    (err: Error) => err,
  );
  expect(error.message).toContain('expected an email matching {"subject":"Welcome"}, but no email was sent');
  const waited = await emulator.waitForEmail({ subject: 'Welcome' }, { timeout: 100 }).then(() => null, (err: unknown) => err);
  expect(waited).toBeInstanceOf(WaitTimeoutError);
  expect((waited as Error).message).toBe('waitForEmail: no email matched {"subject":"Welcome"} within 100 ms');
  await expect(emulator.link({ subject: 'Welcome' }, undefined, { timeout: 100 })).rejects.toThrow(WaitTimeoutError);
  await expect(emulator).not.toHaveDeliveredWebhook();
});

