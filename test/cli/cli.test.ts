/**
 * Black-box tests of the built CLI (`bin/emulator.js`), the way a user or
 * the Docker image runs it.
 */
import { describe, expect, it, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'emulator.js');

interface Started { proc: ChildProcess; url: string; key: string; out: () => string }

/** Starts the CLI and resolves once it printed its banner (URL, key, inbox). */
function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const proc = spawn(process.execPath, [bin, 'start', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 10 s: ${out}`)), 10_000);
    proc.stdout!.on('data', (b) => {
      out += b;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const key = /API key: (\S+)/.exec(out)?.[1];
      if (url && key && /Inbox: /.test(out)) {
        clearTimeout(timer);
        resolve({ proc, url, key, out: () => out });
      }
    });
    proc.stderr!.on('data', (b) => (out += b));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

function stop(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve(proc.exitCode);
    proc.once('exit', (code) => resolve(code));
    proc.kill(signal);
  });
}

describe('emulator start (built binary)', () => {
  const running: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => stop(p, 'SIGKILL')));
  });

  // How fast it starts is measured by bench/run.js (target: health within 1 s).
  it('prints URL, key and inbox, then answers health', async () => {
    const s = await start(['--port', '0']);
    running.push(s.proc);
    const res = await fetch(`${s.url}/_emulator/health`);
    expect(res.status).toBe(200);
    expect(s.out()).toMatch(/^resend-emulator listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(s.key).toBe('re_emulator_default_key');
    expect(s.out()).toContain(`Inbox: ${s.url}/_emulator/`);
    const domains = await fetch(`${s.url}/domains`, { headers: { authorization: `Bearer ${s.key}` } });
    expect(domains.status).toBe(200);
  });

  it('reads flags from EMULATOR_* env vars, --api-key replaces the default key', async () => {
    const s = await start([], { EMULATOR_PORT: '0', EMULATOR_API_KEY: 're_from_env', EMULATOR_CLOCK: 'manual' });
    running.push(s.proc);
    expect(s.key).toBe('re_from_env');
    const ok = await fetch(`${s.url}/domains`, { headers: { authorization: 'Bearer re_from_env' } });
    expect(ok.status).toBe(200);
    const old = await fetch(`${s.url}/domains`, { headers: { authorization: 'Bearer re_emulator_default_key' } });
    expect(old.status).toBe(403);
    const clock = await (await fetch(`${s.url}/_emulator/clock`)).json();
    expect(clock.mode).toBe('manual');
  });

  it('keeps state in a --db file across restarts and closes cleanly on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-cli-'));
    const db = path.join(dir, 'state.db');
    const a = await start(['--port', '0', '--db', db]);
    const created = await fetch(`${a.url}/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'persisted.io' }),
    });
    expect(created.status).toBe(201);
    expect(await stop(a.proc, 'SIGTERM')).toBe(0);
    expect(fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0).toBe(0);
    const b = await start(['--port', '0', '--db', db]);
    running.push(b.proc);
    const list = await (await fetch(`${b.url}/domains`, { headers: { authorization: `Bearer ${b.key}` } })).json();
    expect(list.data.map((d: any) => d.name)).toContain('persisted.io');
  });

  it("runs as the Docker image does (ENV defaults, no flags) and passes its HEALTHCHECK command", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-docker-'));
    const env = { EMULATOR_HOST: '0.0.0.0', EMULATOR_PORT: '0', EMULATOR_DB: path.join(dir, 'emulator.db') };
    const s = await start([], env);
    running.push(s.proc);
    expect(s.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(fs.existsSync(path.join(dir, 'emulator.db'))).toBe(true);
    // The Dockerfile's HEALTHCHECK, run with the port the image would have.
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const script = /HEALTHCHECK[\s\S]*?CMD \["node", "-e", "((?:[^"\\]|\\.)*)"\]/.exec(dockerfile)![1];
    const port = new URL(s.url).port;
    const check = spawn(process.execPath, ['-e', script], { env: { ...process.env, EMULATOR_PORT: port } });
    expect(await new Promise((r) => check.on('exit', r))).toBe(0);
    const bad = spawn(process.execPath, ['-e', script], { env: { ...process.env, EMULATOR_PORT: '9' } });
    expect(await new Promise((r) => bad.on('exit', r))).toBe(1);
  });

  it('keeps the emulated clock in a --db file across restarts, and --api-key applies to an existing store', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-clock-'));
    const db = path.join(dir, 'state.db');
    const a = await start(['--port', '0', '--db', db, '--clock', 'manual']);
    const adv = await fetch(`${a.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '2031-06-01T00:00:00.000Z' }) });
    expect((await adv.json()).now).toBe('2031-06-01T00:00:00.000Z');
    expect(await stop(a.proc, 'SIGTERM')).toBe(0);
    const b = await start(['--port', '0', '--db', db, '--clock', 'manual', '--api-key', 're_rotated']);
    running.push(b.proc);
    expect((await (await fetch(`${b.url}/_emulator/clock`)).json()).now).toBe('2031-06-01T00:00:00.000Z');
    expect(b.key).toBe('re_rotated');
    expect((await fetch(`${b.url}/domains`, { headers: { authorization: 'Bearer re_rotated' } })).status).toBe(200);
    expect((await fetch(`${b.url}/domains`, { headers: { authorization: 'Bearer re_emulator_default_key' } })).status).toBe(403);
  });

  it('rejects an unknown flag with a usage message and exit code 1', async () => {
    const proc = spawn(process.execPath, [bin, 'start', '--nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (b) => (err += b));
    const code = await new Promise((r) => proc.on('exit', r));
    expect(code).toBe(1);
    expect(err).toMatch(/Unknown argument/i);
  });
});
