/**
 * The public instance has named methods only (issue 38 item 5): no `ctx`;
 * this repository's tests reach the internals by the instance through
 * src/internals.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startServer, type EmulatorInstance } from '../src/index.js';
import { busOf, contextOf, schedulerOf, storeOf } from '../src/internals.js';

let open: EmulatorInstance[] = [];
afterEach(async () => {
  for (const o of open) await o.close();
  open = [];
});

describe('the public instance', () => {
  it.each([
    ['startServer()', () => startServer()],
    ['createApp()', () => createApp()],
  ])('%s has no ctx member', async (_, make) => {
    const emu = await make();
    open.push(emu);
    expect('ctx' in emu).toBe(false);
  });

  it('the internals of an instance are those of that emulator, by instance', async () => {
    const a = await createApp();
    const b = await createApp();
    open.push(a, b);
    storeOf(a).prepare(`UPDATE teams SET name = 'only a'`).run();
    expect(storeOf(b).prepare('SELECT name FROM teams').pluck().all()).not.toContain('only a');
    expect(busOf(a)).toBe(contextOf(a).bus);
    expect(schedulerOf(a)).toBe(contextOf(a).scheduler);
    expect(contextOf(a)).not.toBe(contextOf(b));
  });

  it('contextOf refuses anything not made by startServer() or createApp() in this process', async () => {
    const emu = await createApp();
    open.push(emu);
    expect(() => contextOf({ ...emu })).toThrow(TypeError);
  });
});
