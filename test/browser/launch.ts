/**
 * Launches the Chromium the browser tests drive with playwright-core.
 *
 * The browser comes from the npm registry: `@sparticuz/chromium` (a dev
 * dependency) ships a Chromium binary inside its package, so `npm ci &&
 * npm test` needs nothing else on the machine. `CHROMIUM_PATH` overrides it
 * (e.g. a system Chromium at `/usr/bin/chromium`).
 */
import { chromium, type Browser } from 'playwright-core';
import sparticuz from '@sparticuz/chromium';

/** Flags that keep a headless Chromium off the network it cannot reach here. */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Starts a headless Chromium. Throws when the binary cannot be found or
 * started (the error names `CHROMIUM_PATH`).
 */
export async function launchBrowser(): Promise<Browser> {
  const override = process.env.CHROMIUM_PATH;
  const executablePath = override ?? (await sparticuz.executablePath());
  const args = override ? ['--no-sandbox', '--disable-gpu', ...QUIET_FLAGS] : [...sparticuz.args, ...QUIET_FLAGS];
  try {
    return await chromium.launch({ executablePath, headless: true, args });
  } catch (err) {
    throw new Error(`Chromium at ${executablePath} did not start (set CHROMIUM_PATH to another binary): ${(err as Error).message}`);
  }
}
