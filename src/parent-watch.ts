/**
 * Stopping with the process that started us (a killed npx must not leave the emulator holding its port): `npx
 * emulator start` runs as npx -> `sh -c emulator ...` -> node. A SIGTERM to
 * npx kills the `sh -c` wrapper and leaves node running (npm forwards the
 * signal to the shell, which does not pass it on); a SIGKILL to npx leaves
 * both. Signals are not the whole answer, so the CLI watches its parent:
 *
 * - when the process that started it goes away, it is re-parented (to PID 1,
 *   or the nearest subreaper on Linux), so `process.ppid` changes: that is
 *   the sign, the same on Linux and macOS;
 * - when that parent is a `sh -c` wrapper (npm, npx, yarn and pnpm start
 *   binaries through one), the wrapper's own parent is watched the same way
 *   (Linux: /proc/<pid>/stat; elsewhere: `ps -o ppid=`; where neither
 *   answers, e.g. an image without `ps`, only the direct parent is watched).
 *
 * Nothing is watched when the process starts with no parent to lose: PID 1
 * in a container (`docker run` with the emulator as its command, ppid 0) or
 * a process already owned by init (ppid 1). A start that is meant to outlive
 * its shell (`emulator start &` in a script that then exits) turns the watch
 * off with `--no-exit-with-parent` (docs/cli.md).
 */
import fs from 'node:fs';
import path from 'node:path';

/** How often the parent is checked, ms (wall clock: it is the OS's process table, not the emulated clock). */
export const PARENT_POLL_MS = 1000;

/** The parent pid of `pid` (null once it is gone or cannot be read). Linux reads /proc; elsewhere `ps`. */
function parentOf(pid: number): Promise<number | null> {
  if (process.platform === 'linux') {
    try {
      // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Promise.resolve(Number.isInteger(ppid) ? ppid : null);
    } catch {
      return Promise.resolve(null);
    }
  }
  return new Promise((resolve) => {
    // node:child_process is loaded only where there is no /proc (it costs every start ~1.5 ms of module loading).
    process.getBuiltinModule('node:child_process').execFile('ps', ['-o', 'ppid=', '-p', String(pid)], { timeout: 2000 }, (err, out) => {
      const ppid = Number(out?.trim());
      resolve(err || !out?.trim() || !Number.isInteger(ppid) ? null : ppid);
    });
  });
}

/** The command line of `pid` as its words (empty when it cannot be read). */
function commandOf(pid: number): Promise<string[]> {
  if (process.platform === 'linux') {
    try {
      return Promise.resolve(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      return Promise.resolve([]);
    }
  }
  return new Promise((resolve) => {
    process.getBuiltinModule('node:child_process').execFile('ps', ['-o', 'command=', '-p', String(pid)], { timeout: 2000 }, (err, out) => resolve(err ? [] : (out ?? '').trim().split(/\s+/)));
  });
}

/** True for a `sh -c ...` (or bash, dash, zsh) command line: a wrapper that starts one command and waits for it. */
function isShellWrapper(argv: string[]): boolean {
  return argv.length >= 2 && /^-?(sh|dash|bash|zsh|ash)$/.test(path.basename(argv[0])) && argv[1] === '-c';
}

/**
 * Calls `onGone` once when the process that started this one exits (see the
 * module comment for what is watched). The timer is unref'd: it never keeps
 * the process alive. Returns a function that stops watching.
 */
export function watchParent(onGone: (why: string) => void, pollMs = PARENT_POLL_MS): () => void {
  const parent = process.ppid;
  // PID 1 in a container (ppid 0), or already adopted by init: no parent to lose.
  if (parent <= 1) return () => {};
  let grandparent: number | null = null;
  let stopped = false;
  let busy = false;
  void commandOf(parent).then(async (argv) => {
    if (isShellWrapper(argv)) grandparent = await parentOf(parent);
    if (grandparent !== null && grandparent <= 1) grandparent = null;
  });
  const timer = setInterval(() => {
    if (stopped || busy) return;
    if (process.ppid !== parent) {
      stop();
      onGone(`parent process ${parent} exited`);
      return;
    }
    if (grandparent === null) return;
    busy = true;
    const watched = grandparent;
    void parentOf(parent).then((now) => {
      busy = false;
      // null: the wrapper itself is gone or unreadable; the direct check above covers it next time.
      if (stopped || now === null || now === watched) return;
      stop();
      onGone(`parent process ${watched} exited`);
    });
  }, pollMs);
  timer.unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
