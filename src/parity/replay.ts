/**
 * A HAR as the upstream (`emulator parity --upstream-har FILE`): each
 * recorded request is sent to the emulator and its answer compared with the
 * recorded one, by the same rules as a live run (./compare.ts). Ids the
 * recording's answers gave are replaced, in later requests, by those the
 * emulator gave for the same call (./ids.ts).
 */
import { DEFAULT_BACKOFF, authHeaders, joinUrl, receivedResponse, send, type Backoff, type Exchange, type ReceivedResponse, type Target } from './exchange.js';
import { compareAnswers, operationOf, type CallResult } from './compare.js';
import { IdMap } from './ids.js';
import type { ParityEntry } from './har.js';
import type { AuthKind } from './exchange.js';
import { TOUR } from './tour.js';

/** Request headers a replay sends as recorded (the rest are the recorder's or the transport's). */
const REPLAYED_HEADERS = new Set(['content-type', 'idempotency-key', 'x-batch-validation', 'user-agent']);

/** The entries of the upstream side: `_side: 'upstream'`, or no `_side` (a HAR of another recorder), in file order. */
export function upstreamEntries(entries: readonly ParityEntry[]): ParityEntry[] {
  return entries.filter((e) => e._side === undefined || e._side === 'upstream');
}

/** How a recorded request was authorised: its `_auth`, else whether it had an `Authorization` header (a redacted key stands for the run's key). */
function authOf(entry: ParityEntry): AuthKind {
  if (entry._auth) return entry._auth;
  return entry.request.headers.some((h) => h.name.toLowerCase() === 'authorization') ? 'key' : 'none';
}

/** The recorded answer as a `ReceivedResponse`. */
function recorded(entry: ParityEntry): ReceivedResponse {
  const headers = Object.fromEntries(entry.response.headers.map((h) => [h.name.toLowerCase(), h.value]));
  return receivedResponse(entry.response.status, entry.response.statusText, headers, entry.response.content.text ?? '');
}

/** What a replay gave: the compared calls and the emulator's exchanges. */
export interface ReplayRun {
  results: CallResult[];
  exchanges: Exchange[];
}

/**
 * Replays the upstream entries of `entries` against `emulator` in order and
 * compares each answer with the recorded one. Rejects when the emulator
 * cannot be reached.
 */
export async function replayHar(entries: readonly ParityEntry[], emulator: Target, backoff: Backoff = DEFAULT_BACKOFF): Promise<ReplayRun> {
  const ids = new IdMap();
  const out: ReplayRun = { results: [], exchanges: [] };
  for (const entry of upstreamEntries(entries)) {
    const url = new URL(entry.request.url);
    const path = ids.apply(url.pathname + url.search);
    const auth = authOf(entry);
    const kept = Object.fromEntries(entry.request.headers.filter((h) => REPLAYED_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name.toLowerCase(), h.value]));
    const text = entry.request.postData?.text;
    const body = text === undefined || text === '' ? undefined : ids.apply(text);
    const request = { method: entry.request.method, url: joinUrl(emulator.baseUrl, path), headers: { ...kept, ...authHeaders(auth, emulator.apiKey) }, body, auth };
    const answer = await send(request, backoff);
    // A recording of another recorder names no step: the operation does.
    const step = entry._step ?? (await operationOf(entry.request.method, url.pathname))?.operationId ?? `${entry.request.method} ${url.pathname}`;
    out.exchanges.push({ side: 'emulator', step, request, ...answer });
    const upstream = recorded(entry);
    ids.learn(upstream.json, answer.response.json);
    // A tour step's time-dependent fields stay loose when its recording is replayed.
    const loose = TOUR.find((s) => s.name === entry._step)?.loose;
    const differences = await compareAnswers(entry.request.method, path, upstream, answer.response, loose);
    out.results.push({ step, method: entry.request.method, path, upstream, emulator: answer.response, differences });
  }
  return out;
}
