/**
 * `startServer({ tls: true })` (the CLI's `--tls`): the HTTPS listener's
 * chain verifies in a separate Node process that trusts the CA only through
 * `NODE_EXTRA_CA_CERTS` and reaches it as `api.resend.com` (resolved to
 * 127.0.0.1 by `--import`ed resolve-api-resend.mjs); the listener and the
 * SMTP relay's STARTTLS send the intermediate with the leaf; every TLS stack
 * on the machine (Node, OpenSSL, curl, Java: tls-clients.ts) accepts the
 * emulator through `ca.pem` alone and refuses a certificate for another name
 * signed with the only CA key on disk; the listener has the HTTP one's
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
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { webcrypto } from 'node:crypto';
// @peculiar/x509 (read here too) needs the Reflect metadata API loaded first, as src/tls/ca.ts does.
import 'reflect-metadata';
import { PemConverter, X509Certificate } from '@peculiar/x509';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { DEFAULT_TIMEOUTS } from '../../src/server.js';
import { issueServerCertificate, type LocalCa } from '../../src/tls/ca.js';
import { findJdk, onPath, tlsClients, type Target } from './tls-clients.js';

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

  it("keeps the intermediate CA's key out of snapshots", async () => {
    const key = fs.readFileSync(path.join(dir, 'tls', 'intermediate-key.pem'), 'utf8');
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

  it('sends the intermediate with the leaf, on HTTPS and after STARTTLS', async () => {
    const intermediate = new X509Certificate(fs.readFileSync(path.join(dir, 'tls', 'intermediate.pem'), 'utf8'));
    const root = new X509Certificate(fs.readFileSync(emu.caCertPath!, 'utf8'));
    // The client trusts the root alone, so a verified chain proves the server sent the intermediate with the leaf;
    // the verified chain is leaf, intermediate, then the trusted root.
    const sentOverHttps = await new Promise<string[]>((resolve, reject) => {
      // Trusting the emulator's root alone: the chain must verify against it (authorized), then its links are read.
      const socket = tls.connect({ host: '127.0.0.1', port: Number(new URL(emu.httpsUrl!).port), servername: 'api.resend.com', ca: fs.readFileSync(emu.caCertPath!, 'utf8') }, () => {
        if (!socket.authorized) reject(new Error(`chain not verified: ${String(socket.authorizationError)}`));
        const subjects: string[] = [];
        // getPeerCertificate(true) links the certificates the server sent through issuerCertificate (a self-issued one links to itself).
        let c: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
        while (c?.raw) {
          subjects.push(new X509Certificate(c.raw).subject);
          c = c.issuerCertificate === c ? undefined : c.issuerCertificate;
        }
        socket.end();
        resolve(subjects);
      });
      socket.on('error', reject);
    });
    expect(sentOverHttps).toEqual(['CN=api.resend.com', intermediate.subject, root.subject]);
    expect(intermediate.issuer).toBe(root.subject);

    // STARTTLS: a client that trusts the root alone can only verify the leaf if the relay sent the intermediate.
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: emu.smtpPort!,
      secure: false,
      requireTLS: true,
      auth: { user: 'resend', pass: emu.apiKey },
      tls: { ca: root.toString('pem'), servername: 'localhost' },
    });
    await expect(transport.verify()).resolves.toBe(true);
    transport.close();
  });

  it('is accepted through ca.pem alone by every TLS stack on the machine, and a certificate for example.org signed with the only CA key on disk is refused by each', async () => {
    const tlsDir = path.join(dir, 'tls');
    // The only private key in the folder is the intermediate's: the root's was never written.
    const keyFiles = fs.readdirSync(tlsDir).filter((f) => fs.readFileSync(path.join(tlsDir, f), 'utf8').includes('PRIVATE KEY'));
    expect(keyFiles).toEqual(['intermediate-key.pem']);
    const intermediatePem = fs.readFileSync(path.join(tlsDir, 'intermediate.pem'), 'utf8');
    const key = await webcrypto.subtle.importKey('pkcs8', PemConverter.decodeFirst(fs.readFileSync(path.join(tlsDir, 'intermediate-key.pem'), 'utf8')), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    const fromDisk = { intermediate: new X509Certificate(intermediatePem), intermediatePem, key } as LocalCa;
    const forged = await issueServerCertificate(fromDisk, ['example.org']);
    const server = https.createServer({ cert: forged.cert, key: forged.key }, (_req, res) => res.end('not the emulator'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = Number(new URL(emu.httpsUrl!).port);
      const targets: Target[] = [
        { name: 'api.resend.com', port, path: '/_emulator/health' },
        { name: 'localhost', port, path: '/_emulator/health' },
        { name: 'example.org', port: (server.address() as AddressInfo).port, path: '/' },
      ];
      const clients = tlsClients();
      const verdicts = Object.fromEntries(await Promise.all(clients.map(async (c) => [c.stack, await c.get(emu.caCertPath!, targets)] as const)));
      // Which stacks were checked: Node and OpenSSL everywhere; curl and Java wherever they are installed (a JDK found
      // from JAVA_HOME or the real path of javac, as the docs tell users to find it).
      expect(Object.keys(verdicts)).toEqual(['node', 'openssl', ...(onPath('curl') ? ['curl'] : []), ...(findJdk() ? ['java'] : [])]);
      const refusal = {
        node: /^refused: permitted subtree violation$/,
        openssl: /^refused: verify error:num=47:permitted subtree violation$/,
        curl: /^refused: curl: \(60\) SSL certificate problem: permitted subtree violation/,
        java: /^refused: .*CertPathValidatorException.*[Nn]ame constraints/,
      };
      for (const [stack, [viaName, viaLocalhost, other]] of Object.entries(verdicts)) {
        expect({ stack, viaName, viaLocalhost }).toEqual({ stack, viaName: 200, viaLocalhost: 200 });
        expect({ stack, other }).toEqual({ stack, other: expect.stringMatching(refusal[stack as keyof typeof refusal]) });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // A JVM start, keytool and a compile of TlsProbe.java: seconds, more on a busy machine.
  }, 90_000);
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
