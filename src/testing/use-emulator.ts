/**
 * One emulator per test file, for frameworks with `beforeAll` /
 * `beforeEach` / `afterAll` hooks (Vitest, Jest): started before the first
 * test, reset to the fixtures before each, closed after the last. The
 * framework entries (src/vitest.ts, src/jest.ts) hand their own hooks in.
 *
 * Costs measured here: a reset about 1 ms, a fresh `startServer()` about
 * 20 ms, so one server per file with a reset per test is the fast path.
 */
import { Resend } from 'resend';
import { interceptResendApi, startServer, type DeliveryFilter, type EmailFilter, type EmulatorServer, type InboxThreadFilter, type InboxThreadView, type SentEmail, type StartServerOptions, type WebhookDelivery } from '../index.js';
import { withCodeAndLink, type WaitOptions } from './connection.js';

/** What `useEmulator()` hands a test file; every member is usable inside tests and hooks (after `beforeAll`). */
export interface TestFileEmulator {
  /** e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  /** Full-access token of the default team. */
  readonly apiKey: string;
  /** The official SDK client pointed at this emulator with `apiKey`. */
  readonly resend: Resend;
  /** The emulated clock: `now()` (a `Date`), `nowMs()` (ms since the epoch), `advance(ms | '10m')` (runs every due job). */
  readonly clock: EmulatorServer['clock'];
  /** Sent emails of every team, newest first (see `EmulatorServer.emails`). */
  emails(filter?: EmailFilter): SentEmail[];
  /** Resolves with the newest matching email; rejects after `timeout` ms (default 5000). */
  waitForEmail(filter?: EmailFilter, options?: { timeout?: number }): Promise<SentEmail>;
  /** The first one-time code of the newest matching email, waited for as `waitForEmail`; rejects when that email has none. */
  code(filter?: EmailFilter, options?: WaitOptions): Promise<string>;
  /** The first link of the newest matching email containing `pattern` (string) or matching it (RegExp), waited for as `waitForEmail`; rejects when none does. */
  link(filter?: EmailFilter, pattern?: string | RegExp, options?: WaitOptions): Promise<string>;
  /** Recorded webhook deliveries, oldest first (see `EmulatorServer.webhookDeliveries`). */
  webhookDeliveries(filter?: DeliveryFilter): WebhookDelivery[];
  /** Inbox threads with their emails (see `EmulatorServer.inboxThreads`). */
  inboxThreads(filter?: InboxThreadFilter): InboxThreadView[];
  /** Fault rules (see `EmulatorServer.faults`); `reset()` puts back the start rules, so each test starts without its own. */
  readonly faults: EmulatorServer['faults'];
  /** Back to the fixtures (clock unchanged). `useEmulator` already calls it before each test. */
  reset(): Promise<void>;
  /** The running server itself, as `startServer()` returns it (`EmulatorServer`). */
  readonly server: EmulatorServer;
}

/** Options of `useEmulator` (every entry): those of `startServer`, and the interception of `https://api.resend.com`. */
export interface UseEmulatorOptions extends StartServerOptions {
  /**
   * Route every request of the test process to `https://api.resend.com`
   * (global `fetch`, `node:http(s)`) into this emulator, in-process, from
   * `beforeAll` to `afterAll` (`interceptResendApi`), for code that
   * hard-codes the URL. Default false.
   */
  interceptResendApi?: boolean;
}

/**
 * Starts the emulator every entry's own-emulator path starts
 * (`useEmulatorWith`, the Playwright worker fixture): `startServer` with
 * `options` less `interceptResendApi`, then, when that is true,
 * `interceptResendApi(server)`, which the server's `close()` ends. Throws
 * as `startServer` does; a failed interception closes the server first.
 */
export async function startEmulator(options: UseEmulatorOptions = {}): Promise<EmulatorServer> {
  const { interceptResendApi: intercept, ...serverOptions } = options;
  const server = await startServer(serverOptions);
  try {
    if (intercept) interceptResendApi(server);
  } catch (err) {
    await server.close();
    throw err;
  }
  return server;
}

/** A framework's lifecycle hooks, as `vitest` and `@jest/globals` export them. */
export interface Hooks {
  beforeAll(fn: () => Promise<void>): void;
  beforeEach(fn: () => Promise<void>): void;
  afterAll(fn: () => Promise<void>): void;
}

/**
 * Registers the hooks of one emulator per file (`options` go to
 * `startServer`) and returns its handle. Reading a member before
 * `beforeAll` ran throws an Error saying so.
 */
export function useEmulatorWith(hooks: Hooks, options: UseEmulatorOptions = {}): TestFileEmulator {
  let server: EmulatorServer | undefined;
  let resend: Resend | undefined;
  const running = (): EmulatorServer => {
    if (!server) throw new Error('useEmulator(): the emulator starts in beforeAll; use it inside tests and hooks');
    return server;
  };
  hooks.beforeAll(async () => {
    // An interception (`interceptResendApi: true`) ends with close() in afterAll.
    server = await startEmulator(options);
    resend = new Resend(server.apiKey, { baseUrl: server.url });
  });
  hooks.beforeEach(async () => {
    await server?.reset();
  });
  hooks.afterAll(async () => {
    await server?.close();
    server = undefined;
    resend = undefined;
  });
  const waitForEmail: TestFileEmulator['waitForEmail'] = (filter, opts) => running().waitForEmail(filter, opts);
  return {
    get url() { return running().url; },
    get apiKey() { return running().apiKey; },
    get resend() { running(); return resend!; },
    get clock() { return running().clock; },
    get server() { return running(); },
    get faults() { return running().faults; },
    emails: (filter) => running().emails(filter),
    waitForEmail,
    ...withCodeAndLink(waitForEmail),
    webhookDeliveries: (filter) => running().webhookDeliveries(filter),
    inboxThreads: (filter) => running().inboxThreads(filter),
    reset: () => running().reset(),
  };
}
