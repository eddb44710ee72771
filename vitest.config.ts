import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/results.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        test: { name: 'suite', include: ['test/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 20_000, env: { EMULATOR_VALIDATE_RESPONSES: '1' } },
      },
      {
        // The SDK end-to-end tests again, with every emulator they start mounted
        // under a prefix in an express parent (startServer's mountPath), so the
        // SDK reaches every operation through `baseUrl: http://HOST:PORT/resend`.
        test: { name: 'sdk-mounted', include: ['test/sdk/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 20_000, env: { EMULATOR_VALIDATE_RESPONSES: '1', EMULATOR_MOUNT_PATH: '/resend' } },
      },
    ],
  },
});
