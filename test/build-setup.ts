/**
 * Global setup of the full tier's `processes` project (vitest.config.ts):
 * makes sure `dist/` is built from the sources before the tests that run the
 * build (the CLI `bin/emulator.js` over the bundled `dist/cli.mjs`, the packed
 * tarball, Jest and Playwright over the package's entries, `dist/openapi.json`).
 *
 * It builds only when the build is missing or older than what it is built
 * from (`src/`, `spec/`, the build scripts, `tsconfig.json`, `package.json`),
 * so `npm test`, whose script has just run `npm run build`, builds once, and
 * a run of a few full-tier files after an edit rebuilds. The steps are those
 * of `npm run build`: the document's types (`src/generated/openapi.ts`), tsc,
 * `scripts/build-spec.mjs`, `scripts/bundle.mjs`. The quick tier (projects
 * `suite` and `sdk-mounted`) needs no build: its tests import `src/`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the build reads: a change to any of these makes `dist/` stale. */
const INPUTS = ['src', 'spec', 'scripts/build-spec.mjs', 'scripts/bundle.mjs', 'tsconfig.json', 'package.json'];
/** What each step of the build writes last or alone; the oldest of them dates the build. */
const OUTPUTS = ['dist/src/index.js', 'dist/src/cli.js', 'dist/openapi.json', 'dist/cli.mjs', 'dist/index.mjs', 'dist/core.cjs'];

/** The newest modification time (ms) of a file or of any file under a folder; 0 when missing. */
function newest(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

/** The oldest modification time (ms) of the build's outputs; 0 when one is missing. */
function builtAt(): number {
  let min = Infinity;
  for (const out of OUTPUTS) {
    const file = path.join(root, out);
    if (!fs.existsSync(file)) return 0;
    min = Math.min(min, fs.statSync(file).mtimeMs);
  }
  return min;
}

/** True when `dist/` is missing or older than one of its sources. */
export function buildIsStale(): boolean {
  const built = builtAt();
  return built === 0 || INPUTS.some((input) => newest(path.join(root, input)) > built);
}

export default function setup(): void {
  if (!buildIsStale()) return;
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const generated = path.join(root, 'src', 'generated', 'openapi.ts');
  if (newest(path.join(root, 'spec')) > newest(generated)) node(path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), path.join(root, 'spec', 'openapi.yaml'), '-o', generated, '--silent');
  node(path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.json'));
  node(path.join(root, 'scripts', 'build-spec.mjs'));
  // bin/emulator.js runs the bundled CLI (dist/cli.mjs): bundled from the dist/ just built.
  node(path.join(root, 'scripts', 'bundle.mjs'));
}
