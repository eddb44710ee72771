/**
 * Playwright (run by test/playwright/signup.test.ts): `toRenderIn` and
 * `checkEmailHtml` of `resend-emulator/playwright` against the worker's own
 * emulator (no browser page: the check is of the email's HTML).
 */
import { checkEmailHtml, expect, test } from 'resend-emulator/playwright';

test('toRenderIn passes where every named client supports the HTML and fails naming display:flex and Outlook', async ({ emulator }) => {
  const res = await fetch(`${emulator.url}/emails`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Flex', html: '<style>.row{display:flex}</style><div class="row">Hi</div>' }),
  });
  expect(res.status).toBe(200);
  const email = await emulator.waitForEmail({ to: 'ada@example.net', subject: 'Flex' });
  await expect(email).toRenderIn(['apple-mail']);
  const error: Error = await expect(email).toRenderIn(['outlook', 'gmail']).then(() => new Error('the assertion passed'), (err: Error) => err);
  expect(error.message).toContain('to render in "outlook", "gmail", but it uses what they do not support:');
  expect(error.message).toMatch(/- display:flex \(css, https:\/\/www\.caniemail\.com\/features\/css-display-flex\/\): .*Outlook Windows \(not supported\)/);
  expect((await checkEmailHtml(email)).findings.map((f) => f.feature)).toContain('display:flex');
});
