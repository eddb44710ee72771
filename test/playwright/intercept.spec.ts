/**
 * Projects `intercepted` and `intercepted-remote`: `emulatorOptions: {
 * interceptResendApi: true }`, so code in the worker that calls
 * `https://api.resend.com` itself (here a plain `fetch`, as Auth.js's
 * provider does) reaches the emulator: the worker's own in-process, or
 * (`intercepted-remote`, `emulatorUrl` set) the running `webServer` one,
 * forwarded to its URL.
 */
import { test, expect } from 'resend-emulator/playwright';

test('a hard-coded https://api.resend.com call lands in the worker emulator', async ({ emulator }) => {
  expect(emulator.server === null).toBe(test.info().project.name === 'intercepted-remote');
  const res = await fetch('https://api.resend.com/emails', {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Your code 482913', text: 'Your code is 482913' }),
  });
  expect(res.status).toBe(200);
  expect(await emulator.code({ to: 'ada@example.net' })).toBe('482913');
  await expect(emulator).toHaveSentEmail({ to: 'ada@example.net', subject: 'Your code' });
});
