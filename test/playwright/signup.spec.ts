/**
 * Playwright (run by test/playwright/signup.test.ts): a sign-up with the
 * code the app emails. The app and the emulator both run under the config's
 * `webServer` (the app's SDK reaches the emulator through RESEND_BASE_URL),
 * so the `emulator` fixture is a connection to that running emulator
 * (project option `emulatorUrl`) and is not reset: each test uses addresses
 * of its own.
 */
import { expect, test } from 'resend-emulator/playwright';

test('signs up with the code the app emailed', async ({ page, emulator }) => {
  const email = `ada.${test.info().testId}@example.net`;
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  const code = await emulator.code({ to: email, subject: 'sign-up code' }, { timeout: 10_000 });
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading')).toHaveText(`Welcome, ${email}`);

  await expect(emulator).toHaveSentEmail({ to: email, from: 'onboarding@example.com', subject: 'Your Acme sign-up code' });
  await expect(emulator).not.toHaveSentEmail({ to: email, subject: 'sign-in link' });
  // `q` is searched by the running emulator (the admin API's `q`), for the wait and the verdict alike.
  await expect(emulator).toHaveSentEmail({ to: email, q: 'subject:"sign-up code" -has:attachment' });
  await expect(emulator).not.toHaveSentEmail({ to: email, q: 'has:attachment' });
  await expect(emulator).not.toHaveDeliveredWebhook({ event_type: 'email.bounced' });
  expect(emulator.server).toBeNull();
  expect(emulator.url).toBe(process.env.EMULATOR_URL);
});

test('a wrong code is refused', async ({ page, emulator }) => {
  const email = `bob.${test.info().testId}@example.net`;
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
  const code = await emulator.code({ to: email });
  await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong code');
});

test('the emulator `emulator start` seeds holds no email: a test that sends nothing fails toHaveSentEmail({ subject: "Welcome" })', async ({ emulator }) => {
  // The app's emails are sign-up codes; nothing seeded is a "Welcome" email (the default fixtures hold no sent email).
  expect(await emulator.emails({ subject: 'Welcome' })).toEqual([]);
  const error: Error = await expect.configure({ timeout: 300 })(emulator).toHaveSentEmail({ subject: 'Welcome' }).then(
    () => new Error('the assertion passed'),
    (err: Error) => err,
  );
  expect(error.message).toMatch(/^expected an email matching \{"subject":"Welcome"\}, but (no email was sent|none of the \d+ sent emails? matches)/);
  await expect(emulator.waitForEmail({ subject: 'Welcome' }, { timeout: 200 })).rejects.toThrow('waitForEmail: no email matched {"subject":"Welcome"} within 200 ms');
});

