/**
 * The inbox page for a day's work (issue 39), in a real Chromium
 * (playwright-core, ./launch.ts): dark mode (the system's and the toggle's,
 * the email's own colours kept), unread emails and the count in the title,
 * the opt-in notification, Delete and Clear, Send to a real inbox through
 * `--relay` (an SMTP server the test starts on 127.0.0.1), and the layout
 * (attachments near the top, the preview as tall as its content, the phone
 * header collapsing as the list scrolls). Screenshots go to test-results/
 * (docs/ with UPDATE_SCREENSHOTS=1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FIXTURES, client, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { collectProblems, launchBrowser } from './launch.js';
import { startSink, type Sink } from '../admin/smtp-sink.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs') : path.join(ROOT, 'test-results');
const TIMEOUT = 90_000;
const FROM = `Acme <hello@${FIXTURES.verifiedDomain}>`;
const TITLE = 'Inbox · resend-emulator';

let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
}, TIMEOUT);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1366, height: 860 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  collectProblems(page, problems);
});
afterEach(async () => {
  await context?.close();
  expect(problems.splice(0)).toEqual([]);
});

async function open(url: string) {
  await page.goto(`${url}/_emulator/`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  await page.waitForSelector('#live.on');
}
async function send(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Hello', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}
const item = (id: string) => page.locator(`[data-testid="email-item"][data-id="${id}"]`);
/** The computed value of a CSS property of the first element matching `sel`. */
const css = (sel: string, prop: string) => page.locator(sel).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

