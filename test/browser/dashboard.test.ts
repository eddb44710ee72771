/**
 * The inbox page's dashboard views in a real browser (playwright-core and
 * the Chromium of `launchBrowser()`): each view shows the seeded state and
 * state created while the page is open (live, over server-sent events); the
 * email Source tab, the `.eml` download, preview widths, codes and links.
 * Screenshots go to test-results/ (docs/ with UPDATE_SCREENSHOTS=1, for the
 * README).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { collectProblems, launchBrowser } from './launch.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs') : path.join(ROOT, 'test-results');
const TIMEOUT = 60_000;

beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

// One browser per test: the bundled Chromium runs with --single-process, where
// closing a page can take the browser down with it.
let browser: Browser;
let page: Page;
const problems: string[] = [];
beforeEach(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1, acceptDownloads: true });
  // Script errors only: a 422 of a bad search and the event stream cut at close are expected network errors.
  collectProblems(page, problems);
}, TIMEOUT);
afterEach(async () => {
  await browser?.close();
  expect(problems.splice(0)).toEqual([]);
});

async function open(t: TestEmulator, tab: string) {
  await page.goto(`${t.emu.url}/_emulator/`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#live.on');
  await page.click(`[data-tab="${tab}"]`);
}

async function shot(name: string) {
  await page.waitForSelector('#toast:not(.show)');
  await page.screenshot({ path: path.join(SHOTS, name) });
}

const items = (kind: string) => page.locator(`[data-testid="${kind}-item"]`);

describe('dashboard views', () => {
  // The demo fixtures (`emulator start --fixtures demo`): each view shows their history, as the screenshots do.
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });

  it('Emails: codes and links, preview widths, the Source tab and the .eml download, search with q', async () => {
    await open(t, 'emails');
    // Without --plan the header shows no limit (GET /usage answers null, or 2147483647 where the SDK types a number).
    await expect.poll(() => page.locator('[data-testid="usage"]').textContent()).toMatch(/^Quota today \d+ · this month [\d,]+ \(recipients sent \+ emails received\) · contacts [\d,]+$/);
    const seeded = await items('email').count();
    expect(seeded).toBeGreaterThan(0);
    const res = await t.api.post('/emails').send({
      from: `Acme <auth@${FIXTURES.verifiedDomain}>`,
      to: 'delivered+ada@resend.dev',
      bcc: 'hidden-auditor@example.org',
      subject: 'Your sign-in code is 731904',
      html: '<div style="font-family:system-ui;padding:24px;max-width:520px;margin:auto"><h1 style="font-size:22px">Sign in to Acme</h1><p>Your code:</p><p style="font-size:32px;letter-spacing:6px;font-weight:700">731904</p><p><a href="https://app.example.com/verify?code=731904">Or click here to sign in</a></p><p style="color:#667085">Requested on March 12, 2026 at 10:42. © 2026 Acme</p></div>',
      text: 'Your code: 731904\nOr open https://app.example.com/verify?code=731904',
      attachments: [{ filename: 'terms.txt', content: Buffer.from('terms').toString('base64') }],
    });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    // Live.
    await expect.poll(() => items('email').count()).toBe(seeded + 1);
    await page.locator(`[data-testid="email-item"][data-id="${id}"]`).click();
    expect(await page.locator('[data-testid="email-codes"] .chip').allTextContents()).toEqual(['731904']);
    expect(await page.locator('[data-testid="email-links"] li').allTextContents()).toEqual(['https://app.example.com/verify?code=731904']);

    // Preview widths.
    const width = async () => (await page.locator('#email-html').boundingBox())!.width;
    await page.click('[data-testid="widths"] [data-value="375"]');
    await expect.poll(width).toBe(375);
    await page.click('[data-testid="widths"] [data-value="768"]');
    await expect.poll(width).toBe(768);
    await page.click('[data-testid="widths"] [data-value="full"]');
    await expect.poll(width).toBeGreaterThan(768);
    await page.click('[data-testid="widths"] [data-value="375"]');
    await expect.poll(() => page.frameLocator('#email-html').locator('h1').textContent()).toBe('Sign in to Acme');
    await shot('dashboard-email.png');

    // Source tab.
    await page.click('[data-testid="pane"] [data-value="source"]');
    await expect.poll(() => page.locator('[data-testid="email-source"]').textContent()).toContain('Subject: Your sign-in code is 731904');
    const source = (await page.locator('[data-testid="email-source"]').textContent())!;
    expect(source).toMatch(/Message-ID: <[^>]+>/);
    expect(source).toContain('multipart/alternative');
    expect(source).not.toContain('hidden-auditor');
    await page.locator('[data-testid="email-source"]').evaluate((el) => el.scrollTo(0, 0));
    await shot('dashboard-source.png');

    // Download.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-eml"]')]);
    expect(download.suggestedFilename()).toBe(`${id}.eml`);
    const file = await download.path();
    expect(fs.readFileSync(file!, 'utf8')).toContain('Subject: Your sign-in code is 731904');
    await page.click('[data-testid="pane"] [data-value="preview"]');

    // The search box speaks q.
    await page.fill('#search', 'has:attachment subject:"sign-in code"');
    await expect.poll(() => items('email').count()).toBe(1);
    await page.fill('#search', 'colour:red');
    await expect.poll(() => page.locator('#list').textContent()).toContain('Unknown search key `colour:`');
    await page.fill('#search', '');
    await expect.poll(() => items('email').count()).toBe(seeded + 1);
  }, TIMEOUT);

  it('Received emails: new ones appear live, with content, codes and source', async () => {
    await open(t, 'received');
    // The fixtures' shared inbox email is the one received email at first (docs/inboxes.md "One fact, one row").
    await expect.poll(() => items('received').count()).toBe(1);
    expect(await items('received').first().textContent()).toContain('Where is my order?');
    await t.anon.post('/_emulator/inbound').send({
      from: 'Ada Lovelace <ada@sender.test>', to: 'support@example.com', subject: 'Re: ticket 4471 — reset code 558210?',
      html: '<p>Hi support, my reset code <b>558210</b> does not work.</p>', text: 'Hi support, my reset code 558210 does not work.',
      attachments: [{ filename: 'screenshot.txt', content: Buffer.from('x').toString('base64') }],
    }).expect(201);
    await expect.poll(() => items('received').count()).toBe(2);
    await items('received').first().click();
    expect(await page.locator('[data-testid="received-subject"]').textContent()).toBe('Re: ticket 4471 — reset code 558210?');
    expect(await page.locator('[data-testid="email-codes"] .chip').allTextContents()).toEqual(['4471', '558210']);
    await expect.poll(() => page.frameLocator('#email-html').locator('b').textContent()).toBe('558210');
    expect(await page.locator('[data-testid="received-attachments"] a').textContent()).toBe('screenshot.txt');
    await shot('dashboard-received.png');
    await page.click('[data-testid="pane"] [data-value="source"]');
    await expect.poll(() => page.locator('[data-testid="email-source"]').textContent()).toContain('ada@sender.test>');
    expect(await page.locator('[data-testid="email-source"]').textContent()).toMatch(/^Message-ID: <[^>]+>/m);
  }, TIMEOUT);

  it('Domains: records with statuses and the claim, new domains live', async () => {
    await open(t, 'domains');
    await expect.poll(() => items('domain').count()).toBe(1);
    const created = await t.api.post('/domains').send({ name: 'mail.acme-demo.dev', capabilities: { sending: 'enabled', receiving: 'enabled' } });
    expect(created.status).toBe(201);
    await expect.poll(() => items('domain').count()).toBe(2);
    await t.api.post(`/domains/${created.body.id}/verify`).expect(200);
    expect((await t.api.post('/domains/claim').send({ name: FIXTURES.claimableDomain })).status).toBe(201);
    await expect.poll(() => items('domain').count()).toBe(3);
    await page.locator(`[data-testid="domain-item"][data-id="${created.body.id}"]`).click();
    await expect.poll(() => page.locator('[data-testid="domain-status"]').textContent()).toBe('pending');
    expect(await page.locator('[data-testid="domain-records"] tbody tr').count()).toBeGreaterThanOrEqual(3);
    // The verification job runs; the page follows.
    await t.emu.clock.advance('10s');
    await expect.poll(() => page.locator('[data-testid="domain-status"]').textContent()).toBe('verified');
    await shot('dashboard-domains.png');
    await page.locator('[data-testid="domain-item"]', { hasText: FIXTURES.claimableDomain }).click();
    await expect.poll(() => page.locator('[data-testid="domain-claim"]').textContent()).toContain('_resend');
  }, TIMEOUT);

  it('Contacts: segments, topics and properties, new contacts live', async () => {
    await open(t, 'contacts');
    await expect.poll(() => items('contact').count()).toBe(3);
    const segments = (await t.api.get('/segments')).body.data;
    const topics = (await t.api.get('/topics')).body.data;
    const res = await t.api.post('/contacts').send({
      email: 'grace@example.org', first_name: 'Grace', last_name: 'Hopper', properties: { company: 'Navy' },
      segments: [{ id: segments[0].id }], topics: [{ id: topics[0].id, subscription: 'opt_out' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expect.poll(() => items('contact').count()).toBe(4);
    await items('contact').first().click();
    expect(await page.locator('[data-testid="contact-email"]').textContent()).toBe('grace@example.org');
    expect(await page.locator('[data-testid="contact-segments"] .chip').allTextContents()).toEqual([segments[0].name]);
    expect(await page.locator('[data-testid="contact-topics"]').textContent()).toContain('opt_out');
    expect(await page.locator('[data-testid="contact-properties"]').textContent()).toContain('Navy');
    await shot('dashboard-contacts.png');
  }, TIMEOUT);

  it('Broadcasts: status and recipient counts, updated live', async () => {
    await open(t, 'broadcasts');
    await expect.poll(() => items('broadcast').count()).toBe(2);
    const seg = (await t.api.post('/segments').send({ name: 'Early readers' })).body.id;
    for (const email of ['delivered+a@resend.dev', 'delivered+b@resend.dev', 'bounced@resend.dev']) {
      expect((await t.api.post('/contacts').send({ email, segments: [{ id: seg }] })).status).toBe(201);
    }
    const b = await t.api.post('/broadcasts').send({ name: 'Spring launch', segment_id: seg, from: `news@${FIXTURES.verifiedDomain}`, subject: 'We launched', html: '<p>Hi</p><a href="https://example.com/launch">Read</a>' });
    expect(b.status).toBe(201);
    await expect.poll(() => items('broadcast').count()).toBe(3);
    await page.locator(`[data-testid="broadcast-item"][data-id="${b.body.id}"]`).click();
    expect(await page.locator('[data-testid="broadcast-status"]').textContent()).toBe('draft');
    await t.api.post(`/broadcasts/${b.body.id}/send`).send({}).expect(200);
    await t.emu.clock.advance('10s');
    const email = t.emu.emails({ to: 'delivered+a@' })[0];
    await t.anon.post(`/_emulator/emails/${email.id}/events`).send({ type: 'clicked' }).expect(200);
    await t.emu.clock.advance(0);
    await expect.poll(() => page.locator('[data-testid="broadcast-status"]').textContent()).toBe('sent');
    await expect.poll(() => page.locator('[data-testid="stat-recipients"] .n').textContent()).toBe('3');
    // Each count arrives with its own live refresh: polled, not read once.
    await expect.poll(() => page.locator('[data-testid="stat-delivered"] .n').textContent()).toBe('2');
    await expect.poll(() => page.locator('[data-testid="stat-clicked"] .n').textContent()).toBe('1');
    await expect.poll(() => page.locator('[data-testid="stat-bounced"] .n').textContent()).toBe('1');
    await shot('dashboard-broadcasts.png');
  }, TIMEOUT);

  it('Automation runs: each step with status, times and output', async () => {
    await open(t, 'runs');
    await expect.poll(() => page.locator('#list').textContent()).toContain('No automation run yet');
    await t.api.post('/events/send').send({ event: 'user.signed_up', email: 'delivered+new@resend.dev', payload: { plan: 'pro' } }).expect(202);
    await expect.poll(() => items('run').count()).toBe(1);
    await items('run').first().click();
    expect(await page.locator('[data-testid="run-status"]').textContent()).toBe('running');
    await t.emu.clock.advance('5s');
    await expect.poll(() => page.locator('[data-testid="run-status"]').textContent()).toBe('completed');
    expect(await page.locator('[data-testid="run-steps"] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-testid="run-steps"] tbody tr').nth(1).textContent()).toContain('send_email');
    await shot('dashboard-runs.png');
  }, TIMEOUT);

  it('Inboxes: threads by folder with labels and assignee, drafts, agent settings; a reply received lands in its thread live', async () => {
    await open(t, 'inboxes');
    await expect.poll(() => items('inbox').count()).toBe(1);
    await items('inbox').first().click();
    expect(await page.locator('[data-testid="inbox-address"]').textContent()).toBe('shared@example.com');
    await expect.poll(() => page.locator('[data-testid="inbox-threads-inbox"] tbody tr').count()).toBe(1);
    expect(await page.locator('[data-testid="inbox-threads-inbox"]').textContent()).toContain('Where is my order?');
    // A reply to the seeded message joins its thread (In-Reply-To), and the page updates without a reload.
    await t.anon.post('/_emulator/inbound').send({
      from: 'Alice <alice@example.org>', to: 'shared@example.com', subject: 'Re: Where is my order?', text: 'Any news?',
      headers: { 'In-Reply-To': '<order-question@example.org>' },
    }).expect(201);
    await expect.poll(() => page.locator('[data-testid="inbox-threads-inbox"] tbody tr td').nth(2).textContent()).toBe('2');
    await shot('dashboard-inboxes.png');
  }, TIMEOUT);
});

describe('dashboard usage', () => {
  const t = useFreshEmulatorPerTest({ plan: 'free' });

  it('the header shows the quota used today and this month (recipients sent + emails received) against the plan, updated live', async () => {
    await open(t, 'emails');
    const usage = page.locator('[data-testid="usage"]');
    await expect.poll(() => usage.textContent()).toMatch(/^Quota today \d+ \/ 100 · this month [\d,]+ \/ 3,000 \(recipients sent \+ emails received\) · contacts [\d,]+ \/ 1,000$/);
    const before = Number(/today (\d+)/.exec((await usage.textContent())!)![1]);
    await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: ['delivered+a@resend.dev', 'delivered+b@resend.dev'], subject: 'Two', text: 'x' }).expect(200);
    await expect.poll(() => usage.textContent()).toContain(`Quota today ${before + 2} / 100`);
  }, TIMEOUT);
});
