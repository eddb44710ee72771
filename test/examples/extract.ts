/**
 * The code blocks of README.md and docs/*.md, read the way
 * test/examples/examples.test.ts runs them (CONTRIBUTING.md "Examples in
 * the docs"). A fenced block's info string is its language, then its mark:
 *
 * - ```` ```ts fragment ````: a piece shown in context (not a whole file);
 *   never run.
 * - ```` ```ts example RUNNER file=PATH ````: one file of a complete
 *   example, written at `PATH` in RUNNER's folder of the scratch project
 *   and run by RUNNER (`RUNNERS`).
 *
 * A block in JavaScript or TypeScript (`JS_LANGUAGES`) carries one of the
 * two marks, or `unmarked()` lists it; blocks in other languages (sh, json,
 * yaml, python, …) are not read.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The languages whose blocks must be marked. */
export const JS_LANGUAGES = ['ts', 'typescript', 'js', 'javascript', 'mjs', 'cjs', 'tsx', 'jsx', 'mts', 'cts'];

/**
 * How each runner runs its files, each in a folder of its own in the scratch
 * project (so their `package.json` and configs do not meet):
 * - `node`: a script; `.ts` is compiled by the `tsc` run first (one
 *   program, `build/`), then `node` runs it with `RESEND_BASE_URL` and
 *   `RESEND_API_KEY` of an emulator the test started (`emulator start`), as a
 *   user runs a script against `npx emulator start`;
 * - `vitest`: `vitest run` in its folder (an ES module project);
 * - `jest`: Jest with its defaults (no config) in a CommonJS project
 *   (its `package.json` has no `"type"`), as `npm init` and `npx jest` set up;
 * - `jest-esm`: Jest under `node --experimental-vm-modules`, in an ES module project;
 * - `playwright`: `@playwright/test` with the test's own config, a stand-in for
 *   "your app" (test/playwright/app/server.mjs) and the emulator CLI as its
 *   `webServer`s, and the npm Chromium;
 * - `tsc`: compiled only (strict), for a complete file that needs what a
 *   scratch project cannot hold (your app's dev server, a real inbox).
 * A runner's tool picks its tests by name (`*.test.*`, `*.spec.ts`), so an
 * example's other files (your code it imports, a config) are marked with
 * the same runner and written beside it. Every `.ts` file of every runner
 * is in the one strict `tsc` program.
 */
export const RUNNERS = ['node', 'vitest', 'jest', 'jest-esm', 'playwright', 'tsc'] as const;
export type Runner = (typeof RUNNERS)[number];

/** A fenced code block of a page. */
export interface CodeBlock {
  /** The page, relative to the repository root (`README.md`, `docs/vitest.md`). */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The language (first word of the info string), lower-case; '' when none. */
  lang: string;
  /** The words after the language. */
  words: string[];
  /** The block's text, its fence's indentation removed. */
  code: string;
}

/** A block marked `example`: where it is written and what runs it. */
export interface ExampleFile extends CodeBlock {
  runner: Runner;
  /** Its path in the runner's folder (`file=`). */
  file: string;
}

/** Every fenced block of `text` (``` or ~~~ fences, indented ones included, as in a list item). */
export function codeBlocks(page: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (close.test(lines[j])) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const [lang = '', ...words] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ page, line: i + 1, lang: lang.toLowerCase(), words, code: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

/** The pages whose examples run: README.md and docs/*.md (docs/reference/ is the record, with no code to run). */
export function examplePages(root: string): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every block of the pages. */
export function allBlocks(root: string): CodeBlock[] {
  return examplePages(root).flatMap((page) => codeBlocks(page, fs.readFileSync(path.join(root, page), 'utf8')));
}

/** `page:line` of a block, for messages. */
export const where = (b: CodeBlock): string => `${b.page}:${b.line}`;

/** JavaScript and TypeScript blocks marked neither `fragment` nor `example RUNNER file=PATH` (with a known runner), each with what is wrong. */
export function unmarked(blocks: CodeBlock[]): string[] {
  const wrong: string[] = [];
  for (const b of blocks) {
    if (!JS_LANGUAGES.includes(b.lang)) continue;
    const [mark, runner] = b.words;
    if (mark === 'fragment' && b.words.length === 1) continue;
    if (mark === 'example') {
      if (!(RUNNERS as readonly string[]).includes(runner)) wrong.push(`${where(b)}: "example" needs a runner, one of ${RUNNERS.join(', ')} (got ${runner ?? 'none'})`);
      else if (!b.words.slice(2).some((w) => w.startsWith('file='))) wrong.push(`${where(b)}: "example ${runner}" needs file=PATH`);
      continue;
    }
    wrong.push(`${where(b)}: a \`\`\`${b.lang} block marked neither "fragment" nor "example RUNNER file=PATH" (info string: "${[b.lang, ...b.words].join(' ')}")`);
  }
  return wrong;
}

/** The blocks marked `example`, with their runner and file. */
export function exampleFiles(blocks: CodeBlock[]): ExampleFile[] {
  return blocks
    .filter((b) => JS_LANGUAGES.includes(b.lang) && b.words[0] === 'example')
    .map((b) => ({ ...b, runner: b.words[1] as Runner, file: b.words.find((w) => w.startsWith('file='))!.slice('file='.length) }));
}
