/**
 * The two tiers of the suite (vitest.config.ts, CONTRIBUTING.md): the quick
 * tier (`npm run test:quick`, projects `suite` and `sdk-mounted`) runs only
 * in-process tests of `src/`; every test file that starts a child process,
 * a browser or the built CLI, or reads `dist/`, must be listed in
 * `PROCESS_TESTS` (the full tier's `processes` project). This reads each test
 * file and the test helpers it imports, and fails on one that does such a
 * thing outside the list.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { PROCESS_TESTS } from '../../vitest.config.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** What makes a test file a full-tier one: a process, a browser, the build. */
const MARKERS: [RegExp, string][] = [
  [/^import (?!type\b)[^;]*from 'node:child_process'/m, 'imports node:child_process'],
  [/\b(launchBrowser|chromiumLaunchOptions)\(/, 'launches Chromium'],
  [/'bin', 'emulator\.js'|bin\/emulator\.js'/, 'runs bin/emulator.js'],
  [/\(root, 'dist'/, 'reads dist/'],
];

/** A glob of PROCESS_TESTS (`**` and `*` only) as a regular expression. */
function globToRegExp(glob: string): RegExp {
  const source = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Every file under `dir` (relative to the root, `/`-separated). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

/** The markers found in a test file and in the test/ helpers it imports (transitively). */
function markersOf(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file) || !fs.existsSync(path.join(root, file))) return [];
  seen.add(file);
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found = MARKERS.filter(([re]) => re.test(text)).map(([, what]) => `${file} ${what}`);
  for (const [, spec] of text.matchAll(/^import [^;]*?from '(\.[^']+)\.js'/gm)) {
    const imported = path.posix.normalize(path.posix.join(path.posix.dirname(file), `${spec}.ts`));
    if (imported.startsWith('test/')) found.push(...markersOf(imported, seen));
  }
  return found;
}

describe('test tiers', () => {
  const patterns = PROCESS_TESTS.map(globToRegExp);
  const tests = filesUnder('test').filter((f) => f.endsWith('.test.ts'));
  const full = tests.filter((f) => patterns.some((re) => re.test(f)));

  it('every pattern of PROCESS_TESTS names at least one test file', () => {
    expect(PROCESS_TESTS.filter((glob, i) => !tests.some((f) => patterns[i].test(f)))).toEqual([]);
  });

  it('no quick-tier test starts a process, launches a browser or reads dist/', () => {
    // This file names the markers as text.
    const quick = tests.filter((f) => !full.includes(f) && f !== 'test/architecture/test-tiers.test.ts');
    expect(quick.length).toBeGreaterThan(50);
    expect(quick.flatMap((f) => markersOf(f))).toEqual([]);
  });

  it('finds the markers it looks for (in the full tier)', () => {
    const found = full.flatMap((f) => markersOf(f)).join('\n');
    expect(found).toMatch(/test\/cli\/cli\.test\.ts .*runs bin\/emulator\.js|test\/cli\/process\.ts runs bin\/emulator\.js/);
    expect(found).toMatch(/test\/browser\/page\.test\.ts launches Chromium/);
    expect(found).toMatch(/test\/http\/prebuilt-spec\.test\.ts reads dist\//);
    expect(found).toMatch(/imports node:child_process/);
  });
});
