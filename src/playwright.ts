/**
 * `resend-emulator/playwright`: an emulator fixture and matchers for
 * `@playwright/test` (an optional peer dependency).
 *
 * ```ts
 * import { test, expect } from 'resend-emulator/playwright';
 *
 * test('signs up with the emailed code', async ({ page, emulator }) => {
 *   await page.goto('/');
 *   await page.getByLabel('Email').fill('ada@example.net');
 *   await page.getByRole('button', { name: 'Sign up' }).click();
 *   await page.getByLabel('Code').fill(await emulator.code({ to: 'ada@example.net' }));
 *   await expect(emulator).toHaveSentEmail({ to: 'ada@example.net', subject: 'code' });
 * });
 * ```
 *
 * - `workerEmulator` (worker-scoped): either an emulator this worker starts
 *   in-process (`startServer(emulatorOptions)`, closed when the worker ends),
 *   or, when `emulatorUrl` is set (default: env `EMULATOR_URL`, else
 *   `RESEND_BASE_URL`), a connection to one already running (e.g. started
 *   by the config's `webServer`), read through its admin API (env
 *   `EMULATOR_ADMIN_TOKEN` for one started with `--admin-token`).
 * - `emulator` (per test): the same, reset to the fixtures first when the
 *   emulator is the worker's own; one running elsewhere is shared with the
 *   app under test and is not reset.
 * - `emulator.waitForEmail(filter, { timeout })`, `emulator.code(filter)`,
 *   `emulator.link(filter, pattern?)` wait on the admin API's `wait`
 *   long-poll (or the in-process equivalent), never in a polling loop.
 * - `expect(emulator).toHaveSentEmail(filter)` waits up to the expect
 *   timeout for a matching email (one long-poll), then fails with the same
 *   message as the Vitest matcher; `.not` checks at once.
 *   `toHaveDeliveredWebhook(filter)` checks once that a matching delivery
 *   was accepted by its endpoint (2xx; or has the `status` the filter
 *   names). Both are async: `await`
 *   them.
 *
 * A thin adapter over src/testing/ (shared with `/vitest` and `/jest`).
 */
import { test as base, expect as baseExpect, type ExpectMatcherState, type Fixtures, type MatcherReturnType } from '@playwright/test';
import { interceptResendApi, WaitTimeoutError, type DeliveryFilter, type EmailFilter, type SentEmail, type StartServerOptions, type WebhookDelivery } from './index.js';
import { localConnection, remoteConnection, type EmulatorConnection } from './testing/connection.js';
import { startEmulator, type UseEmulatorOptions } from './testing/use-emulator.js';
import { renderResult, type RenderOptions } from './testing/render-check.js';
import { assertEmulatorLike, deliveredWebhookResult, readSentEmails, sentEmailResult, structuralEquals, type Equals, type WebhookFilter } from './testing/matchers.js';

/** The emulator a test gets: see `EmulatorConnection` (url, apiKey, emails, webhookDeliveries, waitForEmail, code, link, reset, server). */
export interface PlaywrightEmulator extends EmulatorConnection {}

/** Worker-scoped fixtures and options. */
export interface EmulatorWorkerFixtures {
  /**
   * Option: `startServer` options of the worker's own emulator (default
   * `{}`: manual clock, in-memory store, free port), and
   * `interceptResendApi: true` to route the worker process's requests to
   * `https://api.resend.com` into it (for an app started in-process by a
   * worker fixture whose code hard-codes the URL; undone when the worker ends).
   * With `emulatorUrl` set, only `interceptResendApi` applies: the requests
   * are forwarded to that running emulator (`interceptResendApi({ url })`).
   */
  emulatorOptions: UseEmulatorOptions;
  /**
   * Option: base URL of an emulator already running; empty starts one per
   * worker. Default: env `EMULATOR_URL`, else `RESEND_BASE_URL`, else empty.
   */
  emulatorUrl: string;
  /** The worker's emulator (not reset between tests): for worker-scoped fixtures such as an app started in-process with its URL. */
  workerEmulator: PlaywrightEmulator;
}

/** Test-scoped fixtures. */
export interface EmulatorTestFixtures {
  /** The worker's emulator, reset to the fixtures before the test when it is the worker's own. */
  emulator: PlaywrightEmulator;
}

