/**
 * Runs once around the whole suite, in vitest's main process: gives the suite
 * a temp folder of its own: `TMPDIR` points at a fresh
 * `resend-emulator-test-*` directory in the OS temp folder while the tests
 * run (test workers and the processes they start inherit it). At the end it
 * must be empty: the teardown lists whatever a test left behind, removes the
 * directory either way, and fails the run if it was not empty. So the OS temp
 * folder holds the same entries before and after `npm test`.
 *
 * The build of `dist/` (for the full tier's tests of the CLI, the package and
 * the browser) is test/build-setup.ts, the global setup of the `processes`
 * project; the Chromium those tests drive is unpacked once per run into
 * `RESEND_EMULATOR_TEST_CHROMIUM_DIR` (test/browser/launch.ts), a folder beside
 * the temp folder that the teardown removes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'resend-emulator-test-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  // The run's Chromium (test/browser/launch.ts unpacks it there on the first launch, once per run).
  const chromiumDir = `${tmp}-chromium`;
  fs.mkdirSync(chromiumDir);
  const previousChromium = process.env.RESEND_EMULATOR_TEST_CHROMIUM_DIR;
  process.env.RESEND_EMULATOR_TEST_CHROMIUM_DIR = chromiumDir;
  // bin/emulator.js turns on Node's compile cache (Node 22.1+), kept in the temp folder: not for the CLIs the tests start.
  const previousCache = process.env.NODE_DISABLE_COMPILE_CACHE;
  process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  return function teardown() {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousCache === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = previousCache;
    if (previousChromium === undefined) delete process.env.RESEND_EMULATOR_TEST_CHROMIUM_DIR;
    else process.env.RESEND_EMULATOR_TEST_CHROMIUM_DIR = previousChromium;
    fs.rmSync(chromiumDir, { recursive: true, force: true });
    const left = fs.readdirSync(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0: fail the run explicitly.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (now removed); each test must remove what it creates: ${left.sort().join(', ')}`);
    }
  };
}
