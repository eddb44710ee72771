/**
 * Playwright configuration of the project's own end-to-end tests, run by
 * test/playwright/signup.test.ts (which sets the variables below):
 *
 * - project `webServer` (signup.spec.ts): the emulator CLI and the app
 *   (app/server.mjs) both run as `webServer`s; the app's SDK reaches the
 *   emulator through `RESEND_BASE_URL` in its `webServer.env`, and the tests
 *   reach the same emulator through the `emulatorUrl` option;
 * - project `in-process` (magic-link.spec.ts): each worker's own emulator,
 *   and the app started as a worker fixture with its URL;
 * - project `intercepted` (intercept.spec.ts): the worker's own emulator
 *   intercepting `https://api.resend.com` (`emulatorOptions`);
 * - project `intercepted-remote` (intercept.spec.ts again): the same
 *   option with `emulatorUrl` set, so the worker's requests to
 *   `https://api.resend.com` are forwarded to the `webServer` emulator.
 *
 * The browser is the npm Chromium of `@sparticuz/chromium`, unpacked by the
 * caller: `CHROMIUM_LAUNCH` holds `{ executablePath, args }`. Ports come in
 * `EMULATOR_PORT` and `APP_PORT`; `PW_OUTPUT_DIR` and `PW_JSON_REPORT` are
 * in the caller's temp folder.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import type { EmulatorTestFixtures, EmulatorWorkerFixtures } from 'resend-emulator/playwright';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through test/playwright/signup.test.ts`);
  return value;
};
const emulatorUrl = `http://127.0.0.1:${need('EMULATOR_PORT')}`;
const appUrl = `http://127.0.0.1:${need('APP_PORT')}`;
// The tests of the webServer project compare with it (workers inherit the runner's environment).
process.env.EMULATOR_URL = emulatorUrl;

export default defineConfig<EmulatorTestFixtures, EmulatorWorkerFixtures>({
  testDir: '.',
  testMatch: '*.spec.ts',
  // `resend-emulator/*` resolves to this repository's dist/ (the package's self-reference), which
  // Playwright would transpile as the project's own code; a user's copy is in node_modules, which it
  // never transpiles. Loaded as is, as there (and Node's CommonJS loader, not the ESM one, runs
  // dist/core.cjs: under a load hook that returns its source, Node 20 fails its nested require()s).
  build: { external: ['**/dist/**'] },
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  outputDir: need('PW_OUTPUT_DIR'),
  reporter: [['list'], ['json', { outputFile: need('PW_JSON_REPORT') }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: JSON.parse(need('CHROMIUM_LAUNCH')),
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
  webServer: [
    {
      command: `node bin/emulator.js start --port ${need('EMULATOR_PORT')} --no-smtp --log-level error`,
      cwd: root,
      url: `${emulatorUrl}/_emulator/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node test/playwright/app/server.mjs',
      cwd: root,
      url: appUrl,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { PORT: need('APP_PORT'), RESEND_BASE_URL: emulatorUrl, RESEND_API_KEY: 're_emulator_default_key' },
    },
  ],
  projects: [
    { name: 'webServer', testMatch: 'signup.spec.ts', use: { baseURL: appUrl, emulatorUrl } },
    { name: 'in-process', testMatch: 'magic-link.spec.ts', use: { emulatorUrl: '' } },
    { name: 'render', testMatch: 'render.spec.ts', use: { emulatorUrl: '' } },
    { name: 'intercepted', testMatch: 'intercept.spec.ts', use: { emulatorUrl: '', emulatorOptions: { interceptResendApi: true } } },
    { name: 'intercepted-remote', testMatch: 'intercept.spec.ts', use: { emulatorUrl, emulatorOptions: { interceptResendApi: true } } },
  ],
});
