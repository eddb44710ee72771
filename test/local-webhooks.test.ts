/**
 * The guard of test/local-webhooks.ts (the in-process projects' setup file):
 * a webhook delivery to a host that is not loopback is refused before any
 * lookup and noted (a test that made one fails in `afterEach`; this one
 * takes the note itself), one to loopback goes through, and only the
 * emulator's deliveries are judged.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from './helpers.js';
import { isLoopbackHost, takeRefusedDeliveries } from './local-webhooks.js';
import { startReceiver } from './deliveries/receiver.js';

describe('test/local-webhooks.ts', () => {
  const t = useFreshEmulatorPerTest();

  async function sendOne() {
    await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Hi', text: 'x' }).expect(200);
    await t.emu.clock.advance('1s');
  }

  it('refuses a delivery to a host on the internet before any lookup, and names its endpoint (self-test on a deliberately wrong case)', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.net/in', events: ['email.sent'] }).expect(201);
    await sendOne();
    expect(t.emu.webhookDeliveries()[0].attempts[0].error).toMatch(/^ETESTNOTLOCAL: a test delivered a webhook to hooks\.example\.net/);
    expect(takeRefusedDeliveries()).toEqual(['https://hooks.example.net/in']);
  });

  it('lets a delivery to a receiver on 127.0.0.1 through', async () => {
    const rx = await startReceiver();
    try {
      await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['email.sent'] }).expect(201);
      await sendOne();
      expect(rx.requests).toHaveLength(1);
      expect(t.emu.webhookDeliveries()[0].status).toBe('succeeded');
    } finally {
      await rx.close();
    }
  });

  it.each([
    ['localhost', true], ['app.localhost', true], ['127.0.0.1', true], ['127.1.2.3', true], ['[::1]', true],
    ['hooks.example.net', false], ['example.test', false], ['10.0.0.1', false], ['128.0.0.1', false], ['127.0.0.1.nip.io', false],
  ])('isLoopbackHost(%s) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
