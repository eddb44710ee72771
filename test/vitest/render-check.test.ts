/**
 * `toRenderIn` and `checkEmailHtml` of `resend-emulator/vitest`
 * (src/testing/render-check.ts): the HTML check of a sent email against
 * named clients, from the caniemail data; the failure names each feature
 * and the clients that lack it.
 */
import { describe, expect, it } from 'vitest';
import { checkEmailHtml, useEmulator } from '../../src/vitest.js';

const emu = useEmulator();

async function sent(html: string) {
  const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Render me', html });
  expect(error).toBeNull();
  return emu.emails({ to: 'ada@example.net' }).find((e) => e.id === data!.id)!;
}

/** The message of `p`'s rejection. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the assertion passed');
}

describe('toRenderIn', () => {
  it('fails for an email using display:flex in Outlook, naming the feature and the Outlook clients', async () => {
    const email = await sent('<html><head><style>.row{display:flex}</style></head><body><div class="row">Hi</div></body></html>');
    const message = await failure(expect(email).toRenderIn(['outlook', 'gmail']));
    expect(message).toContain(`expected email ${email.id} to render in "outlook", "gmail"`);
    expect(message).toMatch(/- display:flex \(css, https:\/\/www\.caniemail\.com\/features\/css-display-flex\/\): .*Outlook Windows \(not supported\)/);
    // Apple Mail supports everything this email uses.
    await expect(email).toRenderIn(['apple-mail']);
    await expect(email).not.toRenderIn(['outlook.windows']);
  });

  it('passes for simple inline-styled HTML in Outlook and Gmail; checkEmailHtml returns the check with every client family', async () => {
    const email = await sent('<table><tr><td style="color:#111827;padding:8px">Hello</td></tr></table>');
    await expect(email).toRenderIn(['outlook', 'gmail']);
    const check = await checkEmailHtml(email);
    expect(check.object).toBe('html_check');
    expect(check.families.map((f) => f.family)).toEqual(expect.arrayContaining(['gmail', 'outlook', 'apple-mail', 'yahoo', 'samsung-email', 'thunderbird']));
  });

  it('names Gmail\'s clipping when the HTML is over 102 KB', async () => {
    const email = await sent(`<p>${'Lorem ipsum dolor sit amet. '.repeat(4000)}</p>`);
    const message = await failure(expect(email).toRenderIn(['gmail']));
    expect(message).toMatch(/size: the HTML is 109\.\d KB; Gmail clips HTML over 102 KB/);
    await expect(email).toRenderIn(['outlook.windows']);
  });

  it('fails, saying why, when the HTML cannot be read (a <style> block cut short)', async () => {
    const email = await sent('<style>.a{color:</style><p class="a">x</p>');
    expect(await failure(expect(email).toRenderIn(['apple-mail']))).toMatch(/the HTML could not be read \(.*missing '\}'\)/);
  });

  it('rejects an unknown client and a value that is not an email', async () => {
    const email = await sent('<p>x</p>');
    expect(await failure(expect(email).toRenderIn(['outlok']))).toMatch(/unknown client "outlok"; families: .*outlook/);
    expect(await failure(expect({ nope: 1 }).toRenderIn(['gmail']))).toMatch(/expects an email/);
  });
});
