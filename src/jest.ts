/**
 * `resend-emulator/jest`: the Vitest entry's pattern for Jest. One emulator
 * per test file (`beforeAll` start, `beforeEach` reset, `afterAll` close)
 * and the matchers `toHaveSentEmail` / `toHaveDeliveredWebhook`, registered
 * with `expect.extend` when this module is imported.
 *
 * ```ts
 * import { expect, it } from '@jest/globals';
 * import { useEmulator } from 'resend-emulator/jest';
 *
 * const emu = useEmulator();
 *
 * it('sends a welcome email', async () => {
 *   await emu.resend.emails.send({ from: 'hi@example.com', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });
 *   expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });
 * });
 * ```
 *
 * It loads in both of Jest's runtimes: `require()` under the default
 * CommonJS one (dist/jest.cjs) and `import` under `node
 * --experimental-vm-modules` (dist/jest.mjs), both over the same core
 * (scripts/bundle.mjs; docs/jest.md). `jest`, `@jest/globals` and `resend` are optional peer
 * dependencies. A thin adapter over src/testing/ (shared with `/vitest`
 * and `/playwright`): same members, same messages.
 */
import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals';
import { emulatorMatcherSet, type EmulatorMatchers } from './testing/matchers.js';
import { renderMatchers, type RenderMatchers } from './testing/render-check.js';
import { useEmulatorWith, type TestFileEmulator, type UseEmulatorOptions } from './testing/use-emulator.js';

/** What `useEmulator()` hands a test file; every member is usable inside tests and hooks (after `beforeAll`). */
export interface JestEmulator extends TestFileEmulator {}

/**
 * Starts one emulator for the current test file (`beforeAll`), resets it to
 * the fixtures before each test (`beforeEach`) and closes it after the last
 * (`afterAll`). `options` go to `startServer` (manual clock, in-memory store
 * and a free port by default). Call it at the top of a file or a `describe`.
 * Reading a member before `beforeAll` ran throws an Error saying so.
 */
export function useEmulator(options: UseEmulatorOptions = {}): JestEmulator {
  return useEmulatorWith({ beforeAll, beforeEach, afterAll }, options);
}

// The shared matchers (src/testing/matchers.ts), with this framework's equality for `data`.
expect.extend(emulatorMatcherSet);
// `toRenderIn` (src/testing/render-check.ts): the HTML check of an email against named clients.
expect.extend(renderMatchers);

// `expect` from '@jest/globals' takes its matcher types from the 'expect'
// package; the global `expect` of @types/jest from the `jest` namespace.
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends EmulatorMatchers<R>, RenderMatchers<R> {}
}
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R, T = {}> extends EmulatorMatchers<R>, RenderMatchers<R> {}
  }
}

export { emailDifferences, deliveryDifferences } from './testing/matchers.js';
export type { WebhookFilter, EmulatorMatchers } from './testing/matchers.js';
export { checkEmailHtml } from './testing/render-check.js';
export type { RenderMatchers, RenderOptions, CheckableEmail } from './testing/render-check.js';
export type { HtmlCheck, HtmlFinding } from './admin/html-check.js';
export type { WaitOptions } from './testing/connection.js';
export type { DeliveryFilter, EmailFilter, SentEmail, WebhookDelivery, StartServerOptions, EmulatorServer } from './index.js';
export type { UseEmulatorOptions } from './testing/use-emulator.js';
