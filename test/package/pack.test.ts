/**
 * The package as users get it: `npm pack` builds the tarball, a scratch
 * project outside this tree (with only its own package.json) installs it,
 * and there the CLI starts, and a `.mjs` and a `.ts` file (type-checked with
 * `tsc --noEmit`) import `startServer` and send an email through the SDK; a
 * test file using `resend-emulator/vitest` runs under vitest, one using
 * `resend-emulator/jest` under Jest (ESM), one that `require()`s it under
 * Jest's CommonJS runtime, and a spec using `resend-emulator/playwright`
 * under `@playwright/test` (no browser: it uses the emulator fixture only),
 * and these type-check; a file importing every entry compiles with
 * `skipLibCheck: false` and `strict`, as an ES module and as CommonJS; and
 * `npx emulator --version` prints the package's version, not the project's;
 * the second command name, `npx resend-emulator`, runs the same CLI.
 *
 * Installing: the tarball is unpacked into `node_modules/resend-emulator`
 * (what `npm install <tarball>` does), and each package its `dependencies`
 * name, plus the scratch project's own `resend`, `typescript`, `vitest` and
 * `@types/node` (and for the Jest and Playwright entries `jest`,
 * `@jest/globals`, `expect`, `@playwright/test`; `@types/react` for the
 * resend SDK's own declarations under `skipLibCheck: false`), is linked from this
 * project's node_modules, which `npm ci`
 * filled from the same lockfile. So it works offline, in a second, on a fresh
 * clone; and a dependency the tarball forgets to declare fails to resolve
 * (the scratch project lives in the temp folder, outside this tree). The
 * scratch folder is removed afterwards.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, makeScratchProject, scratchEnv, type RunResult, type ScratchProject } from './scratch.js';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let scratch: ScratchProject;
let app: string;
let packed: ScratchProject['packed'];

beforeAll(() => {
  // dist/ is fresh (test/global-setup.ts builds it), so the prepare script is skipped (./scratch.ts).
  scratch = makeScratchProject(['resend', 'typescript', 'vitest', '@types/node', '@types/react', 'jest', '@jest/globals', 'expect', '@playwright/test'], { type: 'module' });
  ({ app, packed } = scratch);
}, 120_000);

afterAll(() => {
  scratch?.remove();
});

const write = (file: string, text: string) => scratch.write(file, text);

/** Runs a command in the scratch project (or `cwd`; `extraEnv` added to its environment; killed after `timeout` ms); resolves with its exit code and output. */
function run(cmd: string, args: string[], timeout = 60_000, extraEnv: Record<string, string> = {}, cwd = app): Promise<RunResult> {
  return scratch.run(cmd, args, { cwd, env: extraEnv, timeoutMs: timeout });
}

const TSCONFIG = JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'build', types: ['node'] }, include: ['*.ts'] });

const SEND = `
const emu = await startServer();
const resend = new Resend(emu.apiKey, { baseUrl: emu.url });
const { data, error } = await resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'From the tarball', html: '<p>Hi</p>' });
if (error) throw new Error(error.message);
const email = await emu.waitForEmail({ subject: 'From the tarball' }, { timeout: 2000 });
console.log(email.id === data!.id ? 'sent ' + email.to.join(',') : 'mismatch');
await emu.close();
`;

/**
 * Starts the installed CLI through npx in the scratch project (`npxArgs`,
 * e.g. `['emulator', 'start', '--port', '0']`), waits for its banner (30 s
 * at most), and answers the status of its `/_emulator/health`; the process
 * group is stopped before it returns.
 */
