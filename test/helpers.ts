/**
 * Test setup: each test gets a fresh emulator (in-memory store, manual
 * clock, responses validated against spec/openapi.yaml) and a supertest
 * client that sends the default team's key.
 *
 * ```ts
 * const t = useEmulator();
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

/** Starts a fresh emulator before each test and closes it after. */
export function useEmulator(options: StartServerOptions = {}): TestEmulator {
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
