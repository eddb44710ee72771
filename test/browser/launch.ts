/**
 * Launches the Chromium the browser tests drive with playwright-core.
 *
 * The browser comes from the npm registry: `@sparticuz/chromium` (a dev
 * dependency) ships a brotli-packed Chromium inside its package, so `npm ci &&
 * npm test` needs nothing else on the machine. `CHROMIUM_PATH` overrides it
 * (e.g. a system Chromium at `/usr/bin/chromium`).
 *
 * `@sparticuz/chromium` unpacks the binary (about 190 MB, 1.4 s here) into
 * `os.tmpdir()`. Each launch points it at a fresh directory of its own and
 * removes that directory when the browser disconnects, so a test run leaves
 * nothing in the temp folder (test/global-setup.ts checks).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Flags that keep a headless Chromium off the network it cannot reach here. */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Unpacks `@sparticuz/chromium` into `dir` (it unpacks into `os.tmpdir()`,
 * which reads `TMPDIR` on each call), returning the binary and its flags.
 */
async function unpack(dir: string): Promise<{ executablePath: string; args: string[] }> {
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    // `--single-process` (meant for AWS Lambda) takes the whole browser down
    // when a page closes; the tests open and close a page per test.
    return { executablePath: await sparticuz.executablePath(), args: sparticuz.args.filter((a) => a !== '--single-process') };
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}

/**
 * What a launch of the npm Chromium needs (`launchOptions` of Playwright):
 * `CHROMIUM_PATH` when set, else `@sparticuz/chromium` unpacked into `dir`
 * (the caller removes it), with the flags the tests use. For a browser
 * started by another process (the `@playwright/test` run of test/playwright/).
 */
export async function chromiumLaunchOptions(dir: string): Promise<{ executablePath: string; args: string[] }> {
  const override = process.env.CHROMIUM_PATH;
  const { executablePath, args } = override ? { executablePath: override, args: ['--no-sandbox', '--disable-gpu'] } : await unpack(dir);
  return { executablePath, args: [...args, ...QUIET_FLAGS] };
}

/**
 * Starts a headless Chromium. Throws when the binary cannot be found or
 * started (the error names `CHROMIUM_PATH`). Close it with `browser.close()`:
 * the unpacked binary is removed once the browser has disconnected.
 */
export async function launchBrowser(): Promise<Browser> {
  const override = process.env.CHROMIUM_PATH;
  const dir = override ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-'));
  const removeDir = () => dir && fs.rmSync(dir, { recursive: true, force: true });
  try {
    const { executablePath, args } = await chromiumLaunchOptions(dir ?? '');
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath, headless: true, args });
    } catch (err) {
      throw new Error(`Chromium at ${executablePath} did not start (set CHROMIUM_PATH to another binary): ${(err as Error).message}`);
    }
    browser.on('disconnected', removeDir);
    return browser;
  } catch (err) {
    removeDir();
    throw err;
  }
}
