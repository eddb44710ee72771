import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/results.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    env: { EMULATOR_VALIDATE_RESPONSES: '1' },
  },
});
