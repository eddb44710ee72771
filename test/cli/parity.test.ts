/**
 * `emulator parity` and `emulator start --upstream` from the built CLI. The
 * "service" is an emulator this test starts on 127.0.0.1 (no real key, no
 * internet).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { TOUR } from '../../src/parity/tour.js';
import { expectOneLineFailure, runToExit, start, stop } from './process.js';

/** Runs the CLI to its exit (30 s at most: a tour makes ~50 calls). */
const runCli = (args: string[], env: Record<string, string | undefined> = {}) => runToExit(args, env, 30_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parity-cli-'));
let a: EmulatorServer;
beforeAll(async () => {
  a = await startServer();
});
afterAll(async () => {
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('emulator parity (built binary)', () => {
  it('--dry-run lists every call of the tour and exits 0', async () => {
    const r = await runCli(['parity', '--dry-run', '--base-url', 'http://127.0.0.1:9']);
    expect([r.code, TOUR.filter((s) => !r.stdout.includes(`${s.name}: ${s.method} `)).map((s) => s.name)]).toEqual([0, []]);
  });

  it('--base-url another emulator, its key from RESEND_API_KEY (EMULATOR_API_KEY ignored): no difference, a HAR without the key', async () => {
    const har = path.join(dir, 'tour.har');
    const r = await runCli(['parity', '--base-url', a.url, '--har', har], { RESEND_API_KEY: a.apiKey, EMULATOR_API_KEY: 're_not_this_one_1234' });
    expect([r.code, r.stdout.split('\n')[0], fs.readFileSync(har, 'utf8').includes(a.apiKey)]).toEqual([0, `parity: ${TOUR.length} calls compared: ${TOUR.length} matched, 0 differed`, false]);
  }, 40_000);

  it('without a key: one line, exit 1', async () => {
    const r = await runCli(['parity', '--base-url', 'http://127.0.0.1:9'], { RESEND_API_KEY: undefined, EMULATOR_API_KEY: undefined });
    expectOneLineFailure(r, /^resend-emulator: parity: an API key is needed/);
  });

  it('an unreadable --upstream-har: one line naming it, exit 1', async () => {
    const r = await runCli(['parity', '--upstream-har', path.join(dir, 'missing.har')]);
    expectOneLineFailure(r, /cannot read HAR .*missing\.har/);
  });

  it('a bad --faults file (missing, a bad rule): the one line `emulator start` prints, exit 1', async () => {
    expectOneLineFailure(await runCli(['parity', '--dry-run', '--faults', path.join(dir, 'missing.json')]), /^resend-emulator: cannot read faults .*missing\.json: ENOENT/);
    const rule = path.join(dir, 'rule.json');
    fs.writeFileSync(rule, '[{"operation": "emails/sned"}]');
    expectOneLineFailure(await runCli(['parity', '--dry-run', '--faults', rule]), /^resend-emulator: --faults .*rule\.json: rule 1: Unknown `operation` `emails\/sned`/);
  });
});

describe('emulator start --upstream URL --record FILE.har (built binary)', () => {
  it('forwards, and on SIGTERM prints the differences and writes the HAR', async () => {
    const har = path.join(dir, 'suite.har');
    const s = await start(['--port', '0', '--upstream', a.url, '--upstream-api-key', a.apiKey, '--record', har]);
    const res = await fetch(`${s.url}/segments`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: '{"name":"cli"}' });
    expect(res.status).toBe(201);
    const code = await stop(s.proc);
    const sides = (JSON.parse(fs.readFileSync(har, 'utf8')).log.entries as { _side: string }[]).map((e) => e._side);
    expect([code, /parity: 1 call compared: 1 matched, 0 differed/.test(s.out()), sides]).toEqual([0, true, ['upstream', 'emulator']]);
  });

  it('--upstream that is not an http(s) URL: one line, exit 1', async () => {
    const r = await runCli(['start', '--port', '0', '--upstream', 'ftp://example.org']);
    expectOneLineFailure(r, '--upstream must be an http(s) URL: ftp://example.org');
  });

  it('--record without --upstream: one line, exit 1', async () => {
    const r = await runCli(['start', '--port', '0', '--record', path.join(dir, 'x.har')]);
    expectOneLineFailure(r, '--record and --upstream-api-key need --upstream URL');
  });
});