describe('dark mode', () => {
  const t = useFreshEmulatorPerTest();

  it('follows prefers-color-scheme: dark chrome, the email keeps its own colours', async () => {
    const id = await send(t.api, { subject: 'Colours', html: '<p id="plain">Plain text</p><p id="brand" style="color:#0a7d33">Brand green</p>' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await open(t.emu.url);
    await item(id).click();
    await expect.poll(() => page.frameLocator('#email-html').locator('#brand').textContent()).toBe('Brand green');
    expect(await css('body', 'background-color')).toBe('rgb(15, 17, 21)');
    expect(await css('body', 'color')).toBe('rgb(230, 232, 236)');
    expect(await css('aside', 'background-color')).toBe('rgb(23, 26, 33)');
    expect(await css('.card', 'background-color')).toBe('rgb(23, 26, 33)');
    // The email: its frame white, its unstyled text black, its own colour as written.
    expect(await css('#email-html', 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await page.frameLocator('#email-html').locator('#plain').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(0, 0, 0)');
    expect(await page.frameLocator('#email-html').locator('#brand').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(10, 125, 51)');
    await page.screenshot({ path: path.join(SHOTS, 'inbox-dark.png') });
  }, TIMEOUT);

  it('renders light when the system is light', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open(t.emu.url);
    expect(await css('body', 'background-color')).toBe('rgb(246, 247, 249)');
    expect(await page.locator('[data-testid="theme-toggle"]').textContent()).toContain('Auto');
  }, TIMEOUT);

  it('the toggle goes Auto → Dark → Light → Auto, over the system, and is kept across reloads', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open(t.emu.url);
    const toggle = page.locator('[data-testid="theme-toggle"]');
    await toggle.click();
    expect(await toggle.textContent()).toContain('Dark');
    expect(await css('body', 'background-color')).toBe('rgb(15, 17, 21)');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await css('body', 'background-color')).toBe('rgb(15, 17, 21)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await toggle.click();
    expect(await toggle.textContent()).toContain('Light');
    expect(await css('body', 'background-color')).toBe('rgb(246, 247, 249)');
    await toggle.click();
    expect(await toggle.textContent()).toContain('Auto');
    expect(await css('body', 'background-color')).toBe('rgb(15, 17, 21)');
    expect(await page.evaluate(() => localStorage.getItem('inbox.theme'))).toBeNull();
  }, TIMEOUT);
});

describe('arrivals', () => {
  const t = useFreshEmulatorPerTest();

  it('counts unread emails in the title; opening one reads it; Mark all read clears the count', async () => {
    await open(t.emu.url);
    expect(await page.title()).toBe(TITLE);
    const a = await send(t.api, { subject: 'First', text: 'one' });
    const b = await send(t.api, { subject: 'Second', text: 'two' });
    await expect.poll(() => page.title()).toBe(`(2) ${TITLE}`);
    expect(await item(a).getAttribute('data-unread')).toBe('1');
    await item(a).click();
    await expect.poll(() => page.title()).toBe(`(1) ${TITLE}`);
    expect(await item(a).getAttribute('data-unread')).toBeNull();
    expect(await item(b).getAttribute('data-unread')).toBe('1');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    await expect.poll(() => page.title()).toBe(`(1) ${TITLE}`);
    await page.click('[data-testid="mark-read"]');
    await expect.poll(() => page.title()).toBe(TITLE);
  }, TIMEOUT);

  it('asks for notification permission only on a click of Notify, then notifies each new email', async () => {
    // A stand-in for the browser's Notification: records what the page asks and shows.
    await page.addInitScript(() => {
      const w = window as unknown as { __asked: number; __shown: { title: string; body: string }[] };
      w.__asked = 0;
      w.__shown = [];
      class FakeNotification {
        static permission: NotificationPermission = 'default';
        static requestPermission() {
          w.__asked++;
          FakeNotification.permission = 'granted';
          return Promise.resolve('granted' as NotificationPermission);
        }
        constructor(title: string, options?: NotificationOptions) {
          w.__shown.push({ title, body: options?.body ?? '' });
        }
      }
      (window as unknown as { Notification: unknown }).Notification = FakeNotification;
    });
    await open(t.emu.url);
    await send(t.api, { subject: 'Before opting in', text: 'x' });
    await expect.poll(() => page.title()).toBe(`(1) ${TITLE}`);
    expect(await page.evaluate(() => (window as any).__asked)).toBe(0);
    await page.click('[data-testid="notify-toggle"]');
    await expect.poll(() => page.locator('[data-testid="notify-toggle"]').getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => (window as any).__asked)).toBe(1);
    expect(await page.evaluate(() => (window as any).__shown)).toEqual([]);
    await send(t.api, { subject: 'Your code is 123456', text: 'x' });
    await expect.poll(() => page.evaluate(() => (window as any).__shown)).toEqual([{ title: 'Sent: Your code is 123456', body: `from ${FROM}` }]);
  }, TIMEOUT);
});

describe('tidying', () => {
  const t = useFreshEmulatorPerTest();

  it('Delete removes the open email from the page and the store', async () => {
    const gone = await send(t.api, { subject: 'Delete me', text: 'x' });
    const kept = await send(t.api, { subject: 'Keep me', text: 'x' });
    await open(t.emu.url);
    await item(gone).click();
    await page.click('[data-testid="delete-email"]');
    await expect.poll(() => item(gone).count()).toBe(0);
    expect(await item(kept).count()).toBe(1);
    await page.waitForSelector('[data-testid="placeholder"]');
    await t.anon.get(`/_emulator/emails/${gone}`).expect(404);
    expect(await page.locator('#count-emails').textContent()).toBe('1');
  }, TIMEOUT);

  it("Clear, once confirmed, deletes the team's sent emails; dismissed, nothing", async () => {
    await send(t.api, { subject: 'One', text: 'x' });
    await send(t.api, { subject: 'Two', text: 'x' });
    await open(t.emu.url);
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBe(2);
    page.once('dialog', (d) => void d.dismiss());
    await page.click('[data-testid="clear-emails"]');
    expect((await t.anon.get('/_emulator/emails').expect(200)).body.data).toHaveLength(2);
    const message = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
    await page.click('[data-testid="clear-emails"]');
    expect(await message).toContain('Delete every sent email of the team');
    await expect.poll(() => page.locator('#list').textContent()).toContain('No email sent yet.');
    expect((await t.anon.get('/_emulator/emails').expect(200)).body.data).toEqual([]);
    expect(await page.title()).toBe(TITLE);
  }, TIMEOUT);
});

describe('Send to a real inbox', () => {
  let sink: Sink;
  let emu: EmulatorServer | undefined;
  beforeEach(async () => {
    sink = await startSink();
  });
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
    await sink.close();
  });

  it('sends the email through --relay to the typed address and says so', async () => {
    emu = await startServer({ relay: sink.url(), validateResponses: true });
    const id = await send(client(emu.url, emu.apiKey), { subject: 'See it in Outlook', html: '<p>Hi</p>' });
    await open(emu.url);
    await item(id).click();
    await page.fill('[data-testid="release-to"]', 'me@example.org');
    await page.click('[data-testid="release"]');
    await expect.poll(() => page.locator('[data-testid="release-result"]').textContent()).toMatch(new RegExp(`^Sent to me@example\\.org through 127\\.0\\.0\\.1:${sink.port}: 250`));
    expect(sink.messages.map((m) => m.to)).toEqual([['me@example.org']]);
    expect(sink.messages[0]!.raw).toContain('Subject: See it in Outlook');
  }, TIMEOUT);

  it('without --relay shows how to configure one, and sends nothing', async () => {
    emu = await startServer({ validateResponses: true });
    const id = await send(client(emu.url, emu.apiKey), { subject: 'No relay', text: 'x' });
    await open(emu.url);
    await item(id).click();
    await page.fill('[data-testid="release-to"]', 'me@example.org');
    await page.click('[data-testid="release"]');
    await expect.poll(() => page.locator('[data-testid="release-result"]').textContent()).toContain('No relay is configured: start the emulator with --relay');
    expect(sink.messages).toEqual([]);
  }, TIMEOUT);
});

