/**
 * The CLI stops when the process that started it goes away
 * (src/parent-watch.ts): a wrapper process starts `emulator start` the way
 * npx does (directly, or through a `sh -c` wrapper as npm runs binaries), is
 * killed with SIGKILL (so it can forward nothing), and the emulator's port
 * must close and its process end. The emulator's pid comes from the wrapper's
 * first line, so a failing test still kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, FREE_SMTP } from './process.js';

/** The wrapper: starts the CLI with the output shared, prints `pid <n>`, then waits for it. */
const WRAPPER = `
const { spawn } = require('node:child_process');
const [mode, node, bin] = process.argv.slice(1);
const cmd = mode === 'shell' ? ['sh', ['-c', '"$0" "$1" start --port 0 --log-level info', node, bin]] : [node, [bin, 'start', '--port', '0', '--log-level', 'info']];
const child = spawn(cmd[0], cmd[1], { stdio: ['ignore', 'inherit', 'inherit'] });
child.on('spawn', () => process.stdout.write('pid ' + child.pid + '\\n'));
`;

interface Wrapped { wrapper: ChildProcess; url: string; pid: number; out: () => string }

/** Starts the wrapper (`mode`: the CLI as its child, or under `sh -c`) and resolves once the CLI printed its banner. */
function startWrapped(mode: 'direct' | 'shell'): Promise<Wrapped> {
  const wrapper = spawn(process.execPath, ['-e', WRAPPER, mode, process.execPath, bin], { env: { ...process.env, ...FREE_SMTP }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 10 s: ${out}`)), 10_000);
    const read = (b: Buffer) => {
      out += b;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const pid = Number(/^pid (\d+)$/m.exec(out)?.[1]);
      if (url && pid) {
        clearTimeout(timer);
        resolve({ wrapper, url, pid, out: () => out });
      }
    };
    wrapper.stdout!.on('data', read);
    wrapper.stderr!.on('data', read);
  });
}

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once `check` is true, polling every 100 ms for up to `ms` of wall-clock time (the OS process table has no emulated clock). */
async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

const closed = (url: string) => () => fetch(`${url}/_emulator/health`).then(() => false, () => true);

describe('emulator start stops with the process that started it', () => {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  for (const mode of ['direct', 'shell'] as const) {
    it(`a wrapper that started it ${mode === 'shell' ? 'through sh -c (as npx does)' : 'as its child'} is killed with SIGKILL: the port closes and the process ends cleanly`, async () => {
      const w = await startWrapped(mode);
      pids.push(w.pid);
      expect((await fetch(`${w.url}/_emulator/health`)).status).toBe(200);
      const gone = new Promise((r) => w.wrapper.once('exit', r));
      w.wrapper.kill('SIGKILL');
      await gone;
      expect(await eventually(closed(w.url))).toBe(true);
      expect(await eventually(() => !alive(w.pid))).toBe(true);
      // A clean close, as on SIGTERM: the log says why.
      expect(w.out()).toMatch(/parent process \d+ exited, closing/);
    }, 30_000);
  }
});
