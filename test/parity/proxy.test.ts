/**
 * The recording proxy (src/parity/proxy.ts) through `startServer({
 * upstream, upstreamApiKey, record })`: emulator P answers, emulator A (on
 * 127.0.0.1) stands for the service upstream.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { readHar, type ParityEntry } from '../../src/parity/har.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parity-proxy-'));
const harFile = path.join(dir, 'suite.har');

let a: EmulatorServer;
let keys: string[];
const seen: { status: number; body: any }[] = [];
let report = '';
let entries: ParityEntry[];
let upstreamEmails: string[][];

beforeAll(async () => {
  a = await startServer();
  const p = await startServer({ upstream: a.url, upstreamApiKey: a.apiKey, record: harFile });
  keys = [a.apiKey, p.apiKey];
  const call = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${p.url}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${p.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = { status: res.status, body: await res.json() };
    seen.push(answer);
    return answer;
  };
  const segment = await call('POST', '/segments', { name: 'suite segment' });
  await call('GET', `/segments/${segment.body.id}`);
  await call('POST', '/emails', { from: 'onboarding@resend.dev', to: 'delivered@resend.dev', subject: 'hi', text: 'hi' });
  await call('POST', '/emails', { from: 'onboarding@resend.dev', to: ['delivered@resend.dev', 'someone@example.com'], subject: 'hi', text: 'hi' });
  // The one deliberate difference: the upstream fails the topics list.
  a.faults.add({ operation: 'GET /topics', status: 500 });
  await call('GET', '/topics');
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    report += String(chunk);
    return true;
  });
  try {
    await p.close();
  } finally {
    write.mockRestore();
  }
  entries = readHar(harFile);
  upstreamEmails = a.emails().map((e) => e.to);
}, 60_000);
afterAll(async () => {
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('emulator start --upstream URL --record FILE.har', () => {
  it('answers from the emulator as usual', () => {
    expect(seen.slice(0, 3).map((s) => s.status)).toEqual([201, 200, 200]);
  });

  it('reaches the upstream resource by its own id (ids mapped)', () => {
    const get = entries.find((e) => e._side === 'upstream' && e.request.method === 'GET' && e.request.url.includes('/segments/'));
    expect(get?.response.status).toBe(200);
  });

  it('forwards a send to a test address', () => {
    expect(upstreamEmails).toEqual([['delivered@resend.dev']]);
  });

  it('refuses a send to any other address with 422 upstream_send_refused, before it leaves', () => {
    expect([seen[3].status, seen[3].body.name, seen[3].body.statusCode]).toEqual([422, 'upstream_send_refused', 422]);
  });

  it('names the refused recipient in the message', () => {
    expect(seen[3].body.message).toContain('someone@example.com');
  });

  it('lists exactly the differing call at close, naming its method and path', () => {
    expect(report.split('\n').filter((l) => l.includes('✗'))).toEqual([expect.stringContaining('✗ topics/list GET /topics: upstream 500 application_error')]);
  });

  it('counts the calls compared', () => {
    expect(report).toContain('parity: 4 calls compared: 3 matched, 1 differed');
  });

  it('records both sides of every forwarded call', () => {
    expect([entries.filter((e) => e._side === 'upstream').length, entries.filter((e) => e._side === 'emulator').length]).toEqual([4, 4]);
  });

  it('writes neither key nor Authorization header to the HAR', () => {
    const text = fs.readFileSync(harFile, 'utf8');
    expect([keys.some((k) => text.includes(k)), /"name":\s*"authorization"/i.test(text)]).toEqual([false, false]);
  });

  it('refuses record without upstream', async () => {
    await expect(startServer({ record: harFile })).rejects.toThrow(/record needs upstream/);
  });
});
