/**
 * scripts/prepare.mjs, the `prepare` script, in the case README's local
 * install used to fail on: a directory install (`npm install
 * ../resend-emulator`) of a clone where `npm ci` never ran, so the build
 * tools (devDependencies) are missing. The script runs from a copy of the
 * package folder in the temp folder, without node_modules: with no dist/ it
 * stops with one line saying what to do (exit 1); with a dist/ built before
 * it keeps it (exit 0). The folder is removed afterwards. (With the tools
 * installed it runs `npm run build`: every `npm ci` of this repository, CI
 * included, does that.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A package folder with scripts/prepare.mjs and no node_modules; `built`: with dist/cli.mjs and dist/core.cjs. */
function clone(built: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-prepare-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(root, 'scripts', 'prepare.mjs'), path.join(dir, 'scripts', 'prepare.mjs'));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  if (built) {
    fs.mkdirSync(path.join(dir, 'dist'));
    for (const f of ['cli.mjs', 'core.cjs']) fs.writeFileSync(path.join(dir, 'dist', f), '');
  }
  return dir;
}

const prepare = (dir: string) => spawnSync(process.execPath, [path.join(dir, 'scripts', 'prepare.mjs')], { cwd: dir, encoding: 'utf8' });

describe('prepare without the build tools (a linked clone where npm ci never ran)', () => {
  it('with no dist/: exits 1 with one line saying to run npm ci there first, or to install the npm pack tarball', () => {
    const dir = clone(false);
    const r = prepare(dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`dist/ is not built in ${dir} and its build tools are not installed (openapi-typescript, typescript, esbuild)`);
    expect(r.stderr).toContain('Run `npm ci`');
    expect(r.stderr).toContain('npm pack');
    expect(r.stderr).not.toContain('not found');
    expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
  });

  it('with a dist/ built before: keeps it and exits 0', () => {
    const dir = clone(true);
    const r = prepare(dir);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`keeping the dist/ already built in ${dir}`);
    expect(fs.readdirSync(path.join(dir, 'dist')).sort()).toEqual(['cli.mjs', 'core.cjs']);
  });
});
