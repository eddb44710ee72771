import { defineConfig } from 'vitest/config';

/**
 * The test files of the full tier only: they start child processes (the built
 * CLI `bin/emulator.js`, Jest, Playwright, Chromium, curl/openssl/java, mount,
 * the repository's scripts) or read the build in `dist/`. Every other
 * `test/**\/*.test.ts` runs inside vitest's workers against `src/` and makes
 * the quick tier (`npm run test:quick`). A new test that spawns a process or
 * reads `dist/` belongs in this list (test/architecture/test-tiers.test.ts
 * checks).
 */
export const PROCESS_TESTS = [
  'test/browser/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/jest/**/*.test.ts',
  'test/package/**/*.test.ts',
  'test/examples/examples.test.ts',
  'test/playwright/**/*.test.ts',
  'test/architecture/dependency-rules.test.ts',
  'test/http/prebuilt-spec.test.ts',
  'test/reliability/crash.test.ts',
  'test/scripts.test.ts',
  'test/store/full-disk.test.ts',
  'test/resources/contact-imports/full-store.test.ts',
  'test/tls/https.test.ts',
];

const env = { EMULATOR_VALIDATE_RESPONSES: '1' };

/** The in-process tests fail when one delivers a webhook to a host that is not loopback (test/local-webhooks.ts). */
const LOCAL_WEBHOOKS = ['test/local-webhooks.ts'];

export default defineConfig({
  test: {
    // The suite's own temp folder (TMPDIR), checked empty at the end.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/results.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        // Quick tier: in-process tests of src/ (no child process, no browser, no build).
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: PROCESS_TESTS, setupFiles: LOCAL_WEBHOOKS, testTimeout: 20_000, hookTimeout: 20_000, env },
      },
      {
        // Quick tier: the SDK end-to-end tests again, with every emulator they start mounted
        // under a prefix in an express parent (startServer's mountPath), so the
        // SDK reaches every operation through `baseUrl: http://HOST:PORT/resend`.
        test: { name: 'sdk-mounted', include: ['test/sdk/**/*.test.ts'], setupFiles: LOCAL_WEBHOOKS, testTimeout: 20_000, hookTimeout: 20_000, env: { ...env, EMULATOR_MOUNT_PATH: '/resend' } },
      },
      {
        // Full tier only: what starts processes or reads dist/. Its global setup
        // builds dist/ when it is older than its sources (once per run).
        test: { name: 'processes', include: PROCESS_TESTS, globalSetup: ['test/build-setup.ts'], testTimeout: 20_000, hookTimeout: 20_000, env },
      },
    ],
  },
});
