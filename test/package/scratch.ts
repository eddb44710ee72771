/**
 * A scratch project made from the packed tarball, for the tests that use
 * the package as a user's project does (test/examples/examples.test.ts,
 * test/package/types.test.ts; test/package/pack.test.ts does the same
 * inline). One `npm pack --ignore-scripts` (dist/ is fresh: the
 * `processes` project's global setup builds it), the tarball unpacked into
 * `app/node_modules/resend-emulator` (what `npm install <tarball>` does),
 * and every package its `dependencies` name, plus the `devPackages` the
 * caller asks for, linked from this repository's node_modules (which
 * `npm ci` filled from the lockfile): offline, in about a second, and a
 * dependency the tarball forgets to declare fails to resolve (the scratch
 * folder is in the temp folder, outside this tree). The package's `bin`
 * entries are linked in `node_modules/.bin`. `remove()` deletes it all.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The environment of the scratch project's processes: none of this run's vitest variables, nor a Resend or emulator target of the caller's. */
export const scratchEnv: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('VITEST') && !['NODE_OPTIONS', 'TEST', 'EMULATOR_URL', 'RESEND_BASE_URL', 'RESEND_API_KEY', 'EMULATOR_ADMIN_TOKEN', 'EMULATOR_MOUNT_PATH', 'EMULATOR_VALIDATE_RESPONSES'].includes(k)),
  ) as Record<string, string>,
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

/** What a process run in the scratch project gave: its exit code (null when killed), stdout and stderr together, and how long it took (ms of real time). */
export interface RunResult {
  code: number | null;
  out: string;
  ms: number;
}

export interface ScratchProject {
  /** The scratch folder (the tarball, `app/`, a `tmp/` for tools' caches). */
  dir: string;
  /** The project folder (`dir/app`), with its node_modules. */
  app: string;
  /** The temp folder the project's processes get as TMPDIR (Jest's and Playwright's caches), removed with it. */
  tmp: string;
  /** The packed manifest and file list. */
  packed: { name: string; version: string; files: string[]; dependencies: Record<string, string>; bin: Record<string, string> };
  /** Writes `file` (relative to `app`), making its folders. */
  write(file: string, text: string): void;
  /**
   * Runs `cmd args` in `cwd` (default `app`) with `scratchEnv` plus `env`
   * and TMPDIR = `tmp`; killed after `timeoutMs` (default 120 s) of real time.
   */
  run(cmd: string, args: string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<RunResult>;
  /** Deletes the scratch folder. */
  remove(): void;
}

/**
 * Packs the package and makes the scratch project (see the file's doc);
 * `devPackages` are linked beside the dependencies (e.g. `vitest`,
 * `typescript`), `packageJson` is the project's own manifest (its
 * `dependencies` get `resend-emulator: file:<tarball>`). Throws when `npm
 * pack` fails.
 */
export function makeScratchProject(devPackages: string[], packageJson: Record<string, unknown> = {}): ScratchProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-scratch-'));
  const out = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, env: scratchEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  const app = path.join(dir, 'app');
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const pkgDir = path.join(app, 'node_modules', 'resend-emulator');
  fs.mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, info.filename), '-C', pkgDir, '--strip-components=1']);
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const bin: Record<string, string> = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  const link = (name: string) => {
    const from = path.join(app, 'node_modules', name);
    if (fs.existsSync(from)) return;
    fs.mkdirSync(path.dirname(from), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', name)), from, 'dir');
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) link(name);
  for (const name of devPackages) link(name);
  const binDir = path.join(app, 'node_modules', '.bin');
  fs.mkdirSync(binDir, { recursive: true });
  for (const [name, target] of Object.entries(bin)) {
    fs.chmodSync(path.join(pkgDir, target), 0o755);
    fs.symlinkSync(path.join('..', 'resend-emulator', target), path.join(binDir, name));
  }
  const write = (file: string, text: string) => {
    const to = path.join(app, file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, text);
  };
  write('package.json', JSON.stringify({
    name: 'scratch-app', version: '1.0.0', private: true,
    ...packageJson,
    dependencies: { 'resend-emulator': `file:../${info.filename}` },
    devDependencies: Object.fromEntries(devPackages.map((p) => [p, '*'])),
  }, null, 2));
  const run: ScratchProject['run'] = (cmd, args, options = {}) => {
    const started = performance.now();
    const proc = spawn(cmd, args, { cwd: options.cwd ?? app, env: { ...scratchEnv, TMPDIR: tmp, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    proc.stdout.on('data', (b) => (text += b));
    proc.stderr.on('data', (b) => (text += b));
    return new Promise((resolve) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), options.timeoutMs ?? 120_000);
      proc.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out: text, ms: Math.round(performance.now() - started) });
      });
    });
  };
  return {
    dir, app, tmp, write, run,
    packed: { name: manifest.name, version: manifest.version, files: info.files.map((f) => f.path), dependencies: manifest.dependencies ?? {}, bin },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The URL a starting CLI prints in its banner (`listening on URL`, on
 * stdout or stderr). Rejects when `proc` exits first, or after `timeoutMs`
 * of real time; either message holds what it printed.
 */
export function bannerUrl(proc: ChildProcess, timeoutMs: number): Promise<string> {
  let out = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in ${timeoutMs / 1000} s: ${out}`)), timeoutMs);
    const read = (b: Buffer) => {
      out += b;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', read);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}
