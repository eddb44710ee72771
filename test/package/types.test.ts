/**
 * The published declarations under every TypeScript users have: a
 * Vitest-only, a Jest-only and a mixed project (one tsconfig holding a
 * Vitest test and a Jest test), each compiled `strict` with
 * `skipLibCheck: false` by TypeScript 5 (`typescript`, the project's own
 * compiler) and TypeScript 7 (the native compiler, the dev dependency
 * `typescript7`, an alias of `typescript@^7`; its entry is
 * `bin/tsc` too). Each project holds an ES module test (`.ts`: the
 * `import` declarations, dist/src/) and a CommonJS one (`.cts`: the
 * `require` declarations, dist/cjs-types/), so both sets are checked.
 *
 * The mixed project is where TypeScript 7 refused the declarations
 * (TS2320, `Assertion<T>` extending `JestAssertion<T>` and
 * `EmulatorMatchers<T>` with different return types: see src/vitest.ts).
 * The scratch project is made from the packed tarball (test/package/scratch.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScratchProject, type ScratchProject } from './scratch.js';

let scratch: ScratchProject;

const COMPILERS = { 'TypeScript 5': 'typescript', 'TypeScript 7': 'typescript7' } as const;

/** A test of the Vitest entry: the matchers with their filter types, `toRenderIn` awaited, a misspelt key refused. */
const vitestTest = (cjs: boolean) => [
  cjs ? `import vitest = require('vitest');\nconst { expect, it } = vitest;` : `import { expect, it } from 'vitest';`,
  cjs ? `import entry = require('resend-emulator/vitest');\nconst { useEmulator } = entry;` : `import { useEmulator, type VitestEmulator } from 'resend-emulator/vitest';`,
  `const emu${cjs ? '' : ': VitestEmulator'} = useEmulator({ interceptResendApi: true });`,
  `it('sends', async () => {`,
  `  await emu.resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });`,
  `  expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'Welcome' });`,
  `  expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent', data: expect.objectContaining({ subject: 'Welcome' }) });`,
  `  await expect(emu.emails()[0]).toRenderIn(['outlook', 'gmail'], { strict: true });`,
  `  // @ts-expect-error: not a filter key`,
  `  expect(emu).toHaveSentEmail({ subjct: 'Welcome' });`,
  `});`,
  '',
].join('\n');

/** The same through the Jest entry and the `expect` of `@jest/globals`. */
const jestTest = (cjs: boolean) => [
  cjs ? `import globals = require('@jest/globals');\nconst { expect, it } = globals;` : `import { expect, it } from '@jest/globals';`,
  cjs ? `import entry = require('resend-emulator/jest');\nconst { useEmulator } = entry;` : `import { useEmulator, type JestEmulator } from 'resend-emulator/jest';`,
  `const emu${cjs ? '' : ': JestEmulator'} = useEmulator({ webhooks: 'record' });`,
  `it('sends', async () => {`,
  `  await emu.resend.emails.send({ from: 'hello@example.com', to: 'ada@example.net', subject: 'Your code', html: '<p>482913</p>' });`,
  `  expect(emu).toHaveSentEmail({ to: 'ada@example.net', subject: 'code' });`,
  `  expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent', data: expect.objectContaining({ subject: 'Your code' }) });`,
  `  await expect(emu.emails()[0]).toRenderIn(['outlook']);`,
  `  expect(await emu.code({ to: 'ada@example.net' })).toBe('482913');`,
  `  // @ts-expect-error: not a filter key`,
  `  expect(emu).toHaveSentEmail({ subjct: 'Your code' });`,
  `});`,
  '',
].join('\n');

const PROJECTS = {
  'Vitest-only': { 'vitest.test.ts': vitestTest(false), 'vitest-cjs.test.cts': vitestTest(true) },
  'Jest-only': { 'jest.test.ts': jestTest(false), 'jest-cjs.test.cts': jestTest(true) },
  mixed: { 'vitest.test.ts': vitestTest(false), 'vitest-cjs.test.cts': vitestTest(true), 'jest.test.ts': jestTest(false), 'jest-cjs.test.cts': jestTest(true) },
};

const folder = (project: string) => project.toLowerCase();

beforeAll(() => {
  scratch = makeScratchProject(['typescript', 'typescript7', 'vitest', 'jest', '@jest/globals', 'expect', 'resend', '@types/node', '@types/react'], { type: 'module' });
  for (const [project, files] of Object.entries(PROJECTS)) {
    for (const [file, text] of Object.entries(files)) scratch.write(path.join(folder(project), file), text);
    scratch.write(path.join(folder(project), 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] },
      include: ['*.ts', '*.cts'],
    }, null, 2));
  }
}, 120_000);

afterAll(() => scratch?.remove());

describe('the declarations compile strict, skipLibCheck: false', () => {
  it.each(Object.entries(COMPILERS))('%s is the compiler it says (%s)', async (name, pkg) => {
    const version = await scratch.run(process.execPath, [path.join('node_modules', pkg, 'bin', 'tsc'), '--version']);
    expect(version.out.trim()).toMatch(new RegExp(`^Version ${name.split(' ')[1]}\\.`));
  });

  const cases = Object.keys(PROJECTS).flatMap((project) => Object.entries(COMPILERS).map(([name, pkg]) => [project, name, pkg] as const));
  it.each(cases)('a %s project under %s', async (project, _name, pkg) => {
    const check = await scratch.run(process.execPath, [path.join('node_modules', pkg, 'bin', 'tsc'), '-p', path.join(folder(project), 'tsconfig.json')]);
    expect(check.out).toBe('');
    expect(check.code).toBe(0);
  }, 120_000);
});
