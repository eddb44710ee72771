/**
 * Runs once around the whole suite, in vitest's main process:
 *
 * - generates the document's types (`src/generated/openapi.ts`) and builds `dist/` (with the dereferenced document `dist/openapi.json` and the bundled CLI `dist/cli.mjs`), so the black-box tests run the same compiled binary a
 *   user runs (`bin/emulator.js`);
 * - gives the suite a temp folder of its own: `TMPDIR` points at a fresh
 *   `resend-emulator-test-*` directory in the OS temp folder while the tests
 *   run (test workers and the processes they start inherit it). At the end it
 *   must be empty: the teardown lists whatever a test left behind, removes
 *   the directory either way, and fails the run if it was not empty. So the
 *   OS temp folder holds the same entries before and after `npm test`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // The document's TypeScript types (src/http/document-types.ts) come from spec/ at build time.
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), path.join(root, 'spec', 'openapi.yaml'), '-o', path.join(root, 'src', 'generated', 'openapi.ts'), '--silent'], { stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-spec.mjs')], { stdio: 'inherit' });
  // bin/emulator.js runs the bundled CLI (dist/cli.mjs): bundled again from the dist/ just built.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { stdio: 'inherit' });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'resend-emulator-test-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  // bin/emulator.js turns on Node's compile cache (Node 22.1+), kept in the temp folder: not for the CLIs the tests start.
  const previousCache = process.env.NODE_DISABLE_COMPILE_CACHE;
  process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  return function teardown() {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousCache === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = previousCache;
    const left = fs.readdirSync(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0: fail the run explicitly.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (now removed); each test must remove what it creates: ${left.sort().join(', ')}`);
    }
  };
}
