/**
 * The Playwright fixture (`resend-emulator/playwright`, src/playwright.ts)
 * in a real `@playwright/test` run, driving the npm Chromium
 * (`@sparticuz/chromium`, the run's copy of test/browser/launch.ts):
 * test/playwright/playwright.config.ts runs a sign-up with the emailed code
 * against an app and an emulator started by `webServer` (signup.spec.ts),
 * and a magic-link sign-in against the worker's own emulator
 * (magic-link.spec.ts). This file starts the run as a child process, gives
 * it two free ports and a temp folder of its own (Chromium's profile,
 * Playwright's artifacts and report), and checks its exit code and its JSON
 * report; the temp folder is removed afterwards.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../browser/launch.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A port free right now (the OS's pick). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Spec {
  title: string;
  tests: { projectName: string; results: { status: string; error?: { message?: string } }[] }[];
}
interface Suite {
  specs: Spec[];
  suites?: Suite[];
}
interface Report {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
  suites: Suite[];
  errors: { message?: string }[];
}

let tmp: string;
let run: { code: number | null; out: string; report: Report | null };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'playwright-run-'));
  fs.mkdirSync(path.join(tmp, 'tmp'));
  const launch = await chromiumLaunchOptions();
  const report = path.join(tmp, 'report.json');
  const inherited = Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !['NODE_OPTIONS', 'TEST', 'EMULATOR_URL', 'RESEND_BASE_URL', 'RESEND_API_KEY', 'EMULATOR_ADMIN_TOKEN'].includes(k));
  const env = {
    ...Object.fromEntries(inherited),
    TMPDIR: path.join(tmp, 'tmp'),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CHROMIUM_LAUNCH: JSON.stringify(launch),
    EMULATOR_PORT: String(await freePort()),
    APP_PORT: String(await freePort()),
    PW_OUTPUT_DIR: path.join(tmp, 'results'),
    PW_JSON_REPORT: report,
  };
  const args = [path.join('node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', 'test/playwright/playwright.config.ts'];
  const proc = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (b) => (out += b));
  proc.stderr.on('data', (b) => (out += b));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 150_000);
    proc.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  run = { code, out, report: fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null };
}, 180_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** `project › title → status` of every test in the report. */
function outcomes(report: Report): string[] {
  const all: string[] = [];
  const walk = (suite: Suite) => {
    for (const spec of suite.specs) for (const t of spec.tests) all.push(`${t.projectName} › ${spec.title} → ${t.results.at(-1)?.status}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return all.sort();
}

describe('resend-emulator/playwright under @playwright/test, in the npm Chromium', () => {
  it('passes the sign-up with the emailed code and the magic-link sign-in', () => {
    expect(run.report, run.out).not.toBeNull();
    expect(outcomes(run.report!), run.out).toEqual([
      'in-process › a test that sends nothing finds nothing: toHaveSentEmail({ subject: "Welcome" }) fails and waitForEmail times out → passed',
      'in-process › signs in by clicking the link in the email → passed',
      'in-process › starts from the fixtures; a failing matcher lists the closest emails, as the Vitest matcher does → passed',
      'intercepted › a hard-coded https://api.resend.com call lands in the worker emulator → passed',
      'intercepted-remote › a hard-coded https://api.resend.com call lands in the worker emulator → passed',
      'render › toRenderIn passes where every named client supports the HTML and fails naming display:flex and Outlook → passed',
      'webServer › a wrong code is refused → passed',
      'webServer › signs up with the code the app emailed → passed',
      'webServer › the emulator `emulator start` seeds holds no email: a test that sends nothing fails toHaveSentEmail({ subject: "Welcome" }) → passed',
    ]);
    expect(run.report!.stats).toMatchObject({ expected: 9, unexpected: 0, skipped: 0, flaky: 0 });
    expect(run.report!.errors).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });
});
