/**
 * The CLI's TLS side, black-box (`bin/emulator.js`): `--tls` / `EMULATOR_TLS=1`
 * with `--https-port` and `--tls-dir`, its banner line, `--https-port`
 * errors, and `emulator ca [--pem]`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expectOneLineFailure, runToExit, start, stop } from './process.js';
import { writeOldLayout } from '../tls/old-layout.js';

/** GET `url` with node:https trusting only `ca` as `servername`; resolves with the status. */
function getStatus(url: string, ca: string, servername: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https.get(url, { ca, servername, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });
}

describe('emulator start --tls, emulator ca', () => {
  const running: ChildProcess[] = [];
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-cli-tls-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => stop(p, 'SIGKILL')));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('emulator ca creates the CA once and prints its path, or with --pem its certificate', async () => {
    const dir = path.join(tempDir(), 'tls');
    const first = await runToExit(['ca', '--tls-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${path.join(dir, 'ca.pem')}\n`);
    expect(first.stderr).toMatch(/new local CA created/);
    expect(fs.statSync(path.join(dir, 'intermediate-key.pem')).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(dir, 'ca-key.pem'))).toBe(false); // the root's key is never kept
    const pem = await runToExit(['ca', '--pem'], { EMULATOR_TLS_DIR: dir });
    expect(pem.code).toBe(0);
    expect(pem.stdout).toBe(fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'));
    expect(pem.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(pem.stdout + pem.stderr).not.toMatch(/PRIVATE KEY/);
    expect(pem.stderr).toBe(''); // the same CA: no notice
  });

  it('replaces a --tls-dir of the old layout (the CA key on disk) once, with one notice line: trust the new ca.pem', async () => {
    const dir = path.join(tempDir(), 'tls');
    const oldPem = await writeOldLayout(dir);
    const first = await runToExit(['ca', '--tls-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${path.join(dir, 'ca.pem')}\n`);
    expect(first.stderr.trim().split('\n')).toEqual([expect.stringMatching(/new local CA replaced \(the old one kept its key on disk, ca-key\.pem; .*\): .*ca\.pem \(trust it again: /)]);
    expect(fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8')).not.toBe(oldPem);
    expect(fs.readdirSync(dir).sort()).toEqual(['ca.pem', 'intermediate-key.pem', 'intermediate.pem']);
    const s = await start(['--port', '0', '--tls', '--https-port', '0', '--tls-dir', dir]);
    running.push(s.proc);
    expect(s.out()).not.toMatch(/new local CA/); // once
  });

  it('--tls serves HTTPS on --https-port with a certificate the CA named by `emulator ca` verifies; the banner says so', async () => {
    const dir = path.join(tempDir(), 'tls');
    const s = await start(['--port', '0', '--tls', '--https-port', '0', '--tls-dir', dir]);
    running.push(s.proc);
    const httpsUrl = /^HTTPS: (https:\/\/127\.0\.0\.1:\d+) \(as api\.resend\.com; trust the CA (\S+)\)$/m.exec(s.out());
    expect(httpsUrl).not.toBeNull();
    const named = await runToExit(['ca', '--tls-dir', dir]);
    expect(httpsUrl![2]).toBe(named.stdout.trim());
    const ca = fs.readFileSync(named.stdout.trim(), 'utf8');
    expect(await getStatus(`${httpsUrl![1]}/_emulator/health`, ca, 'api.resend.com')).toBe(200);
    expect(s.out()).toMatch(/^SMTP: .*STARTTLS offered$/m);
  });

  it('EMULATOR_TLS=1 and EMULATOR_HTTPS_PORT turn it on from the environment', async () => {
    const dir = path.join(tempDir(), 'tls');
    const s = await start(['--port', '0'], { EMULATOR_TLS: '1', EMULATOR_HTTPS_PORT: '0', EMULATOR_TLS_DIR: dir });
    running.push(s.proc);
    expect(s.out()).toMatch(/^HTTPS: https:\/\/127\.0\.0\.1:\d+ /m);
    expect(fs.existsSync(path.join(dir, 'ca.pem'))).toBe(true);
    const off = await start(['--port', '0']);
    running.push(off.proc);
    expect(off.out()).not.toMatch(/HTTPS:/);
  });

  it('refuses a bad or busy --https-port in one line', async () => {
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--tls', '--https-port', '70000']), '--https-port must be an integer 0-65535');
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as net.AddressInfo).port;
      const r = await runToExit(['start', '--port', '0', '--tls', '--https-port', String(port), '--tls-dir', path.join(tempDir(), 'tls')]);
      expect(r.stderr).toMatch(/new local CA created/); // the notice comes first, then the one failure line
      expectOneLineFailure({ ...r, stderr: r.stderr.split('\n').filter((l) => !l.includes('new local CA')).join('\n') }, `port ${port} is already in use (--https-port)`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
