/**
 * What every `waitForEmail` shares, whether it waits in-process
 * (`EmulatorServer.waitForEmail`, src/index.ts) or on the admin API's
 * `wait` long-poll (`remoteConnection`, src/testing/connection.ts): the
 * default timeout and the error thrown when it passes, so a caller (the
 * Playwright matcher) tells a timeout from any other failure with
 * `instanceof`. Imports nothing, so both sides import it without a cycle.
 */

/** How long `waitForEmail` (and `code`, `link`) waits by default: wall-clock ms. */
export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Thrown (rejected) by `waitForEmail` when no email matched `filter` within
 * `timeoutMs` of wall-clock time, or the emulator closed first. Message:
 * `waitForEmail: no email matched {filter as JSON} within N ms`.
 */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';

  constructor(
    /** The filter waited for, as given. */
    readonly filter: unknown,
    /** How long it waited, ms. */
    readonly timeoutMs: number,
  ) {
    super(`waitForEmail: no email matched ${JSON.stringify(filter)} within ${timeoutMs} ms`);
  }
}
