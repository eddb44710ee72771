/**
 * Type-checked by `tsc -p tsconfig.test.json` (part of `npm test`), never
 * run: src/jest.ts's declarations add the two matchers to the `expect` of
 * `@jest/globals` with their filter types (a misspelt key does not compile).
 * The packed-tarball test checks the same from a user's project.
 */
import { expect } from '@jest/globals';
import type { JestEmulator } from '../../src/jest.js';

export function assertions(emu: JestEmulator): void {
  expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });
  expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent', data: { subject: expect.stringContaining('Wel') } });
  // @ts-expect-error: `subjct` is no EmailFilter key
  expect(emu).toHaveSentEmail({ subjct: 'Welcome' });
}