describe('layout', () => {
  const t = useFreshEmulatorPerTest();

  it("puts an email's attachments above its content", async () => {
    const id = await send(t.api, { subject: 'With a file', html: '<p>See attached.</p>', attachments: [{ filename: 'invoice.txt', content: 'aGVsbG8=' }] });
    await open(t.emu.url);
    await item(id).click();
    const attachments = (await page.locator('[data-testid="attachments"]').boundingBox())!;
    const preview = (await page.locator('#email-html').boundingBox())!;
    expect(attachments.y).toBeLessThan(preview.y);
    expect(attachments.y).toBeLessThan(400);
  }, TIMEOUT);

  it('sizes the preview to a short email, and caps a long one at 1200 px', async () => {
    const short = await send(t.api, { subject: 'Short', html: '<p style="margin:0;height:60px">Two lines.</p>' });
    const long = await send(t.api, { subject: 'Long', html: '<div style="height:3000px">Tall</div>' });
    await open(t.emu.url);
    await item(short).click();
    await page.waitForSelector('#email-html[data-fitted]');
    expect((await page.locator('#email-html').boundingBox())!.height).toBe(120);
    await item(long).click();
    await page.waitForSelector('#email-html[data-fitted]');
    expect(Number(await page.locator('#email-html').getAttribute('data-fitted'))).toBeGreaterThanOrEqual(3000);
    expect((await page.locator('#email-html').boundingBox())!.height).toBe(1200);
  }, TIMEOUT);

  it('on a phone (390 px) the header collapses as the list scrolls down and comes back at the top', async () => {
    for (let i = 0; i < 25; i++) await send(t.api, { subject: `Email ${i}`, text: 'x' });
    await page.setViewportSize({ width: 390, height: 844 });
    await open(t.emu.url);
    await expect.poll(() => page.locator('[data-testid="email-item"]').count()).toBe(25);
    const header = async () => (await page.locator('header').boundingBox())!.height;
    const tabs = async () => (await page.locator('nav.views').boundingBox())!.height;
    const full = await header();
    const fullTabs = await tabs();
    expect(full).toBeGreaterThan(100);
    expect(fullTabs).toBeGreaterThan(100);
    await page.locator('main').evaluate((m) => m.scrollTo(0, 200));
    await page.locator('main').evaluate((m) => m.scrollTo(0, 600));
    await expect.poll(header).toBeLessThan(50);
    // The tabs fold to one row: header and tabs together take under 100 of the 844 px.
    expect(await tabs()).toBeLessThan(50);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'inbox-phone-scrolled.png') });
    await page.locator('main').evaluate((m) => m.scrollTo(0, 0));
    await expect.poll(header).toBe(full);
    expect(await tabs()).toBe(fullTabs);
  }, TIMEOUT);
});
