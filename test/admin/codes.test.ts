/**
 * One-time codes (src/admin/codes.ts) on realistic messages, and `codes` on
 * the admin API, `emu.emails()` and `emu.waitForEmail()`.
 */
import { describe, expect, it } from 'vitest';
import { extractCodes } from '../../src/admin/codes.js';
import { useFreshEmulatorPerTest } from '../helpers.js';

describe('extractCodes', () => {
  it('Auth.js magic link: no code (the token is in a URL), the year in the footer is no code', () => {
    const url = 'https://app.example.com/api/auth/callback/resend?callbackUrl=https%3A%2F%2Fapp.example.com&token=8f2c1e4b5a6d7e8f90123456&email=ada%40example.com';
    const html = `<body style="background:#f9f9f9"><table width="100%" border="0" cellspacing="20" cellpadding="0" style="max-width:600px;margin:auto;border-radius:10px">
      <tr><td align="center" style="padding:10px 0;font-size:22px;color:#444">Sign in to <strong>app.example.com</strong></td></tr>
      <tr><td align="center" style="padding:20px 0"><a href="${url}" target="_blank" style="font-size:18px;color:#fff;text-decoration:none;padding:10px 20px;border:1px solid #346df1;display:inline-block;font-weight:bold">Sign in</a></td></tr>
      <tr><td align="center" style="padding:0 0 10px;font-size:16px;color:#444">If you did not request this email you can safely ignore it. © 2026 Example</td></tr></table></body>`;
    expect(extractCodes('Sign in to app.example.com', `Sign in to app.example.com\n${url}\n\n`, html)).toEqual([]);
  });

  it('Auth.js with an OTP token: the code from subject, text and HTML once', () => {
    const html = '<p>Sign in to <b>app.example.com</b></p><p>Your sign-in code:</p><div style="font-size:32px;letter-spacing:6px">731904</div><p>It expires in 10 minutes.</p>';
    expect(extractCodes('Your sign-in code: 731904', 'Your sign-in code: 731904\nIt expires in 10 minutes.', html)).toEqual(['731904']);
  });

  it('Clerk-style verification code with a request time, location and IP', () => {
    const html = `<h1>Verification code</h1><p>Enter the following verification code when prompted:</p>
      <p style="font-size:28px;font-weight:700">482913</p>
      <p>To protect your account, do not share this code.</p>
      <p>This request was made from Chrome on macOS, Berlin, DE (203.0.113.54) on November 22, 2026 at 10:42 AM UTC.</p>
      <p>Didn't request this? <a href="https://accounts.example.com/user/security">Secure your account</a>. Need help? support@example.com</p>`;
    expect(extractCodes('482913 is your verification code', null, html)).toEqual(['482913']);
  });

  it('Supabase-style OTP with a confirmation URL', () => {
    const text = [
      'Confirm your signup',
      '',
      'Follow this link to confirm your user:',
      'https://xyzcompany.supabase.co/auth/v1/verify?token=5b6a8c2f1e4d&type=signup&redirect_to=http://localhost:3000',
      '',
      'Alternatively, enter the code: 120934',
    ].join('\n');
    const html = '<h2>Confirm your signup</h2><p>Follow this link to confirm your user:</p><p><a href="https://xyzcompany.supabase.co/auth/v1/verify?token=5b6a8c2f1e4d&amp;type=signup">Confirm your mail</a></p><p>Alternatively, enter the code: 120934</p>';
    expect(extractCodes('Confirm Your Signup', text, html)).toEqual(['120934']);
  });

  it('upper-case letters and digits, 6 to 8 long, with a digit', () => {
    expect(extractCodes('Your code', 'Use K7Q2M9XZ to sign in. Backup: ABCDEF (no digit), AB12 (too short).', null)).toEqual(['K7Q2M9XZ']);
    expect(extractCodes(null, 'Reset code: 4F8K2P.', null)).toEqual(['4F8K2P']);
  });

  it('an order email with a year, dates, times and prices: no code', () => {
    const text = [
      'Thanks for your order #10423, placed on March 12, 2026 at 14:05.',
      'Order INV-202611 · 2 items',
      'Subtotal: $1,249.00',
      'Shipping: 4,99 €',
      'Tax: USD 120',
      'Total: 1374 EUR',
      'Estimated delivery: 2026-03-15 (or 15/03/2026), tracking ships 12.03.26.',
      'Call us: +1 555 010 1234 or write to orders+1042@shop.example.com.',
      'View it: https://shop.example.com/orders/10423?ref=email-2026',
      'Reward points: 1,000,000. Reference 1234567890.',
      '© 2026 Shop Inc., version v2.1.3',
    ].join('\n');
    const html = `<p>${text.replace(/\n/g, '</p><p>')}</p><p>12 March 2026 · Mar 2026</p>`;
    expect(extractCodes('Your order #10423 — March 12, 2026', text, html)).toEqual([]);
  });

  it('each code once, in order of first appearance across subject, text and HTML', () => {
    expect(extractCodes('Codes 1111 and 2222', 'Then 3333, again 1111.', '<p>4444 and <b>2222</b></p>')).toEqual(['1111', '2222', '3333', '4444']);
  });
});

describe('codes on inspected emails', () => {
  const t = useFreshEmulatorPerTest();

  it('are listed beside links in the admin API, emu.emails() and emu.waitForEmail()', async () => {
    const waiting = t.emu.waitForEmail({ to: 'ada@' }, { timeout: 5_000 });
    const res = await t.api.post('/emails').send({
      from: 'auth@example.com', to: 'ada@example.org', subject: '731904 is your code',
      html: '<p>Code <b>731904</b> or <a href="https://app.example.com/verify?code=731904">verify</a></p>',
    });
    expect(res.status).toBe(200);
    const waited = await waiting;
    expect(waited?.codes).toEqual(['731904']);
    expect(waited?.links).toEqual(['https://app.example.com/verify?code=731904']);
    expect(t.emu.emails({ to: 'ada@' })[0].codes).toEqual(['731904']);
    const viaApi = await t.anon.get(`/_emulator/emails/${res.body.id}`);
    expect(viaApi.body.codes).toEqual(['731904']);
    const list = await t.anon.get('/_emulator/emails?to=ada@');
    expect(list.body.data[0].codes).toEqual(['731904']);
  });
});
