/**
 * Every complete example of README.md and docs/*.md runs as written, in a
 * scratch project made from the packed tarball (test/package/scratch.ts:
 * one `npm pack`, one offline install by links). The blocks are read by
 * test/examples/extract.ts: each block marked `example RUNNER file=PATH` is
 * written at `RUNNER/PATH` (`types/PATH` for `tsc`), then:
 *
 * - one strict `tsc` program compiles every `.ts` example (emitting `build/`);
 * - `node` examples run one by one (compiled ones from `build/`), with
 *   `RESEND_BASE_URL` and `RESEND_API_KEY` of an emulator started here with
 *   the package's CLI (what `npx emulator start` gives a script);
 * - `vitest` examples in one `vitest run`; `jest` ones in one run of Jest with
 *   its defaults (no config) in a CommonJS project; `jest-esm` ones under
 *   `node --experimental-vm-modules` with docs/jest.md's config; `playwright`
 *   ones in one `@playwright/test` run in the npm Chromium, against the
 *   emulator CLI and a stand-in for your app (test/playwright/app/server.mjs:
 *   a sign-up page that emails a code and a sign-in link), both `webServer`s;
 * - each test runner's report must list every example test file of its runner,
 *   each with at least one test and every test passed.
 *
 * Fragments (`fragment`) are not run; test/examples/markers.test.ts (quick
 * tier) fails on an unmarked ts/js block. No example reaches the internet:
 * webhooks go to a receiver on 127.0.0.1 that the example starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../browser/launch.js';
import { bannerUrl, makeScratchProject, root, scratchEnv, type RunResult, type ScratchProject } from '../package/scratch.js';
import { allBlocks, exampleFiles, where, type ExampleFile, type Runner } from './extract.js';

const examples = exampleFiles(allBlocks(root));
const of = (runner: Runner) => examples.filter((e) => e.runner === runner);
/** The folder of the scratch project a runner's files are written to. */
const folderOf = (runner: Runner) => (runner === 'tsc' ? 'types' : runner);
const pathOf = (e: ExampleFile) => path.posix.join(folderOf(e.runner), e.file);
const isTest: Record<Runner, (file: string) => boolean> = {
  node: () => true,
  vitest: (f) => /\.test\.[cm]?[jt]s$/.test(f),
  jest: (f) => /\.test\.c?js$/.test(f),
  'jest-esm': (f) => /\.test\.m?js$/.test(f),
  playwright: (f) => /\.spec\.ts$/.test(f),
  tsc: () => false,
};

let scratch: ScratchProject;
let compiled: RunResult;
let cli: ChildProcess | undefined;
let cliUrl = '';
const timings: Record<string, number> = {};

