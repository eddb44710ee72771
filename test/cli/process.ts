/**
 * Starting and stopping the built CLI (`bin/emulator.js`) from tests, the
 * way a user or the Docker image runs it (test/cli, test/reliability).
 */
import { expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(root, 'bin', 'emulator.js');

export interface Started { proc: ChildProcess; url: string; key: string; out: () => string }

/**
 * The SMTP relay's default port (2587) may be taken on a shared machine:
 * every spawned CLI gets a free one unless the test says otherwise.
 */
export const FREE_SMTP = { EMULATOR_SMTP_PORT: '0' };

/** Starts the CLI and resolves once it printed its banner (URL, key, inbox). */
export function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const proc = spawn(process.execPath, [bin, 'start', ...args], { env: { ...process.env, ...FREE_SMTP, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Runs the CLI to its exit (killed after `timeoutMs`, then rejected); resolves with the exit code and what it printed. */
export function runToExit(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 10_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...FREE_SMTP, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (b) => (stdout += b));
  proc.stderr!.on('data', (b) => (stderr += b));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`still running after ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A start-up failure: exit 1, exactly one stderr line `resend-emulator: <message>`, no help, no stack. */
export function expectOneLineFailure(r: { code: number | null; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^resend-emulator: /);
  if (typeof message === 'string') expect(lines[0]).toBe(`resend-emulator: ${message}`);
  else expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/Options:|--help|\n\s+at /); // a stack frame starts a line: "must name at least" is no stack
}

export function stop(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve(proc.exitCode);
    proc.once('exit', (code) => resolve(code));
    proc.kill(signal);
  });
}
