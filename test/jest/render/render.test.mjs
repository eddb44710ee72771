/**
 * Run by Jest (test/jest/render.config.mjs), not vitest: `toRenderIn` and
 * `checkEmailHtml` of `resend-emulator/jest` in a real Jest run. The last
 * test fails on purpose: test/jest/render.test.ts checks its message.
 */
import { describe, expect, it } from '@jest/globals';
import { checkEmailHtml, useEmulator } from 'resend-emulator/jest';

const emu = useEmulator();

async function send(html) {
  const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Render', html });
  expect(error).toBeNull();
  return emu.emails({ to: 'ada@example.net' }).find((e) => e.id === data.id);
}

const FLEX = '<html><head><style>.row{display:flex}</style></head><body><div class="row">Hi</div></body></html>';

describe('toRenderIn under Jest', () => {
  it('passes where every client supports the HTML, and .not where one lacks a feature', async () => {
    const email = await send(FLEX);
    await expect(email).toRenderIn(['apple-mail']);
    await expect(email).not.toRenderIn(['outlook.windows']);
    const check = await checkEmailHtml(email);
    expect(check.findings.map((f) => f.feature)).toContain('display:flex');
  });

  it('FAILS ON PURPOSE: toRenderIn names display:flex and the Outlook clients', async () => {
    const email = await send(FLEX);
    await expect(email).toRenderIn(['outlook', 'gmail']);
  });
});
