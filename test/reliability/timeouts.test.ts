/**
 * Server timeouts (issue 13, "Server timeouts"; src/server.ts
 * `DEFAULT_TIMEOUTS`): a client that dribbles its headers, never finishes
 * its body, idles on a keep-alive connection or says nothing over SMTP is
 * cut off, and meanwhile every other request is served. The limits are
 * shortened here (internal `config.timeouts`) so the test takes about a
 * second; the defaults are checked as configured on the real listeners.
 */
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { defaultConfig, DEFAULT_TIMEOUTS, run, type Running } from '../../src/server.js';

/** A raw connection that records what it received and when it was closed (ms after `opened`). */
function rawConnection(port: number): Promise<{ socket: net.Socket; received: () => string; closed: Promise<number>; opened: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const opened = Date.now();
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - opened)));
    socket.on('data', (b) => (text += b));
    socket.on('error', () => {}); // a reset is a close too
    socket.once('connect', () => resolve({ socket, received: () => text, closed, opened }));
    socket.once('error', reject);
  });
}

describe('server timeouts', () => {
  let emu: Running | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('defaults: headers 10 s checked every 5 s (acts within 15 s), request 5 min, keep-alive 5 s, SMTP socket 60 s', async () => {
    emu = await run(defaultConfig({ clock: 'manual', logLevel: 'error' }), '127.0.0.1', 0, 0);
    const s = emu.server;
    expect(s.headersTimeout).toBe(10_000);
    expect(s.headersTimeout + (s as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBeLessThanOrEqual(20_000);
    expect(s.requestTimeout).toBe(300_000);
    expect(s.keepAliveTimeout).toBe(5_000);
    expect(DEFAULT_TIMEOUTS.smtpSocketMs).toBe(60_000);
  });

  it('a client dribbling its headers, one never finishing its body, and an idle one are closed; the others are served meanwhile', async () => {
    emu = await run(
      defaultConfig({ clock: 'manual', logLevel: 'error', timeouts: { headersMs: 500, requestMs: 900, keepAliveMs: 300, checkIntervalMs: 100, smtpSocketMs: 400 } }),
      '127.0.0.1', 0, 0,
    );
    const port = Number(new URL(emu.url).port);

    // 1. Headers that never end: a line every 100 ms.
    const dribbler = await rawConnection(port);
    dribbler.socket.write('GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => { if (!dribbler.socket.destroyed) dribbler.socket.write('X-Slow: a\r\n'); }, 100);
    // 2. A body announced at 1000 bytes, 10 sent.
    const staller = await rawConnection(port);
    staller.socket.write(`POST /contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emu.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"`);
    // 3. A finished request, then silence on the kept-alive connection.
    const idler = await rawConnection(port);
    idler.socket.write('GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // 4. An SMTP client that never says a word after the greeting.
    const smtp = await rawConnection(emu.smtpPort!);

    try {
      // Everyone else is served while they hang.
      for (let i = 0; i < 5; i++) {
        const [health, domains] = await Promise.all([
          fetch(`${emu.url}/_emulator/health`),
          fetch(`${emu.url}/domains`, { headers: { authorization: `Bearer ${emu.apiKey}` } }),
        ]);
        expect([health.status, domains.status]).toEqual([200, 200]);
        await new Promise((r) => setTimeout(r, 60));
      }
      const [dribbled, stalled, idled, silent] = await Promise.all([dribbler.closed, staller.closed, idler.closed, smtp.closed]);
      expect(dribbled).toBeLessThan(2_000);
      expect(dribbled).toBeGreaterThanOrEqual(400);
      expect(dribbler.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(stalled).toBeLessThan(2_500);
      expect(staller.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(idled).toBeLessThan(2_000);
      expect(idler.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(silent).toBeLessThan(2_000);
      expect(smtp.received()).toMatch(/^220 [\s\S]*\r\n421 /);
    } finally {
      clearInterval(drip);
      for (const c of [dribbler, staller, idler, smtp]) c.socket.destroy();
    }
    // Nothing was created by the half-sent body.
    expect((emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM contacts').get() as { n: number }).n).toBe(
      (emu.fixtures.contacts ?? []).length,
    );
  });
});
