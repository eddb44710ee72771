/**
 * Runs Jest as a child process over this repository, for the tests of
 * `resend-emulator/jest` (test/jest/jest.test.ts, test/jest/render.test.ts):
 * Jest's bin under `node` with the given Node flags and config, its JSON
 * report written into `tmp`, and Jest's own temp files (its cache) in `tmp`
 * too, which the caller removes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `jest --json` reports (the part the tests read). */
export interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

/** One Jest run: its exit code (null when killed), its stdout and stderr together, and its report. */
export interface JestRun {
  code: number | null;
  out: string;
  report: JestReport;
}

/**
 * Runs Jest (`nodeArgs` before its bin, e.g. `--experimental-vm-modules` for
 * its native ESM) with `config` (a path from the repository root); the
 * report is `tmp/<name>.json`. Killed after 90 s of real time. Rejects when
 * Jest wrote no report, with its output.
 */
export async function runJest(tmp: string, nodeArgs: string[], config: string, name: string): Promise<JestRun> {
  const report = path.join(tmp, `${name}.json`);
  // None of this run's vitest variables; Jest's own temp files in `tmp`.
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST')), TMPDIR: tmp, NO_COLOR: '1', FORCE_COLOR: '0' };
  const args = [...nodeArgs, path.join('node_modules', 'jest', 'bin', 'jest.js'), '--config', config, '--ci', '--json', '--outputFile', report];
  const proc = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (b) => (out += b));
  proc.stderr.on('data', (b) => (out += b));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 90_000);
    proc.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  if (!fs.existsSync(report)) throw new Error(`Jest wrote no report (exit ${code}):\n${out}`);
  return { code, out, report: JSON.parse(fs.readFileSync(report, 'utf8')) };
}
