/**
 * One call made to one side (the upstream service, or the emulator) and its
 * answer, and the client that makes it: Node's `fetch`, with the service's
 * rate limit respected (docs/reference/formats.md#rate-limits).
 */

/** How a request was authorised: the run's key, no `Authorization` header, or a token that is not a key (the unknown-key check). */
export type AuthKind = 'key' | 'none' | 'unknown';

/** Which side answered: the upstream (the service, a recorded HAR, another emulator) or the emulator under test. */
export type Side = 'upstream' | 'emulator';

/** A request as sent: absolute `url`, lower-case header names, `body` as text (JSON), `auth` how it was authorised. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  auth: AuthKind;
}

/** A response as received: lower-case header names, the body as text, and as JSON when it parses (else undefined). */
export interface ReceivedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

/** One call and its answer, on one side, for one step (`startedMs` wall-clock ms, `timeMs` its duration in ms). */
export interface Exchange {
  side: Side;
  step: string;
  request: SentRequest;
  response: ReceivedResponse;
  startedMs: number;
  timeMs: number;
}

/** What a side is: where it is and the key it takes. */
export interface Target {
  side: Side;
  /** Base URL, no trailing slash (`https://api.resend.com`, `http://127.0.0.1:4400`). */
  baseUrl: string;
  apiKey: string;
}

/** How `send` waits out a rate limit: at most `retries` more tries, each wait at most `maxWaitMs`; `sleep` is the wait (replaceable in tests). */
export interface Backoff {
  retries: number;
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
}

/** 5 retries, waits of at most 60 s, real time. */
export const DEFAULT_BACKOFF: Backoff = {
  retries: 5,
  maxWaitMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** An answer as `ReceivedResponse` (headers already lower-case), its `json` parsed from `body` (undefined when empty or not JSON). */
export function receivedResponse(status: number, statusText: string, headers: Record<string, string>, body: string): ReceivedResponse {
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status, statusText, headers, body, json };
}

/** A token no service issues, for the unknown-key checks. */
const UNKNOWN_KEY = 're_parity_unknown_key_0000000000';

/** The headers of a call with `auth`: `Authorization: Bearer <key>`, none, or a token that is no key. */
export function authHeaders(auth: AuthKind, apiKey: string): Record<string, string> {
  if (auth === 'none') return {};
  return { authorization: `Bearer ${auth === 'unknown' ? UNKNOWN_KEY : apiKey}` };
}

/**
 * How long to wait before trying again, in ms, or null when the answer
 * does not ask for a wait: a 429 waits `retry-after` seconds (else
 * `ratelimit-reset`, else 1 s); any answer whose `ratelimit-remaining` is 0
 * waits `ratelimit-reset` seconds before the next call (the caller's
 * choice: `send` does both). Source: docs/reference/formats.md#rate-limits.
 */
function retryDelayMs(status: number, headers: Record<string, string>): number | null {
  const seconds = (name: string) => {
    const v = Number(headers[name]);
    return Number.isFinite(v) && v >= 0 ? v * 1000 : null;
  };
  if (status === 429) return seconds('retry-after') ?? seconds('ratelimit-reset') ?? 1000;
  if (headers['ratelimit-remaining'] === '0') return seconds('ratelimit-reset');
  return null;
}

/**
 * Sends `request` (to its absolute URL) and reads the whole answer. On a
 * 429 it waits as the answer says (`retryDelayMs`, capped at
 * `backoff.maxWaitMs`) and tries again, at most `backoff.retries` times;
 * after an answer that used the last request of the window it waits before
 * returning, so the next call is not refused. Each try times out after 30 s.
 * Rejects on a network error (the message names the URL).
 */
export async function send(request: SentRequest, backoff: Backoff = DEFAULT_BACKOFF): Promise<{ response: ReceivedResponse; startedMs: number; timeMs: number }> {
  for (let attempt = 0; ; attempt++) {
    const startedMs = Date.now();
    let res: Response;
    try {
      res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new Error(`${request.method} ${request.url}: ${(err as Error).message}`);
    }
    const body = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const timeMs = Date.now() - startedMs;
    const wait = retryDelayMs(res.status, headers);
    if (res.status === 429 && wait !== null && attempt < backoff.retries) {
      await backoff.sleep(Math.min(wait, backoff.maxWaitMs));
      continue;
    }
    if (res.status !== 429 && wait) await backoff.sleep(Math.min(wait, backoff.maxWaitMs));
    return { response: receivedResponse(res.status, res.statusText, headers, body), startedMs, timeMs };
  }
}

/** `base` and `pathAndQuery` joined with one slash. */
export function joinUrl(base: string, pathAndQuery: string): string {
  return `${base.replace(/\/+$/, '')}/${pathAndQuery.replace(/^\/+/, '')}`;
}
