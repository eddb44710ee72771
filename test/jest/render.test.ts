/**
 * `toRenderIn` of `resend-emulator/jest` (src/testing/render-check.ts) in a
 * real Jest run (native ESM, as test/jest/jest.test.ts runs Jest) over
 * test/jest/render/ against the built package: one test passes, the other
 * fails on purpose and its message must name the feature and the clients.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJest, type JestRun } from './run-jest.js';

let tmp: string;
let run: JestRun;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jest-render-'));
  run = await runJest(tmp, ['--experimental-vm-modules'], 'test/jest/render.config.mjs', 'report');
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('toRenderIn under Jest (ESM)', () => {
  const results = () => run.report.testResults.flatMap((r) => r.assertionResults);

  it('passes the test that should pass and fails the one that fails on purpose', () => {
    expect(results().map((a) => [a.title, a.status])).toEqual([
      ['passes where every client supports the HTML, and .not where one lacks a feature', 'passed'],
      ['FAILS ON PURPOSE: toRenderIn names display:flex and the Outlook clients', 'failed'],
    ]);
    expect(run.code).toBe(1);
  });

  it('the failure names the feature, its caniemail page and the clients that lack it', () => {
    const message = results()[1].failureMessages.join('\n');
    expect(message).toContain('to render in "outlook", "gmail", but it uses what they do not support:');
    expect(message).toMatch(/- display:flex \(css, https:\/\/www\.caniemail\.com\/features\/css-display-flex\/\): .*Outlook Windows \(not supported\)/);
  });
});
