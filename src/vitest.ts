/**
 * The fastest Vitest pattern, built in: one emulator per test file, reset
 * before each test, and matchers over what it sent.
 *
 * ```ts
 * import { useEmulator } from 'resend-emulator/vitest';
 *
 * const emu = useEmulator();          // beforeAll: start, beforeEach: reset, afterAll: close
 *
 * it('sends a welcome email', async () => {
 *   await emu.resend.emails.send({ from: 'hi@example.com', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });
 *   expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });
 * });
 * ```
 *
 * A thin adapter: the hooks, the matchers' logic and their messages live in
 * src/testing/ (shared with `resend-emulator/jest` and `/playwright`).
 * `vitest` and `resend` are optional peer dependencies: this entry needs
 * both, the main entry neither.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { emulatorMatcherSet, type EmulatorMatchers } from './testing/matchers.js';
import { renderMatchers, type RenderMatchers } from './testing/render-check.js';
import { useEmulatorWith, type TestFileEmulator, type UseEmulatorOptions } from './testing/use-emulator.js';

/** What `useEmulator()` hands a test file; every member is usable inside tests and hooks (after `beforeAll`). */
export interface VitestEmulator extends TestFileEmulator {}

/**
 * Starts one emulator for the current test file (`beforeAll`), resets it to
 * the fixtures before each test (`beforeEach`) and closes it after the last
 * (`afterAll`). `options` go to `startServer` (manual clock, in-memory store
 * and a free port by default). Call it at the top of a file or a `describe`.
 * Reading a member before `beforeAll` ran throws an Error saying so.
 */
export function useEmulator(options: UseEmulatorOptions = {}): VitestEmulator {
  return useEmulatorWith({ beforeAll, beforeEach, afterAll }, options);
}

// The shared matchers (src/testing/matchers.ts), with this framework's equality for `data`.
expect.extend(emulatorMatcherSet);
// `toRenderIn` (src/testing/render-check.ts): the HTML check of an email against named clients.
expect.extend(renderMatchers);

// The matchers return `void`, as vitest's own do (`JestAssertion<T>` extends
// `jest.Matchers<void, T>`), never `T`: in a program that also loads
// `resend-emulator/jest`, whose augmentation of the global `jest.Matchers<R>`
// reaches `Assertion<T>` through `JestAssertion<T>` with `R = void`, both
// paths must give each matcher the identical type, or TypeScript 7 refuses
// the interface (TS2320: "cannot simultaneously extend types 'JestAssertion<T>'
// and 'EmulatorMatchers<T>'"; TypeScript 5 let it pass). test/package/types.test.ts
// compiles a Vitest-only, a Jest-only and a mixed project under both.
declare module 'vitest' {
  interface Assertion<T = any> extends EmulatorMatchers<void>, RenderMatchers<void> {}
  interface AsymmetricMatchersContaining extends EmulatorMatchers {}
}

export { emailDifferences, deliveryDifferences } from './testing/matchers.js';
export type { WebhookFilter, EmulatorMatchers } from './testing/matchers.js';
export { checkEmailHtml } from './testing/render-check.js';
export type { RenderMatchers, RenderOptions, CheckableEmail } from './testing/render-check.js';
export type { HtmlCheck, HtmlFinding } from './admin/html-check.js';
export type { DeliveryFilter, EmailFilter, SentEmail, WebhookDelivery, StartServerOptions, EmulatorServer } from './index.js';
export type { UseEmulatorOptions } from './testing/use-emulator.js';