async function healthOfStarted(npxArgs: string[]): Promise<number> {
  const proc = spawn(npx, npxArgs, { cwd: app, env: { ...scratchEnv, TMPDIR: scratch.tmp }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    const url = await bannerUrl(proc, 30_000);
    return (await fetch(`${url}/_emulator/health`)).status;
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    if (proc.exitCode === null) process.kill(-proc.pid!, 'SIGTERM');
    await exited;
  }
}

describe('the packed tarball', () => {
  it('holds the built code, its types, the spec and the fixtures, and no tests or sources', () => {
    for (const f of ['bin/emulator.js', 'dist/cli.mjs', 'dist/core.cjs', 'dist/testing.cjs', 'dist/index.mjs', 'dist/index.cjs', 'dist/vitest.mjs', 'dist/jest.mjs', 'dist/jest.cjs', 'dist/playwright.mjs', 'dist/playwright.cjs', 'dist/src/index.d.ts', 'dist/src/vitest.d.ts', 'dist/src/jest.d.ts', 'dist/src/playwright.d.ts', 'dist/cjs-types/package.json', 'dist/cjs-types/src/index.d.ts', 'dist/cjs-types/src/jest.d.ts', 'dist/openapi.json', 'spec/openapi.yaml', 'fixtures/default.json', 'web/inbox/index.html', 'README.md', 'package.json']) {
      expect(packed.files).toContain(f);
    }
    expect(packed.files.filter((f) => /^(test|src)\//.test(f) || f.startsWith('dist/test/'))).toEqual([]);
    for (const framework of ['vitest', 'jest', '@jest/globals', '@playwright/test']) expect(Object.keys(packed.dependencies)).not.toContain(framework);
  });

  it('npx emulator start --port 0 comes up and answers /_emulator/health', async () => {
    expect(await healthOfStarted(['emulator', 'start', '--port', '0'])).toBe(200);
  }, 60_000);

  it("npx emulator --version prints the package's version from the project and from a folder inside it, not the project's 1.0.0", async () => {
    fs.mkdirSync(path.join(app, 'sub', 'dir'), { recursive: true });
    for (const cwd of [app, path.join(app, 'sub', 'dir')]) {
      const r = await run(npx, ['emulator', '--version'], 60_000, {}, cwd);
      expect(r.out.trim()).toBe(packed.version);
      expect(r.code).toBe(0);
    }
    expect(packed.version).not.toBe('1.0.0');
  }, 60_000);

  it("declares the commands emulator and resend-emulator, one CLI; npx resend-emulator --version prints the package's version and start comes up", async () => {
    expect(packed.bin).toEqual({ emulator: 'bin/emulator.js', 'resend-emulator': 'bin/emulator.js' });
    const version = await run(npx, ['resend-emulator', '--version']);
    expect(version.out.trim()).toBe(packed.version);
    expect(version.code).toBe(0);
    expect(await healthOfStarted(['resend-emulator', 'start', '--port', '0', '--smtp-port', '0'])).toBe(200);
  }, 60_000);

  it('require() and import load every entry in plain Node, over one shared core (/vitest by require(esm): vitest itself has no CommonJS build)', async () => {
    write('load.cjs', [
      `const main = require('resend-emulator');`,
      // The main entry loads no optional peer (resend is one: only the test helpers use it).
      `const peers = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](resend|vitest|jest|@jest|@playwright)[\\\\/]/.test(f)).length;`,
      `const jest = require.resolve('resend-emulator/jest');`,
      `const pw = require('resend-emulator/playwright');`,
      `const vitest = require('resend-emulator/vitest');`,
      `console.log([peers, typeof main.startServer, typeof main.createApp, jest.endsWith('jest.cjs'), typeof pw.test, pw.WaitTimeoutError === main.WaitTimeoutError, typeof vitest.useEmulator].join(' '));`,
      '',
    ].join('\n'));
    const cjs = await run(process.execPath, ['load.cjs']);
    expect(cjs.out.trim()).toBe('0 function function true function true function');
    write('load.mjs', [
      `import { startServer, WaitTimeoutError } from 'resend-emulator';`,
      `import * as pw from 'resend-emulator/playwright';`,
      `import { useEmulator } from 'resend-emulator/vitest';`,
      `import { createRequire } from 'node:module';`,
      `const main = createRequire(import.meta.url)('resend-emulator');`,
      `console.log([typeof startServer, typeof pw.test, WaitTimeoutError === main.WaitTimeoutError, pw.WaitTimeoutError === WaitTimeoutError, typeof useEmulator].join(' '));`,
      '',
    ].join('\n'));
    const esm = await run(process.execPath, ['load.mjs']);
    expect(esm.out.trim()).toBe('function function true true function');
  }, 60_000);

  it('a .mjs file imports startServer and sends an email through the SDK', async () => {
    write('send.mjs', `import { startServer } from 'resend-emulator';\nimport { Resend } from 'resend';\n${SEND.replace('data!.id', 'data.id')}`);
    const r = await run(process.execPath, ['send.mjs']);
    expect(r.out.trim()).toBe('sent ada@example.net');
    expect(r.code).toBe(0);
  }, 60_000);

  // skipLibCheck as `tsc --init` sets it: the resend SDK's own declarations
  // need React's types otherwise, whatever this package does.
  it('a .ts file and a vitest file type-check with tsc --noEmit (strict, as `tsc --init` sets it up), and both run', async () => {
    write('tsconfig.json', TSCONFIG);
    write('send.ts', `import { startServer, type EmulatorServer } from 'resend-emulator';\nimport { Resend } from 'resend';\n${SEND.replace('const emu =', 'const emu: EmulatorServer =')}`);
    write('welcome.test.ts', [
      `import { describe, expect, it } from 'vitest';`,
      `import { useEmulator } from 'resend-emulator/vitest';`,
      `const emu = useEmulator();`,
      `describe('welcome', () => {`,
      `  it('sends', async () => {`,
      `    await emu.resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });`,
      `    expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });`,
      `    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });`,
      `  });`,
      `  it('starts each test from the fixtures', () => {`,
      `    expect(emu).not.toHaveSentEmail({ to: 'ada@example.net' });`,
      `  });`,
      `});`,
      '',
    ].join('\n'));
    const tsc = path.join('node_modules', 'typescript', 'bin', 'tsc');
    const check = await run(process.execPath, [tsc, '--noEmit']);
    expect(check.out).toBe('');
    expect(check.code).toBe(0);
    expect((await run(process.execPath, [tsc])).code).toBe(0);
    const ts = await run(process.execPath, ['build/send.js']);
    expect(ts.out.trim()).toBe('sent ada@example.net');
    const vitest = await run(process.execPath, [path.join('node_modules', 'vitest', 'vitest.mjs'), 'run', 'welcome.test.ts']);
    expect(vitest.out).toMatch(/Tests\s+2 passed/);
    expect(vitest.code).toBe(0);
  }, 90_000);

  it('a Jest file using resend-emulator/jest runs under Jest, as an ES module and as CommonJS, a spec using resend-emulator/playwright under @playwright/test, and both type-check', async () => {
    write('tsconfig.json', TSCONFIG);
    // Jest and Playwright keep caches in the temp folder: the scratch folder's own, removed with it.
    const tmp = scratch.tmp;
    write('jest.config.mjs', `export default { testMatch: ['**/*.jest.mjs'], transform: {}, testEnvironment: 'node' };\n`);
    const jestTest = (imports: string, typed: boolean) => [
      imports,
      `import { useEmulator } from 'resend-emulator/jest';`,
      `const emu = useEmulator();`,
      `describe('welcome', () => {`,
      `  it('sends', async () => {`,
      `    await emu.resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Your code', html: '<p>Your code is 482913</p>' });`,
      `    expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Your code' });`,
      `    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });`,
      `    expect(await emu.code({ to: 'ada@example.net' })).toBe('482913');`,
      `  });`,
      `  it('starts each test from the fixtures', () => {`,
      `    expect(emu).not.toHaveSentEmail({ to: 'ada@example.net' });`,
      typed ? `    // @ts-expect-error: not a filter key\n    expect(emu).toHaveSentEmail({ subjct: 'Your code' });` : '',
      `  });`,
      `});`,
      '',
    ].join('\n');
    write('welcome.jest.mjs', jestTest(`import { describe, expect, it } from '@jest/globals';`, false));
    write('jest-types.ts', jestTest(`import { describe, expect, it } from '@jest/globals';`, true));
    write('playwright.config.mjs', `export default { testMatch: 'emails.spec.ts', workers: 1, reporter: 'line' };\n`);
    write('emails.spec.ts', [
      `import { test, expect } from 'resend-emulator/playwright';`,
      `import { Resend } from 'resend';`,
      `test('the emulator fixture waits for the email and reads its code', async ({ emulator }) => {`,
      `  const resend = new Resend(emulator.apiKey, { baseUrl: emulator.url });`,
      `  await resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Your code', html: '<p>Your code is 482913</p>' });`,
      `  expect(await emulator.code({ to: 'ada@example.net' })).toBe('482913');`,
      `  await expect(emulator).toHaveSentEmail({ to: 'ada@example.net', subject: 'Your code' });`,
      `  await expect(emulator).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });`,
      `});`,
      '',
    ].join('\n'));
    const check = await run(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '--noEmit']);
    expect(check.out).toBe('');
    expect(check.code).toBe(0);
    const jest = await run(process.execPath, ['--experimental-vm-modules', path.join('node_modules', 'jest', 'bin', 'jest.js')], 60_000, { TMPDIR: tmp });
    expect(jest.out).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(jest.code).toBe(0);
    // The same test as CommonJS, under Jest's default runtime (no --experimental-vm-modules): require() resolves dist/jest.cjs.
    write('welcome.jest.cjs', jestTest(`const { describe, expect, it } = require('@jest/globals');`, false).replace(`import { useEmulator } from 'resend-emulator/jest';`, `const { useEmulator } = require('resend-emulator/jest');`));
    const cjsJest = await run(process.execPath, [path.join('node_modules', 'jest', 'bin', 'jest.js'), '--testMatch', '**/*.jest.cjs'], 60_000, { TMPDIR: tmp });
    expect(cjsJest.out).not.toContain('Must use import to load ES Module');
    expect(cjsJest.out).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(cjsJest.code).toBe(0);
    const playwright = await run(process.execPath, [path.join('node_modules', '@playwright', 'test', 'cli.js'), 'test'], 60_000, { TMPDIR: tmp });
    expect(playwright.out).toMatch(/1 passed/);
    expect(playwright.code).toBe(0);
  }, 120_000);
  it('a Vitest test that sends nothing fails toHaveSentEmail({ subject: "Welcome" }) and its waitForEmail times out (the fixtures hold no email); the demo set is packed', async () => {
    expect(packed.files).toContain('fixtures/demo.json');
    write('nothing.test.ts', [
      `import { expect, it } from 'vitest';`,
      `import { useEmulator } from 'resend-emulator/vitest';`,
      `const emu = useEmulator();`,
      `it('sends a welcome email (but nothing was sent)', () => {`,
      `  expect(emu).toHaveSentEmail({ subject: 'Welcome' });`,
      `});`,
      `it('waits for a welcome email (but nothing was sent)', async () => {`,
      `  await emu.waitForEmail({ subject: 'Welcome' }, { timeout: 200 });`,
      `});`,
      '',
    ].join('\n'));
    const vitest = await run(process.execPath, [path.join('node_modules', 'vitest', 'vitest.mjs'), 'run', 'nothing.test.ts']);
    expect(vitest.out).toMatch(/Tests\s+2 failed \(2\)/);
    expect(vitest.out).toContain('Error: expected an email matching {"subject":"Welcome"}, but no email was sent');
    expect(vitest.out).toContain('WaitTimeoutError: waitForEmail: no email matched {"subject":"Welcome"} within 200 ms');
    expect(vitest.code).toBe(1);
  }, 90_000);


  it('a file importing every entry compiles with skipLibCheck: false and strict, as an ES module (.ts) and as CommonJS (.cts), under nodenext and node16: the declarations name no devDependency', async () => {
    const imports = [
      `import { startServer, createApp, interceptResendApi, WaitTimeoutError, type EmulatorServer, type EmulatorInstance, type SentEmail } from 'resend-emulator';`,
      `import { useEmulator as useVitest, type VitestEmulator } from 'resend-emulator/vitest';`,
      `import { useEmulator as useJest, type JestEmulator } from 'resend-emulator/jest';`,
      `import { test, expect, remoteConnection, type PlaywrightEmulator } from 'resend-emulator/playwright';`,
      `export const all = { startServer, createApp, interceptResendApi, WaitTimeoutError, useVitest, useJest, test, expect, remoteConnection };`,
      `export type All = [EmulatorServer, EmulatorInstance, SentEmail, VitestEmulator, JestEmulator, PlaywrightEmulator];`,
      // The internals are not public: no `ctx` (its store, bus and scheduler would need their packages' types).
      `// @ts-expect-error`,
      `export const internals = (emu: EmulatorServer) => emu.ctx;`,
      `export const base = (emu: EmulatorInstance): string => emu.baseUrl();`,
      '',
    ].join('\n');
    fs.mkdirSync(path.join(app, 'strict'));
    write('strict/all.ts', imports);
    write('strict/all.cts', imports);
    write('strict/tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }, include: ['all.ts', 'all.cts'] }));
    const check = await run(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('strict', 'tsconfig.json')]);
    expect(check.out).toBe('');
    expect(check.code).toBe(0);
    // Under node16, a CommonJS file may not import ESM-format declarations (TS1479): the `require` types are CommonJS ones.
    const node16 = await run(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('strict', 'tsconfig.json'), '--module', 'Node16', '--moduleResolution', 'Node16']);
    expect(node16.out).toBe('');
    expect(node16.code).toBe(0);
  }, 120_000);
});
