/**
 * Jest configuration of the project's CommonJS Jest run (test/jest/jest.test.ts
 * starts it): Jest's default runtime, as `npm init` + `jest`, `ts-jest` or
 * `babel-jest` projects run it (plain `jest`, no `--experimental-vm-modules`),
 * on the `.test.cjs` files of test/jest/suite/, which `require()` the
 * package. `moduleNameMapper` stands in for an installed package: here
 * `resend-emulator` and `resend-emulator/*` are this repository's own
 * CommonJS bundles, the files package.json `exports` names under `require`
 * (dist/index.cjs, dist/jest.cjs, built by test/global-setup.ts).
 * @type {import('jest').Config}
 */
export default {
  rootDir: '.',
  testMatch: ['<rootDir>/suite/**/*.test.cjs'],
  testEnvironment: 'node',
  moduleNameMapper: { '^resend-emulator$': '<rootDir>/../../dist/index.cjs', '^resend-emulator/(.*)$': '<rootDir>/../../dist/$1.cjs' },
  maxWorkers: 1,
};
