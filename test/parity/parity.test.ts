/**
 * `emulator parity` in process (src/parity/command.ts): the tour against
 * emulator A as the "service" (`--base-url`, its own key: no real key and
 * no internet), a HAR of both sides, and that HAR replayed
 * (`--upstream-har`) against an emulator with a deliberate difference.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { runParity, type ParityResult } from '../../src/parity/command.js';
import { TOUR, tourSends } from '../../src/parity/tour.js';
import { readHar } from '../../src/parity/har.js';
import { send } from '../../src/parity/exchange.js';
import { newRunName, runTour } from '../../src/parity/run-tour.js';

const quiet = () => {};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parity-'));
const harFile = path.join(dir, 'tour.har');

let a: EmulatorServer;
let tour: ParityResult;
beforeAll(async () => {
  a = await startServer();
  tour = await runParity({ apiKey: a.apiKey, baseUrl: a.url, har: harFile, print: quiet });
}, 60_000);
afterAll(async () => {
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('emulator parity --base-url <another emulator>', () => {
  it('compares every step of the tour', () => {
    expect(tour.results.map((r) => r.step)).toEqual(TOUR.map((s) => s.name));
  });

  it('finds no difference between two emulators', () => {
    expect(tour.results.filter((r) => r.differences.length).map((r) => `${r.step}: ${r.differences.join('; ')}`)).toEqual([]);
  });

  it('reports the count of matched and differing calls', () => {
    expect(tour.lines[0]).toBe(`parity: ${TOUR.length} calls compared: ${TOUR.length} matched, 0 differed`);
  });

  it('sends one email, to a test address, on the upstream', () => {
    expect([tourSends(), a.emails().map((e) => e.to)]).toEqual([1, [['delivered@resend.dev']]]);
  });

  it('leaves nothing it created on the upstream (segments, topics, contacts, templates)', async () => {
    const list = async (p: string) => ((await (await fetch(`${a.url}${p}`, { headers: { authorization: `Bearer ${a.apiKey}` } })).json()) as { data: { name?: string; email?: string }[] }).data;
    const mine = [...(await list('/segments')), ...(await list('/topics')), ...(await list('/contacts')), ...(await list('/templates'))].filter((x) => /resend-emulator-parity-/.test(`${x.name ?? ''}${x.email ?? ''}`));
    expect(mine).toEqual([]);
  });

  it('writes a HAR with both sides of every call, each entry naming its side', () => {
    const sides = readHar(harFile).map((e) => e._side);
    expect([sides.filter((s) => s === 'upstream').length, sides.filter((s) => s === 'emulator').length]).toEqual([TOUR.length, TOUR.length]);
  });

  it('writes a HAR 1.2', () => {
    expect(JSON.parse(fs.readFileSync(harFile, 'utf8')).log.version).toBe('1.2');
  });

  it('writes no API key and no Authorization header to the HAR', () => {
    const text = fs.readFileSync(harFile, 'utf8');
    expect([text.includes(a.apiKey), /"name":\s*"authorization"/i.test(text)]).toEqual([false, false]);
  });
});

describe('emulator parity --upstream-har <a recording>', () => {
  const replayHar = path.join(dir, 'replay.har');
  let clean: ParityResult;
  let faulted: ParityResult;
  beforeAll(async () => {
    clean = await runParity({ upstreamHar: harFile, print: quiet });
    faulted = await runParity({ upstreamHar: harFile, har: replayHar, faults: [{ operation: 'GET /topics/{id}', status: 503 }], print: quiet });
  }, 60_000);

  it('replays every call of the upstream side', () => {
    expect(clean.results.map((r) => r.step)).toEqual(TOUR.map((s) => s.name));
  });

  it('replays a recording against a like emulator with no difference', () => {
    expect(clean.results.filter((r) => r.differences.length).map((r) => `${r.step}: ${r.differences.join('; ')}`)).toEqual([]);
  });

  it('reports exactly the difference a fault rule makes, and nothing else', () => {
    expect(faulted.results.filter((r) => r.differences.length).map((r) => [r.step, r.differences])).toEqual([
      ['topics.get', ['status 200 / 503', 'name - / service_unavailable', 'message null / "The service is unavailable right now. Please try again later."']],
    ]);
  });

  it('prints one line for the differing call, naming its method and path', () => {
    expect(faulted.lines.filter((l) => l.startsWith('✗'))).toEqual([expect.stringMatching(/^✗ topics\.get GET \/topics\/[0-9a-f-]{36}: upstream 200, emulator 503 service_unavailable /)]);
  });

  it('writes the recording and the replay to --har', () => {
    const entries = readHar(replayHar);
    expect([entries.filter((e) => e._side === 'upstream').length, entries.filter((e) => e._side === 'emulator').length]).toEqual([TOUR.length, TOUR.length]);
  });
});

describe('cleaning up after a failure (src/parity/run-tour.ts)', () => {
  const segmentSteps = TOUR.filter((s) => s.name.startsWith('segments.create') || s.name === 'segments.get');
  const segmentsNamed = async (run: string) => {
    const res = await fetch(`${a.url}/segments`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    return ((await res.json()) as { data: { name: string }[] }).data.filter((x) => x.name === run);
  };

  it('deletes what it created on the upstream when the other side cannot be reached', async () => {
    const run = newRunName();
    const tour = runTour({ upstream: { side: 'upstream', baseUrl: a.url, apiKey: a.apiKey }, emulator: { side: 'emulator', baseUrl: 'http://127.0.0.1:9', apiKey: 'x' }, run, steps: segmentSteps });
    await expect(tour).rejects.toThrow(/127\.0\.0\.1:9/);
    expect(await segmentsNamed(run)).toEqual([]);
  });

  it('creates nothing once interrupted', async () => {
    const run = newRunName();
    const tour = runTour({ upstream: { side: 'upstream', baseUrl: a.url, apiKey: a.apiKey }, emulator: { side: 'emulator', baseUrl: a.url, apiKey: a.apiKey }, run, steps: segmentSteps, signal: AbortSignal.abort() });
    await expect(tour).rejects.toThrow(/interrupted/);
  });
});

describe('docs/parity.md', () => {
  it('lists every step of the tour', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/parity.md'), 'utf8');
    expect(TOUR.map((s) => s.name).filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('emulator parity --dry-run', () => {
  it('lists the calls and makes none (the base URL is a closed port)', async () => {
    const lines: string[] = [];
    await runParity({ dryRun: true, baseUrl: 'http://127.0.0.1:9', print: (l) => lines.push(l) });
    expect(lines.filter((l) => TOUR.some((s) => l.startsWith(`${s.name}: ${s.method} `))).length).toBe(TOUR.length);
  });

  it('needs a key for a live run', async () => {
    await expect(runParity({ baseUrl: 'http://127.0.0.1:9', print: quiet })).rejects.toThrow(/API key/);
  });
});

describe('the rate limit (src/parity/exchange.ts)', () => {
  it('waits retry-after after a 429 and tries again', async () => {
    let calls = 0;
    const server = http.createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"statusCode":429,"name":"rate_limit_exceeded","message":"slow"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const waits: number[] = [];
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await send({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {}, auth: 'none' }, { retries: 3, maxWaitMs: 60_000, sleep: async (ms) => void waits.push(ms) });
      expect([answer.response.status, waits]).toEqual([200, [2000]]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('waits ratelimit-reset after the last call of a window', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const waits: number[] = [];
    try {
      const { port } = server.address() as AddressInfo;
      await send({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {}, auth: 'none' }, { retries: 3, maxWaitMs: 60_000, sleep: async (ms) => void waits.push(ms) });
      expect(waits).toEqual([1000]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a HAR of another recorder (no _side, a redacted key)', () => {
  it('replays it with the emulator’s ids and key: no difference', async () => {
    // Recorded as Polly.JS records the SDK's tests: the real service's URL, a redacted key, no side.
    const auth = { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/segments`, { method: 'POST', headers: auth, body: '{"name":"Recorded"}' });
    const createdText = await created.text();
    const id = (JSON.parse(createdText) as { id: string }).id;
    const got = await fetch(`${a.url}/segments/${id}`, { headers: auth });
    const entry = (method: string, url: string, body: string | undefined, status: number, text: string) => ({
      startedDateTime: '2025-10-21T17:47:58.904Z',
      time: 1,
      request: { method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'authorization', value: 'Bearer re_REDACTED_API_KEY' }, { name: 'content-type', value: 'application/json' }], queryString: [], ...(body ? { postData: { mimeType: 'application/json', text: body } } : {}), headersSize: -1, bodySize: -1 },
      response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: text.length, mimeType: 'application/json', text }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const file = path.join(dir, 'polly.har');
    fs.writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'Polly.JS', version: '6' }, entries: [
      entry('POST', 'https://api.resend.com/segments', '{"name":"Recorded"}', 201, createdText),
      entry('GET', `https://api.resend.com/segments/${id}`, undefined, 200, await got.text()),
    ] } }));
    const replay = await runParity({ upstreamHar: file, print: quiet });
    expect(replay.results.map((r) => [r.step, r.emulator.status, r.differences])).toEqual([['segments/create', 201, []], ['segments/get', 200, []]]);
  });
});
