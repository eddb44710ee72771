/**
 * Jest configuration of the project's own Jest run (test/jest/jest.test.ts
 * starts it): native ESM, as a user of this ESM package runs Jest (`node
 * --experimental-vm-modules`, no transform for the `.mjs` test files).
 * `moduleNameMapper` stands in for an installed package: here
 * `resend-emulator` and `resend-emulator/*` are this repository's own
 * bundles, the files package.json `exports` names (dist/index.mjs,
 * dist/jest.mjs, ..., built by test/global-setup.ts), where a user's
 * project resolves them from node_modules and needs no mapping.
 * @type {import('jest').Config}
 */
export default {
  rootDir: '.',
  testMatch: ['<rootDir>/suite/**/*.test.mjs'],
  transform: {},
  testEnvironment: 'node',
  moduleNameMapper: { '^resend-emulator$': '<rootDir>/../../dist/index.mjs', '^resend-emulator/(.*)$': '<rootDir>/../../dist/$1.mjs' },
  maxWorkers: 1,
};
