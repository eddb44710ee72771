/**
 * A closed emulator leaves nothing reachable (issue 36 item 1), checked
 * without any forced collection: a shortened run of bench/cycles.js (300
 * `startServer()` + `close()` cycles with no request, in a process started
 * without --expose-gc, beside a bare `node:http` server doing the same),
 * whose JS heap must grow at most 50 MB beyond the bare server's. Cycles
 * with no request never return to the event loop, so node keeps every
 * closed server until the end: before the fix each kept its whole emulator
 * (~0.28 MB a cycle, +96 MB over 350 cycles against +1.3 MB for the bare
 * server), after it a bare server's ~2 KB. The full figures (10,000 cycles,
 * RSS too, `createApp()` in a user's server) are `node bench/cycles.js`'s.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { root } from './process.js';

describe('memory over start and close, without forced collections', () => {
  it('300 startServer() + close() cycles grow the heap at most 50 MB beyond a bare node:http server doing the same', async () => {
    const proc = spawn(process.execPath, ['bench/cycles.js', '--unforced-only', '--unforced-cycles', '300', '--unforced-run', 'startServer', '--unforced-check', 'heap'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    proc.stdout.on('data', (b) => (stdout += b));
    proc.stderr.on('data', (b) => (stdout += b));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
    expect({ code, report: code === 0 ? '' : stdout.slice(-3000) }).toEqual({ code: 0, report: '' });
  }, 120_000);
});