/** A port free right now (the OS's pick). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the package's CLI on a free port in the scratch project; resolves with its URL. */
async function startCli(): Promise<string> {
  const proc = spawn(process.execPath, [path.join('node_modules', 'resend-emulator', 'bin', 'emulator.js'), 'start', '--port', '0', '--no-smtp', '--log-level', 'error'], { cwd: scratch.app, env: scratchEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  cli = proc;
  return bannerUrl(proc, 30_000);
}

/** `file → [passed, total]` of each test file a JSON report lists, relative to `folder`. */
type Outcomes = Record<string, { passed: number; total: number; failures: string[] }>;

function jestOutcomes(report: string, folder: string): Outcomes {
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { testResults: { name: string; message: string; assertionResults: { status: string; failureMessages: string[] }[] }[] };
  return Object.fromEntries(json.testResults.map((r) => [
    path.relative(folder, r.name).split(path.sep).join('/'),
    { passed: r.assertionResults.filter((a) => a.status === 'passed').length, total: r.assertionResults.length, failures: [r.message, ...r.assertionResults.flatMap((a) => a.failureMessages)].filter(Boolean) },
  ]));
}

interface PwSuite {
  file: string;
  specs: { tests: { results: { status: string; error?: { message?: string } }[] }[] }[];
  suites?: PwSuite[];
}

function playwrightOutcomes(report: string): Outcomes {
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { suites: PwSuite[]; errors: { message?: string }[] };
  const out: Outcomes = {};
  const walk = (suite: PwSuite, file: string) => {
    for (const spec of suite.specs) {
      for (const t of spec.tests) {
        const entry = (out[file] ??= { passed: 0, total: 0, failures: [] });
        const last = t.results.at(-1);
        entry.total++;
        if (last?.status === 'passed') entry.passed++;
        else entry.failures.push(last?.error?.message ?? String(last?.status));
      }
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of json.suites) walk(suite, suite.file);
  if (json.errors.length) out['(errors)'] = { passed: 0, total: 1, failures: json.errors.map((e) => e.message ?? '') };
  return out;
}

/** What a runner's report must show: every example test file of the runner, each with tests, all passed. */
function expectAllPassed(runner: Runner, outcomes: Outcomes, run: RunResult) {
  const expected = of(runner).filter((e) => isTest[runner](e.file)).map((e) => e.file).sort();
  expect(Object.keys(outcomes).sort(), run.out).toEqual(expected);
  for (const [file, o] of Object.entries(outcomes)) {
    expect(o.failures, `${file}\n${run.out}`).toEqual([]);
    expect(o.total, file).toBeGreaterThan(0);
    expect(o.passed, file).toBe(o.total);
  }
  expect(run.code, run.out).toBe(0);
}

beforeAll(async () => {
  const started = performance.now();
  scratch = makeScratchProject(['typescript', 'vitest', 'jest', '@jest/globals', 'expect', '@playwright/test', 'resend', 'supertest', '@types/supertest', '@types/node', '@types/react', '@types/nodemailer'], { type: 'module' });
  for (const e of examples) scratch.write(pathOf(e), e.code);
  // Jest's defaults: a CommonJS project (no "type"), no config.
  scratch.write('jest/package.json', JSON.stringify({ name: 'jest-examples', private: true }, null, 2));
  scratch.write('jest-esm/package.json', JSON.stringify({ name: 'jest-esm-examples', private: true, type: 'module' }, null, 2));
  scratch.write('tsconfig.json', JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], rootDir: '.', outDir: 'build' },
    include: ['node/**/*.ts', 'vitest/**/*.ts', 'playwright/**/*.ts', 'types/**/*.ts'],
  }, null, 2));
  // The stand-in for your app that the Playwright examples sign up on, and the run's config.
  fs.copyFileSync(path.join(root, 'test', 'playwright', 'app', 'server.mjs'), path.join(scratch.app, 'playwright', 'app.mjs'));
  scratch.write('playwright/playwright.config.mjs', [
    `const need = (name) => { if (!process.env[name]) throw new Error(name + ' is not set: run through test/examples/examples.test.ts'); return process.env[name]; };`,
    `const emulatorUrl = 'http://127.0.0.1:' + need('EMULATOR_PORT');`,
    `const appUrl = 'http://127.0.0.1:' + need('APP_PORT');`,
    `export default {`,
    `  testDir: '.', testMatch: '**/*.spec.ts', workers: 1, retries: 0, timeout: 30000, forbidOnly: true,`,
    `  outputDir: need('PW_OUTPUT_DIR'),`,
    `  reporter: [['line'], ['json', { outputFile: need('PW_JSON_REPORT') }]],`,
    `  use: { baseURL: appUrl, emulatorUrl, browserName: 'chromium', headless: true, launchOptions: JSON.parse(need('CHROMIUM_LAUNCH')), trace: 'off', screenshot: 'off', video: 'off' },`,
    `  webServer: [`,
    `    { command: 'node ../node_modules/resend-emulator/bin/emulator.js start --no-smtp --log-level error --port ' + need('EMULATOR_PORT'), url: emulatorUrl + '/_emulator/health', reuseExistingServer: false, timeout: 30000 },`,
    `    { command: 'node app.mjs', url: appUrl, reuseExistingServer: false, timeout: 30000, env: { PORT: need('APP_PORT'), RESEND_BASE_URL: emulatorUrl, RESEND_API_KEY: 're_emulator_default_key' } },`,
    `  ],`,
    `};`,
    '',
  ].join('\n'));
  timings.setup = Math.round(performance.now() - started);
  compiled = await scratch.run(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
  timings.tsc = compiled.ms;
  cliUrl = await startCli();
}, 240_000);

