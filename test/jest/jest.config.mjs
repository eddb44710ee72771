/**
 * Jest configuration of the project's own Jest run (test/jest/jest.test.ts
 * starts it): native ESM, as a user of this ESM package runs Jest (`node
 * --experimental-vm-modules`, no transform for the `.mjs` test files).
 * `moduleNameMapper` stands in for an installed package: here
 * `resend-emulator/*` is this repository's own build (dist/src/*.js, built
 * by test/global-setup.ts), where a user's project resolves it from
 * node_modules and needs no mapping.
 * @type {import('jest').Config}
 */
export default {
  rootDir: '.',
  testMatch: ['<rootDir>/suite/**/*.test.mjs'],
  transform: {},
  testEnvironment: 'node',
  moduleNameMapper: { '^resend-emulator/(.*)$': '<rootDir>/../../dist/src/$1.js' },
  maxWorkers: 1,
};