/** The fixtures, for `test.extend(emulatorFixtures)` on a `test` of your own. */
export const emulatorFixtures: Fixtures<EmulatorTestFixtures, EmulatorWorkerFixtures> = {
  emulatorOptions: [{}, { scope: 'worker', option: true }],
  emulatorUrl: [process.env.EMULATOR_URL ?? process.env.RESEND_BASE_URL ?? '', { scope: 'worker', option: true }],
  workerEmulator: [
    async ({ emulatorOptions, emulatorUrl }, use) => {
      if (emulatorUrl) {
        // The worker's requests to https://api.resend.com are forwarded to the running emulator until the worker ends.
        const interception = emulatorOptions.interceptResendApi ? interceptResendApi({ url: emulatorUrl }) : null;
        try {
          await use(remoteConnection(emulatorUrl, { adminToken: process.env.EMULATOR_ADMIN_TOKEN, apiKey: process.env.RESEND_API_KEY }));
        } finally {
          interception?.restore();
        }
        return;
      }
      // Ended with the emulator: close() restores an interception.
      const server = await startEmulator(emulatorOptions);
      try {
        await use(localConnection(server));
      } finally {
        await server.close();
      }
    },
    { scope: 'worker' },
  ],
  emulator: async ({ workerEmulator }, use) => {
    if (workerEmulator.server) await workerEmulator.reset();
    await use(workerEmulator);
  },
};

/** What the matchers accept: the `emulator` fixture, an `EmulatorServer`, or anything with these methods (sync or async). */
type Readable = {
  emails(filter?: EmailFilter): SentEmail[] | Promise<SentEmail[]>;
  webhookDeliveries(): WebhookDelivery[] | Promise<WebhookDelivery[]>;
  waitForEmail?(filter: EmailFilter, options: { timeout: number }): Promise<SentEmail>;
};

/** The matchers, for `expect.extend(emulatorMatchers)` on an `expect` of your own. */
export const emulatorMatchers = {
  /**
   * Passes when the emulator's `emails(filter)` finds an email
   * (`EmailFilter` rules, `q` included, as the Vitest matcher; an unknown
   * key rejects with its TypeError). Waits up to the expect timeout for one
   * (a single `wait` long-poll); `.not` checks at once. The failure lists
   * the closest emails and how each differs.
   */
  async toHaveSentEmail(this: ExpectMatcherState, received: unknown, filter: EmailFilter = {}): Promise<MatcherReturnType> {
    assertEmulatorLike(received, 'toHaveSentEmail');
    const r = received as Readable;
    if (!this.isNot && this.timeout > 0 && typeof r.waitForEmail === 'function') {
      await r.waitForEmail(filter, { timeout: this.timeout }).catch((err: unknown) => {
        if (!(err instanceof WaitTimeoutError)) throw err;
      });
    }
    return { ...sentEmailResult(await readSentEmails((f) => r.emails(f), filter), filter), name: 'toHaveSentEmail' };
  },
  /**
   * Passes when a webhook delivery matching `filter` (`WebhookFilter`;
   * `data` compared with Playwright's equality) was accepted by its
   * endpoint (2xx, status `succeeded`), or has the status the filter names
   * (`'recorded'` under `webhooks: 'record'`). Checked once. The failure
   * lists the closest deliveries, how each differs and their attempts.
   */
  async toHaveDeliveredWebhook(this: ExpectMatcherState, received: unknown, filter: WebhookFilter = {}): Promise<MatcherReturnType> {
    assertEmulatorLike(received, 'toHaveDeliveredWebhook');
    // The matcher context of Playwright's expect has jest's `equals` (asymmetric matchers work), though its type omits it.
    const own = (this as ExpectMatcherState & { equals?: Equals }).equals;
    const equals: Equals = typeof own === 'function' ? (a, b) => own(a, b) : structuralEquals;
    return { ...deliveredWebhookResult(await (received as Readable).webhookDeliveries(), filter, equals), name: 'toHaveDeliveredWebhook' };
  },
  /**
   * Passes when the email (from `emulator.emails()` or `waitForEmail()`)
   * uses no HTML or CSS feature that breaks it in one of `clients` (lacking
   * there and not harmless; caniemail data; src/testing/render-check.ts),
   * nor, when Gmail is named, HTML over 102 KB.
   * The failure lists each finding with the clients that lack it.
   */
  async toRenderIn(this: ExpectMatcherState, received: unknown, clients: string[], options?: RenderOptions): Promise<MatcherReturnType> {
    return { ...(await renderResult(received, clients, options)), name: 'toRenderIn' };
  },
};

/** `@playwright/test`'s `test` with the emulator fixtures. */
export const test = base.extend<EmulatorTestFixtures, EmulatorWorkerFixtures>(emulatorFixtures);

/** `@playwright/test`'s `expect` with `toHaveSentEmail` and `toHaveDeliveredWebhook`. */
export const expect = baseExpect.extend(emulatorMatchers);

export { localConnection, remoteConnection, DEFAULT_TIMEOUT_MS, WaitTimeoutError } from './testing/connection.js';
export type { EmulatorConnection, WaitOptions, RemoteOptions } from './testing/connection.js';
export type { WebhookFilter } from './testing/matchers.js';
export { checkEmailHtml } from './testing/render-check.js';
export type { RenderOptions, CheckableEmail } from './testing/render-check.js';
export type { HtmlCheck, HtmlFinding } from './admin/html-check.js';
export type { DeliveryFilter, EmailFilter, SentEmail, WebhookDelivery, StartServerOptions, UseEmulatorOptions };
