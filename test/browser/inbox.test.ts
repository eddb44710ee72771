/**
 * The inbox page in a real browser: playwright-core driving the Chromium of
 * the `@sparticuz/chromium` dev dependency (./launch.ts; `CHROMIUM_PATH`
 * overrides). Nothing is skipped. Saves the screenshot
 * `docs/inbox.png` (with UPDATE_SCREENSHOTS=1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './launch.js';
import { Resend } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { startReceiver, type Receiver } from '../deliveries/receiver.js';

// The README's screenshot is refreshed with UPDATE_SCREENSHOTS=1; other runs
// write it under test-results/ so a test run leaves the tree clean.
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs', 'inbox.png') : path.join(ROOT, 'test-results', 'inbox.png');
const TIMEOUT = 60_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, TIMEOUT);
afterAll(async () => {
  await browser?.close();
});

const receivers: Receiver[] = [];
let page: Page;
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1 });
});
afterEach(async () => {
  await page?.close();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function openInbox(t: TestEmulator) {
  await page.goto(`${t.emu.url}/_emulator/`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#live.on');
}

/** A webhook whose receiver fails the first attempt and accepts the rest. */
async function failingOnceHook(t: TestEmulator, events: string[]) {
  const rx = await startReceiver((n) => (n === 1 ? 500 : 200));
  receivers.push(rx);
  const res = await t.api.post('/webhooks').send({ endpoint: rx.url, events }).expect(201);
  return { rx, id: res.body.id as string };
}