afterAll(async () => {
  if (cli && cli.exitCode === null) {
    const exited = new Promise((r) => cli!.once('exit', r));
    cli.kill('SIGTERM');
    await exited;
  }
  scratch?.remove();
  console.log(`examples: ${examples.length} files; ms of real time: ${JSON.stringify(timings)}`);
});

describe('the examples of README.md and docs/*.md, in a project made from the packed tarball', () => {
  it('every TypeScript example compiles in one strict program (tsc, skipLibCheck as tsc --init sets it)', () => {
    expect(compiled.out).toBe('');
    expect(compiled.code).toBe(0);
  });

  it.each(of('node').map((e) => [where(e), e] as const))('%s runs under node (with RESEND_BASE_URL and RESEND_API_KEY of a running emulator)', async (_where, e) => {
    const file = e.file.endsWith('.ts') ? path.join('build', 'node', e.file.replace(/\.ts$/, '.js')) : path.join('node', e.file);
    const r = await scratch.run(process.execPath, [file], { cwd: scratch.app, env: { RESEND_BASE_URL: cliUrl, RESEND_API_KEY: 're_emulator_default_key' }, timeoutMs: 60_000 });
    timings[`node ${e.file}`] = r.ms;
    expect(r.code, r.out).toBe(0);
  }, 90_000);

  it('the vitest examples pass under `vitest run`', async () => {
    const report = path.join(scratch.tmp, 'vitest.json');
    const r = await scratch.run(process.execPath, [path.join('..', 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', `--outputFile=${report}`], { cwd: path.join(scratch.app, 'vitest') });
    timings.vitest = r.ms;
    expect(fs.existsSync(report), r.out).toBe(true);
    expectAllPassed('vitest', jestOutcomes(report, path.join(scratch.app, 'vitest')), r);
  }, 180_000);

  it("the jest examples pass under Jest's defaults, in a CommonJS project (no config, no transform settings)", async () => {
    const report = path.join(scratch.tmp, 'jest.json');
    const r = await scratch.run(process.execPath, [path.join('..', 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--json', '--outputFile', report], { cwd: path.join(scratch.app, 'jest') });
    timings.jest = r.ms;
    expect(fs.existsSync(report), r.out).toBe(true);
    expectAllPassed('jest', jestOutcomes(report, path.join(scratch.app, 'jest')), r);
  }, 180_000);

  it("the jest-esm examples pass under Jest's native ESM (node --experimental-vm-modules)", async () => {
    const report = path.join(scratch.tmp, 'jest-esm.json');
    const r = await scratch.run(process.execPath, ['--experimental-vm-modules', path.join('..', 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--json', '--outputFile', report], { cwd: path.join(scratch.app, 'jest-esm') });
    timings['jest-esm'] = r.ms;
    expect(fs.existsSync(report), r.out).toBe(true);
    expectAllPassed('jest-esm', jestOutcomes(report, path.join(scratch.app, 'jest-esm')), r);
  }, 180_000);

  it('the playwright examples pass under @playwright/test in the npm Chromium, against the emulator CLI and a stand-in app', async () => {
    const report = path.join(scratch.tmp, 'playwright.json');
    const env = {
      CHROMIUM_LAUNCH: JSON.stringify(await chromiumLaunchOptions()),
      EMULATOR_PORT: String(await freePort()),
      APP_PORT: String(await freePort()),
      PW_OUTPUT_DIR: path.join(scratch.tmp, 'playwright-results'),
      PW_JSON_REPORT: report,
    };
    const r = await scratch.run(process.execPath, [path.join('..', 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', 'playwright.config.mjs'], { cwd: path.join(scratch.app, 'playwright'), env, timeoutMs: 150_000 });
    timings.playwright = r.ms;
    expect(fs.existsSync(report), r.out).toBe(true);
    expectAllPassed('playwright', playwrightOutcomes(report), r);
  }, 180_000);
});
