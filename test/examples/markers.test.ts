/**
 * Every JavaScript or TypeScript block of README.md and docs/*.md is marked
 * `fragment` or `example RUNNER file=PATH` (test/examples/extract.ts), so
 * none is silently left out of the run of the examples
 * (test/examples/examples.test.ts, full tier); no two examples of a runner
 * write the same file. In-process: it only reads the pages.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allBlocks, codeBlocks, exampleFiles, unmarked, where } from './extract.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the code blocks of README.md and docs/*.md', () => {
  const blocks = allBlocks(root);

  it('every ts/js block is marked fragment or example RUNNER file=PATH', () => {
    expect(unmarked(blocks)).toEqual([]);
  });

  it('no two examples of one runner write the same file', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const f of exampleFiles(blocks)) {
      const key = `${f.runner}/${f.file}`;
      if (seen.has(key)) twice.push(`${key}: ${seen.get(key)} and ${where(f)}`);
      seen.set(key, where(f));
    }
    expect(twice).toEqual([]);
  });

  it('finds the examples of each runner the docs show (Vitest, Jest CommonJS and ESM, Playwright, supertest, plain Node)', () => {
    const runners = new Set(exampleFiles(blocks).map((f) => f.runner));
    for (const r of ['node', 'vitest', 'jest', 'jest-esm', 'playwright', 'tsc'] as const) expect(runners).toContain(r);
  });

  it('reports an unmarked block, a runner it does not know and a missing file= (self-test on a made-up page)', () => {
    const page = [
      '```ts', 'const a = 1;', '```',
      '```js example mocha file=a.test.js', 'it();', '```',
      '```ts example vitest', 'it();', '```',
      '  ```ts fragment', '  x;', '  ```',
      '```sh', 'npm test', '```',
    ].join('\n');
    const wrong = unmarked(codeBlocks('made-up.md', page));
    expect(wrong).toHaveLength(3);
    expect(wrong[0]).toMatch(/^made-up\.md:1: a ```ts block marked neither/);
    expect(wrong[1]).toMatch(/^made-up\.md:4: "example" needs a runner/);
    expect(wrong[2]).toMatch(/^made-up\.md:7: "example vitest" needs file=PATH/);
  });
});
