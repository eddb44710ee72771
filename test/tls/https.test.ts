/**
 * `startServer({ tls: true })` (the CLI's `--tls`): the HTTPS listener's
 * chain verifies in a separate Node process that trusts the CA only through
 * `NODE_EXTRA_CA_CERTS` and reaches it as `api.resend.com` (resolved to
 * 127.0.0.1 by `--import`ed resolve-api-resend.mjs); the SMTP relay offers
 * STARTTLS with the same certificate; the listener has the HTTP one's
 * options (timeouts, requests born with the app's prototypes); close()
 * closes the listener.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { DEFAULT_TIMEOUTS } from '../../src/server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** What the child process prints: the status of GET /domains through fetch and node:https, or the error's code. */
const CHILD = `
import https from 'node:https';
const port = process.env.HTTPS_PORT;
const key = process.env.API_KEY;
const out = {};
try {
  const r = await fetch('https://api.resend.com:' + port + '/domains', { headers: { authorization: 'Bearer ' + key } });
  out.fetch = r.status;
  out.domains = (await r.json()).data.map((d) => d.name);
} catch (err) {
  out.fetch = err.cause?.code ?? err.code ?? String(err);
}
out.https = await new Promise((resolve) => {
  https
    .get('https://api.resend.com:' + port + '/domains', { headers: { authorization: 'Bearer ' + key } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    })
    .on('error', (err) => resolve(err.code ?? String(err)));
});
console.log(JSON.stringify(out));
`;

function runChild(env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', path.join(here, 'resolve-api-resend.mjs'), '--input-type=module', '-e', CHILD],
      { env: { PATH: process.env.PATH ?? '', TMPDIR: os.tmpdir(), ...env }, timeout: 15_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`child failed: ${err.message}\n${stderr}`));
        resolve(JSON.parse(stdout.trim().split('\n').pop()!));
      },
    );
  });
}

describe('HTTPS listener (tls: true)', () => {
  let dir: string;
  let emu: EmulatorServer;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-https-'));
    emu = await startServer({ tls: true, httpsPort: 0, tlsDir: path.join(dir, 'tls'), smtpPort: 0 });
  });
  afterAll(async () => {
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API as api.resend.com with a chain a child process verifies through NODE_EXTRA_CA_CERTS', async () => {
    expect(emu.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.caCertPath).toBe(path.join(dir, 'tls', 'ca.pem'));
    const port = new URL(emu.httpsUrl!).port;
    const trusted = await runChild({ NODE_EXTRA_CA_CERTS: emu.caCertPath!, HTTPS_PORT: port, API_KEY: emu.apiKey });
    expect(trusted).toEqual({ fetch: 200, https: 200, domains: expect.arrayContaining(['example.com']) });
  });

  it("keeps the CA's key out of snapshots", async () => {
    const key = fs.readFileSync(path.join(dir, 'tls', 'ca-key.pem'), 'utf8');
    const keyBody = key.split('\n')[1];
    const snapshot = await (await fetch(`${emu.url}/_emulator/snapshot`)).text();
    expect(snapshot.length).toBeGreaterThan(100);
    expect(snapshot).not.toContain(keyBody);
    expect(snapshot).not.toMatch(/PRIVATE KEY/);
  });

  it('is refused by a process that does not trust the CA (the check above could fail)', async () => {
    const port = new URL(emu.httpsUrl!).port;
    const untrusted = await runChild({ HTTPS_PORT: port, API_KEY: emu.apiKey });
    expect(untrusted.fetch).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED/);
    expect(untrusted.https).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED/);
  });

  it('offers STARTTLS on the SMTP relay with the same certificate (nodemailer, requireTLS, trusting the CA)', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: emu.smtpPort!,
      secure: false,
      requireTLS: true,
      auth: { user: 'resend', pass: emu.apiKey },
      tls: { ca: fs.readFileSync(emu.caCertPath!, 'utf8'), servername: 'localhost' },
    });
    const info = await transport.sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Over STARTTLS', text: 'hi' });
    transport.close();
    expect(String(info.response)).toMatch(/^250 OK: queued as /);
    const got = await emu.waitForEmail({ subject: 'Over STARTTLS' });
    expect(got.to).toEqual(['delivered@resend.dev']);
  });
});

describe('HTTPS listener lifecycle', () => {
  it('is off by default (no HTTPS, no STARTTLS), and closes with the emulator', async () => {
    const plain = await startServer({ smtpPort: 0 });
    expect(plain.httpsUrl).toBeNull();
    expect(plain.caCertPath).toBeNull();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: plain.smtpPort!, secure: false, requireTLS: true, auth: { user: 'resend', pass: plain.apiKey } });
    await expect(transport.sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' })).rejects.toThrow(/STARTTLS/);
    transport.close();
    await plain.close();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-https-'));
    try {
      const emu = await startServer({ tls: true, httpsPort: 0, tlsDir: path.join(dir, 'tls') });
      const ca = fs.readFileSync(emu.caCertPath!, 'utf8');
      const status = (url: string) =>
        new Promise<number | string>((resolve) => {
          https.get(`${url}/_emulator/health`, { ca, servername: 'localhost', agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          }).on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
        });
      const url = emu.httpsUrl!;
      expect(await status(url)).toBe(200);
      await emu.close();
      expect(await status(url)).toBe('ECONNREFUSED');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTPS listener options', () => {
  it("are the HTTP listener's: its timeouts, and requests born with the app's prototypes (express's methods before express runs)", async () => {
    const created = vi.spyOn(https, 'createServer');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-https-'));
    try {
      const emu = await startServer({ tls: true, httpsPort: 0, tlsDir: path.join(dir, 'tls') });
      try {
        expect(created).toHaveBeenCalledTimes(1);
        const server = created.mock.results[0].value as https.Server;
        expect(server.headersTimeout).toBe(DEFAULT_TIMEOUTS.headersMs);
        expect(server.requestTimeout).toBe(DEFAULT_TIMEOUTS.requestMs);
        expect(server.keepAliveTimeout).toBe(DEFAULT_TIMEOUTS.keepAliveMs);
        // Seen ahead of the app: a plain IncomingMessage would have no `get` until express swapped its prototype.
        const seen: string[] = [];
        server.prependListener('request', (req: IncomingMessage) => seen.push(typeof (req as { get?: unknown }).get));
        const ca = fs.readFileSync(emu.caCertPath!, 'utf8');
        const status = await new Promise<number>((resolve, reject) => {
          https.get(`${emu.httpsUrl}/_emulator/health`, { ca, servername: 'localhost', agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          }).on('error', reject);
        });
        expect(status).toBe(200);
        expect(seen).toEqual(['function']);
      } finally {
        await emu.close();
      }
    } finally {
      created.mockRestore();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