describe('inbox page', () => {
  // The dashboard as one looks around it (`emulator start --fixtures demo`): the demo set's history is listed.
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });

  it('shows webhook deliveries live, replays one, advances the clock and switches teams', async () => {
    const { rx } = await failingOnceHook(t, ['domain.created', 'domain.updated']);
    const domain = (await t.api.post('/domains').send({ name: 'inbox-demo.dev' }).expect(201)).body;
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(1);

    await openInbox(t);
    await expect.poll(() => page.locator('#team-select option').count()).toBe(2);
    expect(await page.locator('#team-select').inputValue()).toBe(FIXTURES.defaultTeamId);
    const start = await page.locator('#clock-now').textContent();

    await page.click('[data-tab="deliveries"]');
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBe(1);

    // A new event appears without reload (server-sent events).
    await t.api.post(`/domains/${domain.id}/verify`).expect(200);
    await t.emu.clock.advance(0);
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBe(2);

    // Open the failed delivery (the oldest, last in the list) and replay it.
    await page.locator('[data-testid="delivery-item"]').last().click();
    await expect.poll(() => page.locator('#attempts tbody tr').count()).toBe(1);
    expect(await page.locator('[data-testid="delivery-status"]').textContent()).toBe('pending');
    expect(await page.locator('[data-testid="payload"]').textContent()).toContain('"domain.created"');
    await page.click('#replay');
    await expect.poll(() => page.locator('#attempts tbody tr').count()).toBe(2);
    await expect.poll(() => page.locator('[data-testid="delivery-status"]').textContent()).toBe('succeeded');
    expect(rx.requests).toHaveLength(3);
    expect(rx.requests[2].headers['svix-id']).toBe(rx.requests[0].headers['svix-id']);

    // Advance the clock from the page: the domain verification (5 s) runs and its event shows up.
    await page.fill('#advance-input', '5s');
    await page.click('#advance-button');
    await expect.poll(() => page.locator('#clock-now').textContent()).not.toBe(start);
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBe(3);
    const shown = Date.parse((await page.locator('#clock-now').textContent())!.replace(' UTC', 'Z').replace(' ', 'T'));
    expect(shown).toBe(Math.floor(t.emu.clock.now().getTime() / 1000) * 1000);
    expect(t.emu.clock.now().getTime() - Date.parse(domain.created_at.replace(' ', 'T').replace('+00', 'Z'))).toBeGreaterThanOrEqual(5000);

    // The other team has no delivery.
    await page.selectOption('#team-select', FIXTURES.secondTeamId);
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBe(0);
    await page.selectOption('#team-select', FIXTURES.defaultTeamId);
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBe(3);
    await page.locator('[data-testid="delivery-item"]').last().click();
    await page.waitForSelector('#attempts');
    await page.waitForSelector('#toast:not(.show)');
    await page.screenshot({ path: SCREENSHOT });
  }, TIMEOUT);

  it('lists a sent email, renders its HTML in a sandboxed iframe beside its text, replays a delivery, advances the clock', async () => {
    const { rx } = await failingOnceHook(t, ['email.sent', 'email.delivered']);
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    await openInbox(t);
    // The demo fixtures' sent emails of the default team are listed first.
    await expect.poll(() => page.locator('[data-testid="email-item"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const initial = await page.locator('[data-testid="email-item"]').count();

    const { data, error } = await resend.emails.send({
      from: `Acme <hello@${FIXTURES.verifiedDomain}>`,
      to: ['delivered@resend.dev'],
      subject: 'Your order #1042 has shipped',
      html: '<div style="font-family:system-ui;padding:24px"><h1 style="color:#111827">Hello Ada</h1><p>Your order <b>#1042</b> is on its way.</p><script>document.body.setAttribute("data-pwned","1")</script></div>',
      text: 'Hello Ada\n\nYour order #1042 is on its way.',
      tags: [{ name: 'category', value: 'shipping' }],
    });
    expect(error).toBeNull();

    // Listed without reload, newest first, then opened.
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBe(initial + 1);
    expect(await page.locator('[data-testid="email-item"]').first().getAttribute('data-id')).toBe(data!.id);
    await page.fill('#search', 'order #1042');
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBe(1);
    await page.fill('#search', 'no such thing');
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBe(0);
    await page.fill('#search', '');
    await page.locator(`[data-testid="email-item"][data-id="${data!.id}"]`).click();
    expect(await page.locator('[data-testid="email-subject"]').textContent()).toBe('Your order #1042 has shipped');
    const frame = page.locator('#email-html');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect.poll(() => page.frameLocator('#email-html').locator('h1').textContent()).toBe('Hello Ada');
    expect(await page.frameLocator('#email-html').locator('body').getAttribute('data-pwned')).toBeNull();
    expect(await page.locator('#email-text').textContent()).toContain('Your order #1042 is on its way.');

    // Its webhook delivery (email.sent, 1 s after the send), replayed from the page.
    await t.emu.clock.advance('1s');
    await page.click('[data-tab="deliveries"]');
    await expect.poll(() => page.locator('[data-testid="delivery-item"]').count()).toBeGreaterThan(0);
    await page.locator('[data-testid="delivery-item"]').last().click();
    const before = await page.locator('#attempts tbody tr').count();
    await page.click('#replay');
    await expect.poll(() => page.locator('#attempts tbody tr').count()).toBe(before + 1);
    expect(rx.requests.length).toBeGreaterThan(before);

    // Advance the clock from the page; the email's status follows.
    const start = await page.locator('#clock-now').textContent();
    await page.click('[data-advance="1m"]');
    await expect.poll(() => page.locator('#clock-now').textContent()).not.toBe(start);
    await page.click('[data-tab="emails"]');
    await page.locator(`[data-testid="email-item"][data-id="${data!.id}"]`).click();
    await expect.poll(() => page.locator('[data-testid="email-events"] li').count()).toBeGreaterThan(0);
    await page.waitForSelector('#toast:not(.show)');
    await page.screenshot({ path: SCREENSHOT });
  }, TIMEOUT);

  it('at 1280×800 and narrower the header fits (Advance button visible), with no failed request such as /favicon.ico', async () => {
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    // Navigating away aborts the live-update stream; that is not a failure.
    page.on('requestfailed', (r) => {
      if (!(r.url().endsWith('/_emulator/events') && /ABORTED/.test(r.failure()?.errorText ?? ''))) failed.push(`failed ${r.url()}: ${r.failure()?.errorText}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') failed.push(`console: ${m.text()}`);
    });
    for (const [width, height] of [[1280, 800], [1024, 768], [800, 700]]) {
      await page.setViewportSize({ width, height });
      await openInbox(t);
      const header = await page.locator('header').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(header.scroll, `header overflows at ${width}px`).toBeLessThanOrEqual(header.client);
      for (const sel of ['#advance-button', '#advance-input', '#team-select', '#clock-now', '[data-advance="1h"]']) {
        const box = (await page.locator(sel).boundingBox())!;
        expect(box, `${sel} at ${width}px`).not.toBeNull();
        expect(box.x, `${sel} at ${width}px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${sel} clipped at ${width}px`).toBeLessThanOrEqual(width);
      }
      // The list and the detail still share the rest of the window.
      const main = (await page.locator('main').boundingBox())!;
      expect(main.height).toBeGreaterThan(height / 2);
      if (width === 1280) await page.screenshot({ path: path.join(ROOT, 'test-results', 'inbox-1280.png') });
    }
    // A desktop browser asks for /favicon.ico (a 404 in the console) unless the page names an icon.
    expect(await page.locator('link[rel="icon"]').count()).toBe(1);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    expect(failed).toEqual([]);
  }, TIMEOUT);
});

describe('inbox page with an admin token', () => {
  const t = useFreshEmulatorPerTest({ adminToken: 'inbox-admin-token' });

  it('asks for the token once (a wrong one is refused), then lists, goes live and downloads the source with it', async () => {
    const sent = await t.api.post('/emails').send({ from: 'a@example.com', to: 'token@example.net', subject: 'Behind the token', text: 'hello' }).expect(200);
    await page.goto(`${t.emu.url}/_emulator/`);
    await page.waitForSelector('[data-testid="token-gate"]:not([hidden])');
    await page.fill('[data-testid="token-input"]', 'wrong');
    await page.click('[data-testid="token-submit"]');
    await page.waitForSelector('[data-testid="token-error"]:not([hidden])');
    await page.fill('[data-testid="token-input"]', 'inbox-admin-token');
    await page.click('[data-testid="token-submit"]');
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForSelector('#live.on'); // the EventSource got in with the cookie
    await expect.poll(() => page.locator(`[data-testid="email-item"][data-id="${sent.body.id}"]`).count()).toBe(1);
    // Live: a new email shows without reload.
    await t.api.post('/emails').send({ from: 'a@example.com', to: 'token@example.net', subject: 'Second', text: 'hi' }).expect(200);
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBeGreaterThanOrEqual(2);
    // A link the page opens without script (the .eml download) carries the cookie.
    const raw = await page.evaluate((id) => fetch('/_emulator/emails/' + id + '/raw').then((r) => r.status), sent.body.id);
    expect(raw).toBe(200);
    // Kept for the session: a reload does not ask again.
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.locator('[data-testid="token-gate"]').isHidden()).toBe(true);
  }, TIMEOUT);
});
