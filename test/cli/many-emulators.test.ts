/**
 * Many emulators in one process (issue 30 item 3), in a child process of
 * the Node running the suite (CI also runs this folder on Node 24, with
 * better-sqlite3 built for it): hundreds of `startServer()` and
 * `createApp()` cycles, each used as a test would, then collections both
 * forced and left to V8, and the process must still be alive. On Node >=
 * 24.19 better-sqlite3 12 aborts the process ("Assertion failed: (env) !=
 * nullptr" in `RemoveEnvironmentCleanupHook`) when V8 finalises one of its
 * wrappers by itself; src/store/db.ts keeps them for a collection of its own,
 * which changes no runtime flag of the process (issue 36 item 2): without
 * `--expose-gc` it collects through `v8.queryObjects`, and Node prints one
 * ExperimentalWarning for it (the only stderr allowed).
 * The memory these cycles leave is measured by bench/cycles.js.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { root } from './process.js';

/** The child: cycles, a forced `gc()`, garbage so V8 collects by itself, then `alive` and the heap growth. */
const SCRIPT = `
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
const { startServer, createApp } = await import(${JSON.stringify(`${root}/dist/index.mjs`)});
const call = (url, method, headers, body) => new Promise((resolve, reject) => {
  const req = http.request(url, { method, headers, agent: false }, (res) => { let t = ''; res.on('data', (c) => (t += c)); res.on('end', () => resolve(JSON.parse(t))); });
  req.on('error', reject);
  req.end(body);
});
const email = JSON.stringify({ from: 'a@example.com', to: ['delivered@resend.dev'], subject: 's', text: 'x' });
for (let i = 0; i < 150; i++) {
  const emu = await startServer({ logLevel: 'error' });
  const headers = { authorization: 'Bearer ' + emu.apiKey, 'content-type': 'application/json' };
  const sent = await call(emu.url + '/emails', 'POST', headers, email);
  await call(emu.url + '/emails/' + sent.id, 'GET', headers);
  await emu.close();
  const app = await createApp({ logLevel: 'error' });
  app.emails();
  await app.close();
}
v8.setFlagsFromString('--expose-gc');
vm.runInNewContext('gc')();
// Garbage in and out of JS, so V8 runs collections of its own, then idle time for its scheduled ones.
for (let i = 0; i < 50; i++) { const junk = []; for (let j = 0; j < 20000; j++) junk.push({ j, s: 'x'.repeat(j % 50) }); await new Promise((r) => setImmediate(r)); }
await new Promise((r) => setTimeout(r, 300));
console.log('alive');
`;

describe('many emulators in one process', () => {
  it(`stays alive over 150 startServer() and 150 createApp() cycles and the collections after them (Node ${process.versions.node})`, async () => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (b) => (stdout += b));
    proc.stderr.on('data', (b) => (stderr += b));
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (c, s) => resolve({ code: c, signal: s })));
    // Node's own notice of the collection through v8.queryObjects (Node >= 24.19), once: nothing else.
    const others = stderr.replace(/^\(node:\d+\) ExperimentalWarning: v8\.queryObjects\(\) is an experimental feature.*\n(\(Use `node --trace-warnings.*\n)?/m, '');
    expect({ code, signal, stderr: others.slice(0, 2000) }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(stdout.trim()).toBe('alive');
  }, 180_000);
  it('changes no runtime flag of its process: V8 flags are as the process started', async () => {
    // The store module and a cycle past the collection batch (65 closes), then a new context: gc() only if the flag changed.
    const script = `
      import vm from 'node:vm';
      const { createApp } = await import(${JSON.stringify(`${root}/dist/index.mjs`)});
      for (let i = 0; i < 65; i++) await (await createApp({ logLevel: 'error' })).close();
      console.log(vm.runInNewContext('typeof gc'));
    `;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    proc.stdout.on('data', (b) => (stdout += b));
    await new Promise((resolve) => proc.on('exit', resolve));
    expect(stdout.trim()).toBe('undefined');
  }, 120_000);
});
