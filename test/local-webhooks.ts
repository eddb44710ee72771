/**
 * Setup file of the in-process projects (`suite`, `sdk-mounted`;
 * vitest.config.ts): no test sends a webhook to a host on the internet.
 *
 * The emulator POSTs deliveries with the global `fetch` and its own
 * User-Agent (`resend-emulator-webhooks/…`, src/deliveries/jobs.ts). This
 * wraps `fetch` for the test file: such a request to a host other than
 * loopback (`127.0.0.0/8`, `::1`, `localhost`) is refused before any DNS
 * lookup (the attempt fails, as an unreachable host would) and noted, and
 * the test that made it fails in `afterEach`, naming the endpoint. A test
 * that needs an endpoint starts a receiver on 127.0.0.1
 * (test/deliveries/receiver.ts), runs in `webhooks: 'record'`, or names an
 * endpoint that fails on this machine (`http://127.0.0.1:9/…`: port 9 is
 * one `fetch` refuses to reach, so the attempt fails at once).
 */
import { afterEach, expect } from 'vitest';

const DELIVERY_AGENT = 'resend-emulator-webhooks/';
const offending: string[] = [];

/** True for a host name on this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function userAgentOf(init: RequestInit | undefined): string {
  const headers = init?.headers;
  if (!headers) return '';
  if (headers instanceof Headers) return headers.get('user-agent') ?? '';
  if (Array.isArray(headers)) return headers.find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? '';
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === 'user-agent');
  return entry?.[1] ?? '';
}

const original = globalThis.fetch;
globalThis.fetch = function guardedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (userAgentOf(init).startsWith(DELIVERY_AGENT) && !isLoopbackHost(url.hostname)) {
    offending.push(url.href);
    return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(`a test delivered a webhook to ${url.host}, a host that is not loopback`), { code: 'ETESTNOTLOCAL' }) }));
  }
  return original(input, init);
} as typeof fetch;

/** The non-loopback endpoints refused since the last call, emptied (the self-test, test/local-webhooks.test.ts, takes what it caused). */
export function takeRefusedDeliveries(): string[] {
  return offending.splice(0);
}

afterEach(() => {
  const seen = takeRefusedDeliveries();
  expect(seen, 'webhook deliveries this test sent to hosts that are not loopback (test/local-webhooks.ts)').toEqual([]);
});
