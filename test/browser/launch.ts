/**
 * Launches the Chromium the browser tests drive with playwright-core.
 *
 * The browser comes from the npm registry: `@sparticuz/chromium` (a dev
 * dependency) ships a brotli-packed Chromium inside its package, so `npm ci &&
 * npm test` needs nothing else on the machine. `CHROMIUM_PATH` overrides it
 * (e.g. a system Chromium at `/usr/bin/chromium`).
 *
 * `@sparticuz/chromium` unpacks the binary (about 190 MB, 1.4 s here) into
 * `os.tmpdir()`, and skips the work when `os.tmpdir()` already holds it. The
 * run unpacks it once: test/global-setup.ts gives the run a folder,
 * `RESEND_EMULATOR_TEST_CHROMIUM_DIR` (beside the suite's temp folder; its
 * teardown removes it), and the first launch of the run unpacks into a folder
 * of its own there and renames it to `unpacked/` in one step; every later
 * launch, in any worker or child process, finds `unpacked/chromium`. Two
 * workers launching at once may both unpack; the second rename fails and that
 * worker uses the first one's copy and removes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Flags that keep a headless Chromium off the network it cannot reach here. */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** The variable naming the run's Chromium folder (set by test/global-setup.ts). */
export const CHROMIUM_DIR_VARIABLE = 'RESEND_EMULATOR_TEST_CHROMIUM_DIR';

/** The flags `@sparticuz/chromium` recommends, less `--single-process`. */
async function sparticuzArgs(): Promise<string[]> {
  const { default: sparticuz } = await import('@sparticuz/chromium');
  // `--single-process` (meant for AWS Lambda) takes the whole browser down
  // when a page closes; the tests open and close a page per test.
  return sparticuz.args.filter((a) => a !== '--single-process');
}

/**
 * Unpacks `@sparticuz/chromium` into `dir` (it unpacks into `os.tmpdir()`,
 * which reads `TMPDIR` on each call), returning the binary's path.
 */
async function unpack(dir: string): Promise<string> {
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    return await sparticuz.executablePath();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}

/**
 * The run's unpacked Chromium binary: `<run folder>/unpacked/chromium`,
 * unpacked by the first caller of the run. Throws when the run folder is not
 * set (a test file run outside vitest's global setup).
 */
async function runChromium(): Promise<string> {
  const runDir = process.env[CHROMIUM_DIR_VARIABLE];
  if (!runDir) throw new Error(`${CHROMIUM_DIR_VARIABLE} is not set: the browser tests run under vitest's global setup (test/global-setup.ts)`);
  const target = path.join(runDir, 'unpacked');
  const binary = path.join(target, 'chromium');
  if (fs.existsSync(binary)) return binary;
  const partial = fs.mkdtempSync(path.join(runDir, 'partial-'));
  try {
    const unpacked = await unpack(partial);
    if (path.dirname(unpacked) !== partial) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${partial}`);
    try {
      fs.renameSync(partial, target);
    } catch (err) {
      // Another worker renamed its copy first: use that one.
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !fs.existsSync(binary)) throw err;
    }
    return binary;
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * What a launch of the npm Chromium needs (`launchOptions` of Playwright):
 * `CHROMIUM_PATH` when set, else the run's `@sparticuz/chromium` (unpacked
 * on first use, see above), with the flags the tests use. Also for a browser
 * started by another process (the `@playwright/test` run of test/playwright/).
 */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const override = process.env.CHROMIUM_PATH;
  if (override) return { executablePath: override, args: ['--no-sandbox', '--disable-gpu', ...QUIET_FLAGS] };
  const [executablePath, args] = await Promise.all([runChromium(), sparticuzArgs()]);
  return { executablePath, args: [...args, ...QUIET_FLAGS] };
}

/**
 * The environment of a launched Chromium: the test's, with `TMPDIR` in the
 * run's Chromium folder (`browser-tmp/`, removed with it by the run's
 * teardown). Chromium makes a `.org.chromium.Chromium.*` folder there at
 * each start and removes it at a clean exit only; a browser whose close
 * races its end would otherwise leave one in the suite's temp folder, which
 * test/global-setup.ts checks empty. Without the run's folder (a
 * `CHROMIUM_PATH` run outside the global setup), the test's own.
 */
function browserEnv(): Record<string, string> | undefined {
  const runDir = process.env[CHROMIUM_DIR_VARIABLE];
  if (!runDir) return undefined;
  const tmp = path.join(runDir, 'browser-tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return { ...env, TMPDIR: tmp };
}

/**
 * Starts a headless Chromium. Throws when the binary cannot be found or
 * started (the error names `CHROMIUM_PATH`). Close it with `browser.close()`;
 * the unpacked binary stays for the run's later launches.
 */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath, args } = await chromiumLaunchOptions();
  try {
    return await chromium.launch({ executablePath, headless: true, args, env: browserEnv() });
  } catch (err) {
    throw new Error(`Chromium at ${executablePath} did not start (set CHROMIUM_PATH to another binary): ${(err as Error).message}`);
  }
}

/**
 * Collects into `problems` what goes wrong in `page`'s scripts: each
 * uncaught error (`page error: MESSAGE`) and each console error (`console:
 * TEXT`) but Chromium's own "Failed to load resource" lines, which a 4xx
 * the test asks for (a bad search, a missing image) or the event stream cut
 * at close print. The tests check `problems` empty after each test.
 */
export function collectProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
}
