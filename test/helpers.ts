/**
 * Test setup: each test gets a fresh emulator (in-memory store, manual
 * clock, responses validated against spec/openapi.yaml) and a supertest
 * client that sends the default team's key.
 *
 * The helper is named for its lifetime: `useFreshEmulatorPerTest` starts a
 * server before each test and closes it after. The package's public
 * `useEmulator` (`resend-emulator/vitest`, src/vitest.ts; what the SDK tests
 * of test/sdk/ use) has another: one server per file, reset before each test.
 *
 * ```ts
 * const t = useFreshEmulatorPerTest();
 * it('...', async () => {
 *   const res = await t.api.get('/domains');
 *   await t.emu.clock.advance('5s');
 * });
 * ```
 */
import { afterEach, beforeEach } from 'vitest';
import request from 'supertest';
import { startServer, type EmulatorServer, type StartServerOptions } from '../src/index.js';

/** A supertest client bound to a base URL and a bearer token (or none). */
export function client(url: string, token?: string) {
  const withAuth = <T extends request.Test>(t: T): T => (token ? (t.set('Authorization', `Bearer ${token}`) as T) : t);
  return {
    get: (p: string) => withAuth(request(url).get(p)),
    post: (p: string) => withAuth(request(url).post(p)),
    patch: (p: string) => withAuth(request(url).patch(p)),
    put: (p: string) => withAuth(request(url).put(p)),
    delete: (p: string) => withAuth(request(url).delete(p)),
  };
}

export interface TestEmulator {
  emu: EmulatorServer;
  /** Client with the default team's full-access key. */
  api: ReturnType<typeof client>;
  /** Client without any key. */
  anon: ReturnType<typeof client>;
  /** A client for another token. */
  as(token: string): ReturnType<typeof client>;
}

/** Starts a fresh emulator before each test (`beforeEach`) and closes it after (`afterEach`). */
export function useFreshEmulatorPerTest(options: StartServerOptions = {}): TestEmulator {
  const state = {} as TestEmulator;
  beforeEach(async () => {
    const emu = await startServer({ validateResponses: true, ...options });
    state.emu = emu;
    state.api = client(emu.url, emu.apiKey);
    state.anon = client(emu.url);
    state.as = (token: string) => client(emu.url, token);
  });
  afterEach(async () => {
    await state.emu?.close();
  });
  return state;
}

/**
 * Resolves once a listener for `event` is added to the bus: the signal that
 * a long-poll has registered its waiter (e.g. `GET /_emulator/emails?wait=`
 * listening to the bus's `'email'`, src/admin/emails.ts `waitForMatch`; the
 * bus of an emulator is `busOf(emu)`, src/internals.ts),
 * so a test sends what it waits for after that, in order, with no sleep.
 * Call it before starting the request.
 */
export function listenerAdded(bus: { listenerCount(name: 'email'): number }, event: 'email'): Promise<void> {
  const before = bus.listenerCount(event);
  return new Promise((resolve) => {
    // The bus (src/bus.ts) has no 'newListener' event: look again after each turn of the event loop until the count grows.
    const look = () => (bus.listenerCount(event) > before ? resolve() : setImmediate(look));
    look();
  });
}

/** Ids of the bundled fixtures (fixtures/default.json). */
export const FIXTURES = {
  defaultTeamId: '8f3a1c2e-0b4d-4e6f-9a1b-2c3d4e5f6a7b',
  secondTeamId: '1b2c3d4e-5f6a-4b8c-9d0e-1f2a3b4c5d6e',
  defaultKey: 're_emulator_default_key',
  secondTeamKey: 're_emulator_second_team_key',
  verifiedDomainId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  verifiedDomain: 'example.com',
  claimableDomain: 'claimable.dev',
  ownerEmail: 'owner@example.com',
};
