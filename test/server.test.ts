/**
 * The configuration and the run-time state of an emulator (src/server.ts,
 * `RuntimeState` in src/context.ts): `ctx.config` is a frozen copy of what
 * it was started with; what changes while it runs (the base of handed-out
 * URLs, whether it listens) is `ctx.runtime`, written only where its rule
 * says.
 */
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startServer, type EmulatorInstance } from '../src/index.js';
import { defaultConfig, prepare } from '../src/server.js';
import { contextOf } from '../src/internals.js';

let open: EmulatorInstance[] = [];
afterEach(async () => {
  for (const o of open.reverse()) await o.close();
  open = [];
});

describe('ctx.config', () => {
  it('is frozen, with its timeouts, and writing it throws', async () => {
    const emu = await startServer();
    open.push(emu);
    const { config } = contextOf(emu);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.timeouts)).toBe(true);
    expect(() => {
      (config as { rateLimit: number }).rateLimit = 5;
    }).toThrow(TypeError);
    expect(() => {
      (config.timeouts as { headersMs: number }).headersMs = 1;
    }).toThrow(TypeError);
    expect(config.rateLimit).toBe(0);
    // The bound address is configuration, given before it starts.
    expect(config.bindHost).toBe('127.0.0.1');
  });

  it('is a copy: the caller changing its options object later changes nothing', async () => {
    const options = defaultConfig({ clock: 'manual', logLevel: 'error' });
    const prepared = await prepare(options);
    try {
      options.rateLimit = 7;
      expect(prepared.ctx.config.rateLimit).toBe(0);
      expect(prepared.ctx.config).not.toBe(options);
    } finally {
      await prepared.close();
    }
  });
});

describe('ctx.runtime', () => {
  it('a listening emulator: the base of handed-out URLs is its URL while it listens', async () => {
    const emu = await startServer({ mountPath: '/resend' });
    open.push(emu);
    expect(contextOf(emu).runtime).toEqual({ baseUrl: emu.url, listening: true });
    expect(emu.url).toMatch(/\/resend$/);
    expect('baseUrl' in contextOf(emu).config).toBe(false);
    await emu.close();
    expect(contextOf(emu).runtime.listening).toBe(false);
  });

  it('publicUrl: the base from the start, whatever the requests', async () => {
    const emu = await createApp({ publicUrl: 'http://resend:4400/' });
    open.push(emu);
    expect(contextOf(emu).runtime).toEqual({ baseUrl: 'http://resend:4400', listening: false });
    await request(emu.app).get('/domains').set('Host', 'elsewhere:1').set('Authorization', `Bearer ${emu.apiKey}`).expect(200);
    expect(emu.baseUrl()).toBe('http://resend:4400');
  });

  it('an app with no listener: the base follows the latest authenticated request, a refused one changes nothing', async () => {
    const emu = await createApp();
    open.push(emu);
    expect(contextOf(emu).runtime).toEqual({ baseUrl: '', listening: false });
    await request(emu.app).get('/domains').set('Host', 'first.test:1').set('Authorization', `Bearer ${emu.apiKey}`).expect(200);
    expect(emu.baseUrl()).toBe('http://first.test:1');
    await request(emu.app).get('/domains').set('Host', 'intruder.test:2').expect(401);
    expect(emu.baseUrl()).toBe('http://first.test:1');
  });
});
