/**
 * `resend-emulator/jest` (src/jest.ts) in real Jest runs against the built
 * package (test/global-setup.ts builds dist/), in both of Jest's runtimes:
 * - ESM: Jest with its native ESM support (`node --experimental-vm-modules`,
 *   docs/jest.md) runs test/jest/suite/*.test.mjs, which `import` the
 *   package (dist/*.mjs). Five tests pass (the hooks, the matchers, a test
 *   that sends nothing finding nothing, `code` and `link`, Jest's equality
 *   in `data`); the sixth fails on purpose, and
 *   its message must list the closest emails and how each differs.
 * - CommonJS: plain `jest` (the default of `npm init` projects, ts-jest,
 *   babel-jest) runs test/jest/suite/*.test.cjs, which `require()` the
 *   package (dist/*.cjs): the same tests pass, and the main entry's
 *   `WaitTimeoutError` is the class /jest throws (one core, not two copies).
 * Jest's temp files (its cache) go to a folder of this test's own, removed
 * afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJest, type JestRun } from './run-jest.js';

let tmp: string;
let run: JestRun;
let cjsRun: JestRun;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jest-run-'));
  run = await runJest(tmp, ['--experimental-vm-modules'], 'test/jest/jest.config.mjs', 'esm');
  cjsRun = await runJest(tmp, [], 'test/jest/jest.cjs.config.mjs', 'cjs');
}, 180_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('resend-emulator/jest under Jest (ESM)', () => {
  it('passes the five tests that use the hooks and matchers, and fails the one that fails on purpose', () => {
    const results = run.report.testResults.flatMap((r) => r.assertionResults).map((a) => [a.title, a.status]);
    expect(results).toEqual([
      ['hands a running emulator; toHaveSentEmail passes for a match and .not for none', 'passed'],
      ['resets before each test', 'passed'],
      ['a test that sends nothing finds nothing: toHaveSentEmail({ subject: "Welcome" }) fails and waitForEmail times out', 'passed'],
      ['reads the one-time code and the link of the newest matching email', 'passed'],
      ['toHaveDeliveredWebhook compares data with Jest equality', 'passed'],
      ['FAILS ON PURPOSE: toHaveSentEmail lists the closest emails', 'failed'],
    ]);
    expect(run.report.numPassedTests).toBe(5);
    expect(run.report.numFailedTests).toBe(1);
    expect(run.code).toBe(1);
  });

  it("the failing matcher's message lists the closest emails and how each differs, as the Vitest matcher's does", () => {
    const failed = run.report.testResults.flatMap((r) => r.assertionResults).find((a) => a.status === 'failed')!;
    const message = failed.failureMessages.join('\n');
    // The two this test sent, nothing seeded.
    expect(message).toContain('expected an email matching {"to":"bob@example.net","subject":"Welcome"}, but none of the 2 sent emails matches. Closest:');
    expect(message).toMatch(/1\. \S+ "Your invoice" from "Acme <hello@example.com>" to \["bob@example.net"\] \(queued\)\n {5}- subject: "Your invoice" does not contain "Welcome"/);
    expect(message).toMatch(/2\. \S+ "Welcome to Acme" [^\n]*\n {5}- to: no recipient \(to, cc, bcc\) contains "bob@example.net"; got \["ada@example.net"\]/);
    // Jest prints it too, under the test's name.
    expect(run.out).toContain('● resend-emulator/jest › FAILS ON PURPOSE: toHaveSentEmail lists the closest emails');
    expect(run.out).toContain('- subject: "Your invoice" does not contain "Welcome"');
  });
});

describe('resend-emulator/jest under Jest (CommonJS)', () => {
  it('require() loads the entries and every test passes, the shared-core check included', () => {
    const results = cjsRun.report.testResults.flatMap((r) => r.assertionResults).map((a) => [a.title, a.status]);
    expect(results).toEqual([
      ['hands a running emulator; toHaveSentEmail passes for a match and .not for none', 'passed'],
      ['resets before each test', 'passed'],
      ['reads the one-time code and the link of the newest matching email', 'passed'],
      ['toHaveDeliveredWebhook compares data with Jest equality', 'passed'],
      ["the main entry and /jest share one emulator core: waitForEmail's timeout is the main entry's WaitTimeoutError", 'passed'],
    ]);
    expect(cjsRun.out).not.toContain('Must use import to load ES Module');
    expect(cjsRun.code).toBe(0);
  });
});
