/**
 * `toRenderIn` of `resend-emulator/jest` (src/testing/render-check.ts) in a
 * real Jest run (native ESM, as test/jest/jest.test.ts runs Jest) over
 * test/jest/render/ against the built package: one test passes, the other
 * fails on purpose and its message must name the feature and the clients.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

let tmp: string;
let run: { code: number | null; out: string; report: JestReport };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jest-render-'));
  const report = path.join(tmp, 'report.json');
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST')), TMPDIR: tmp, NO_COLOR: '1', FORCE_COLOR: '0' };
  const args = ['--experimental-vm-modules', path.join('node_modules', 'jest', 'bin', 'jest.js'), '--config', 'test/jest/render.config.mjs', '--ci', '--json', '--outputFile', report];
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
  run = { code, out, report: JSON.parse(fs.readFileSync(report, 'utf8')) };
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('toRenderIn under Jest (ESM)', () => {
  it('passes the test that should pass and fails the one that fails on purpose, naming the feature and the clients', () => {
    const results = run.report.testResults.flatMap((r) => r.assertionResults);
    expect(results.map((a) => [a.title, a.status])).toEqual([
      ['passes where every client supports the HTML, and .not where one lacks a feature', 'passed'],
      ['FAILS ON PURPOSE: toRenderIn names display:flex and the Outlook clients', 'failed'],
    ]);
    const message = results[1].failureMessages.join('\n');
    expect(message).toContain('to render in "outlook", "gmail", but it uses what they do not support:');
    expect(message).toMatch(/- display:flex \(css, https:\/\/www\.caniemail\.com\/features\/css-display-flex\/\): .*Outlook Windows \(not supported\)/);
    expect(run.code).toBe(1);
  });
});
