/**
 * `toRenderIn` and `checkEmailHtml` of `resend-emulator/vitest`
 * (src/testing/render-check.ts): the HTML check of a sent email against
 * named clients, from the caniemail data; the failure names each feature
 * and the clients that lack it. Only what breaks rendering fails by default
 * (docs/reference/design.md#the-html-check-what-breaks-rendering): emails
 * as teams write them (React Email's components, a table-based marketing
 * email) pass Outlook, Gmail and Apple Mail.
 */
import { describe, expect, it } from 'vitest';
import { checkEmailHtml, useEmulator } from '../../src/vitest.js';
import { HARMLESS, caniemailFeatures } from '../../src/admin/html-check.js';
import { MARKETING_HTML, smallestReactEmail, welcomeReactEmail } from './email-templates.js';

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

describe('toRenderIn: what breaks rendering and what is harmless', () => {
  const clients = ['outlook', 'gmail', 'apple-mail'];

  it('passes a whole document: <body> is wrapped by the client (Outlook macOS lacks it), which is harmless', async () => {
    const email = await sent('<!doctype html><html><body><p>Hello</p></body></html>');
    await expect(email).toRenderIn(['outlook', 'gmail']);
    // Counted only when asked: Outlook macOS does not support <body>.
    expect(await failure(expect(email).toRenderIn(['outlook'], { includeHarmless: true }))).toMatch(/- <body> element \(html, .*\): .*Outlook macOS \(not supported\)/);
  });

  it('passes role="presentation" (Outlook Windows Mail lacks it: read by screen readers only)', async () => {
    const email = await sent('<table role="presentation" width="100%"><tr><td>Hello</td></tr></table>');
    await expect(email).toRenderIn(['outlook', 'gmail']);
  });

  it('passes <a target="_blank"> (Gmail forces it on every link)', async () => {
    const email = await sent('<p><a href="https://acme.example.com" target="_blank">Open</a></p>');
    await expect(email).toRenderIn(['outlook', 'gmail']);
  });

  it('passes the smallest React Email template', async () => {
    const email = await sent(await smallestReactEmail());
    await expect(email).toRenderIn(['outlook', 'gmail']);
  });

  it('passes a template of React Email components (Html, Head, Body, Container, Section, Text, Img, Button, Link) in Outlook, Gmail and Apple Mail', async () => {
    const html = await welcomeReactEmail();
    expect(html).toContain('role="presentation"');
    const email = await sent(html);
    await expect(email).toRenderIn(clients);
  });

  it('passes a table-based marketing email (role="presentation", bgcolor, width, a button of a table cell and a link) in Outlook, Gmail and Apple Mail', async () => {
    const email = await sent(MARKETING_HTML);
    await expect(email).toRenderIn(clients);
    // border-radius (the button's corners) is missing in Outlook Windows: a decoration, harmless.
    const radius = (await checkEmailHtml(email)).findings.find((f) => f.slug === 'css-border-radius')!;
    expect(radius.clients.find((c) => c.client === 'outlook.windows')).toMatchObject({ support: 'none', breaks: false });
    expect(radius.harmless).toMatch(/decoration/);
  });

  it('fails display:flex in Outlook, naming the feature, the clients and their support, and the harmless findings it did not count', async () => {
    const email = await sent(`<!doctype html><html><body><div style="display:flex"><a href="https://acme.example.com" target="_blank">A</a></div></body></html>`);
    const message = await failure(expect(email).toRenderIn(clients));
    expect(message).toMatch(/- display:flex \(css, https:\/\/www\.caniemail\.com\/features\/css-display-flex\/\): Outlook Windows \(not supported\), Outlook Windows Mail \(not supported\)/);
    expect(message).toMatch(/not counted, harmless there: .*<body> element.*target attribute/);
    expect(message).not.toMatch(/- <body> element|- target attribute/);
  });

  it('fails <svg> in Outlook and Gmail (found here: caniemail\'s parser misses it)', async () => {
    const email = await sent('<p>Chart:</p><svg width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');
    const message = await failure(expect(email).toRenderIn(clients));
    expect(message).toMatch(/- Embedded <svg> image \(html, https:\/\/www\.caniemail\.com\/features\/html-svg\/\): Gmail Desktop Webmail \(not supported\).*Outlook Windows \(not supported\)/);
    await expect(email).toRenderIn(['apple-mail.ios']);
  });

  it('fails a WebP image in Outlook Windows (image formats, found here from <img src>)', async () => {
    const email = await sent('<img src="https://acme.example.com/hero.webp?v=2" width="600" alt="Hero">');
    const message = await failure(expect(email).toRenderIn(['outlook.windows']));
    expect(message).toMatch(/- webP image format \(image, https:\/\/www\.caniemail\.com\/features\/image-webp\/\): Outlook Windows \(not supported\)/);
    await expect(email).toRenderIn(['apple-mail']);
  });

  it('fails a data: URI image in Gmail (Base 64 image format) and passes it in Apple Mail', async () => {
    const email = await sent('<img src="data:image/png;base64,iVBORw0KGgo=" width="1" alt="">');
    expect(await failure(expect(email).toRenderIn(['gmail.desktop-webmail']))).toMatch(/- Base 64 image format \(image, .*\): Gmail Desktop Webmail \(not supported\)/);
    await expect(email).toRenderIn(['apple-mail']);
  });

  it('does not count an <svg> inside a comment (an Outlook conditional block is a comment)', async () => {
    const email = await sent('<!--[if !mso]><svg width="1" height="1"></svg><![endif]--><p>Hi</p>');
    expect((await checkEmailHtml(email)).findings.some((f) => f.slug === 'html-svg')).toBe(false);
  });

  it('gives caniemail\'s notes of the clients that fail', async () => {
    const email = await sent('<table><tr><td style="background-image:url(https://acme.example.com/bg.png)">Hi</td></tr></table>');
    const message = await failure(expect(email).toRenderIn(['outlook.windows']));
    expect(message).toMatch(/- background-image \(css, .*\): Outlook Windows \(not supported\)\n {6}notes: Background images can be used in VML/);
  });

  it('ignores a feature named in ignore, by slug or by title, any case', async () => {
    const email = await sent('<div style="display:flex">A</div>');
    await expect(email).not.toRenderIn(['outlook']);
    await expect(email).toRenderIn(['outlook'], { ignore: ['css-display-flex'] });
    await expect(email).toRenderIn(['outlook'], { ignore: ['Display:Flex'] });
  });

  it('rejects an ignore name caniemail does not have', async () => {
    const email = await sent('<p>x</p>');
    expect(await failure(expect(email).toRenderIn(['outlook'], { ignore: ['css-display-flux'] }))).toMatch(/unknown feature in `ignore`: "css-display-flux"/);
  });

  it('counts partial support with minSupport: full (and strict: true); minSupport wins over strict', async () => {
    // Outlook Windows supports font-size only partly (no rem).
    const email = await sent('<p style="font-size:16px">x</p>');
    await expect(email).toRenderIn(['outlook.windows']);
    expect(await failure(expect(email).toRenderIn(['outlook.windows'], { minSupport: 'full' }))).toMatch(/do not support in full:\n {2}- font-size \(css, .*\): Outlook Windows \(partial\)\n {6}notes: Partial support\. `rem` values are not supported\./);
    await expect(email).not.toRenderIn(['outlook.windows'], { strict: true });
    await expect(email).toRenderIn(['outlook.windows'], { strict: true, minSupport: 'partial' });
  });

  it('rejects a minSupport other than partial or full', async () => {
    const email = await sent('<p>x</p>');
    expect(await failure(expect(email).toRenderIn(['outlook'], { minSupport: 'none' as 'full' }))).toMatch(/`minSupport` is 'partial' or 'full', not "none"/);
  });

  it('counts dir only when it asks for rtl', async () => {
    const ltr = (await checkEmailHtml(await sent('<html dir="ltr"><p>x</p></html>'))).findings.find((f) => f.slug === 'html-dir')!;
    expect(ltr.harmless).toMatch(/ltr/);
    const rtl = (await checkEmailHtml(await sent('<html dir="rtl"><p>x</p></html>'))).findings.find((f) => f.slug === 'html-dir')!;
    expect(rtl.harmless).toBeNull();
  });
});

describe('checkEmailHtml: each finding says whether it breaks rendering', () => {
  it('marks display:flex as breaking in the clients that lack it and <body> as harmless, with the reason', async () => {
    const check = await checkEmailHtml(await sent('<html><body><div style="display:flex">A</div></body></html>'));
    const flex = check.findings.find((f) => f.slug === 'css-display-flex')!;
    expect(flex).toMatchObject({ harmless: null, breaks: true });
    expect(flex.clients.find((c) => c.client === 'outlook.windows')).toMatchObject({ support: 'none', breaks: true });
    // Partial support does not break by default.
    expect(flex.clients.filter((c) => c.support === 'partial').every((c) => !c.breaks)).toBe(true);
    const body = check.findings.find((f) => f.slug === 'html-body')!;
    expect(body).toMatchObject({ breaks: false, harmless: expect.stringMatching(/wraps the content/) });
    expect(body.clients.find((c) => c.client === 'outlook.macos')).toMatchObject({ support: 'none', breaks: false });
  });

  it('names only features caniemail has in its harmless list', async () => {
    const slugs = new Set((await caniemailFeatures()).map((f) => f.slug));
    expect(Object.keys(HARMLESS).filter((s) => !slugs.has(s))).toEqual([]);
  });
});

