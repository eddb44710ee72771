/**
 * A real client that hard-codes https://api.resend.com: Auth.js's Resend
 * provider (`@auth/core/providers/resend`, its own sendVerificationRequest,
 * a plain `fetch`). With the Vitest helper's `interceptResendApi` option,
 * Auth.js's email sign-in sends its magic link into the emulator; the test
 * reads the link back and follows it, and Auth.js signs the user in.
 */
import { describe, expect, it } from 'vitest';
import { Auth, type AuthConfig } from '@auth/core';
import Resend from '@auth/core/providers/resend';
import type { Adapter, AdapterUser, VerificationToken } from '@auth/core/adapters';
import { useEmulator } from '../../src/vitest.js';

const emu = useEmulator({ interceptResendApi: true });

/** The smallest Auth.js adapter email sign-in needs, in memory. */
function memoryAdapter(): Adapter & { tokens: Map<string, VerificationToken> } {
  const users = new Map<string, AdapterUser>();
  const tokens = new Map<string, VerificationToken>();
  return {
    tokens,
    async createUser(user) {
      const created = { ...user, id: `user_${users.size + 1}` };
      users.set(created.id, created);
      return created;
    },
    async getUser(id) {
      return users.get(id) ?? null;
    },
    async getUserByEmail(email) {
      return [...users.values()].find((u) => u.email === email) ?? null;
    },
    async getUserByAccount() {
      return null;
    },
    async updateUser(user) {
      const next = { ...users.get(user.id)!, ...user };
      users.set(next.id, next);
      return next;
    },
    async linkAccount() {},
    async createVerificationToken(token) {
      tokens.set(`${token.identifier}:${token.token}`, token);
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      const key = `${identifier}:${token}`;
      const found = tokens.get(key) ?? null;
      tokens.delete(key);
      return found;
    },
  };
}

/** The `name=value` pairs of a response's Set-Cookie headers, as one Cookie header. */
function cookiesOf(res: Response): string {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

describe("Auth.js's Resend provider through the interception", () => {
  it('sends the magic link to the emulator, and the link signs the user in', async () => {
    const adapter = memoryAdapter();
    const config: AuthConfig = {
      providers: [Resend({ apiKey: emu.apiKey, from: 'Sign in <auth@example.com>' })],
      adapter,
      secret: 'a-test-secret-of-at-least-thirty-two-characters',
      trustHost: true,
      basePath: '/auth',
      session: { strategy: 'jwt' },
    };
    const app = 'http://localhost:3000';
    const csrf = await Auth(new Request(`${app}/auth/csrf`), config);
    const { csrfToken } = await csrf.json();
    const signIn = await Auth(
      new Request(`${app}/auth/signin/resend`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(csrf) },
        body: new URLSearchParams({ email: 'ada@example.net', csrfToken, callbackUrl: `${app}/dashboard` }),
      }),
      config,
    );
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get('location')).toBe(`${app}/auth/verify-request?provider=resend&type=email`);

    const email = await emu.waitForEmail({ to: 'ada@example.net' });
    expect(email.from).toBe('Sign in <auth@example.com>');
    expect(email.subject).toBe('Sign in to localhost:3000');
    const link = email.links.find((l) => l.startsWith(`${app}/auth/callback/resend?`));
    expect(link).toBeDefined();
    expect(new URL(link!).searchParams.get('email')).toBe('ada@example.net');
    expect(adapter.tokens.size).toBe(1);

    // Following the link from the email signs Ada in: the token Auth.js stored is the one in the link.
    const callback = await Auth(new Request(link!), config);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`${app}/dashboard`);
    expect(cookiesOf(callback)).toMatch(/authjs\.session-token=/);
    expect(adapter.tokens.size).toBe(0);
  });

  it("surfaces the emulator's refusal through the provider's own error (an unverified sender domain)", async () => {
    // Auth.js merges `options` into the provider before calling it; done here by hand, the provider's code unchanged.
    const base = Resend({ apiKey: emu.apiKey, from: 'Auth.js <no-reply@authjs.dev>' });
    const provider = { ...base, ...base.options };
    const params = { identifier: 'bob@example.net', url: 'http://localhost:3000/auth/callback/resend?token=t', provider, token: 't', expires: new Date(), theme: {}, request: new Request('http://localhost:3000') };
    await expect(provider.sendVerificationRequest(params as Parameters<typeof provider.sendVerificationRequest>[0])).rejects.toThrow(/Resend error: .*"statusCode":403.*authjs\.dev/);
    expect(emu.emails({ to: 'bob@example.net' })).toEqual([]);
  });
});
