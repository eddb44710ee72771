/**
 * Jest configuration of the `toRenderIn` run (test/jest/render.test.ts
 * starts it): as test/jest/jest.config.mjs (native ESM, `resend-emulator`
 * mapped to this repository's bundles), over test/jest/render/ only, so
 * each run's expected results stay its own.
 * @type {import('jest').Config}
 */
export default {
  rootDir: '.',
  testMatch: ['<rootDir>/render/**/*.test.mjs'],
  transform: {},
  testEnvironment: 'node',
  moduleNameMapper: { '^resend-emulator$': '<rootDir>/../../dist/index.mjs', '^resend-emulator/(.*)$': '<rootDir>/../../dist/$1.mjs' },
  maxWorkers: 1,
};
