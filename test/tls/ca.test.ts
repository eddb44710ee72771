/**
 * The local CA of `--tls` (src/tls/ca.ts): files and modes, a critical Name
 * Constraints extension with only the emulator's names, reuse, a new CA for
 * a `--public-url` host outside them, for an expiry within a day or for
 * unreadable files, and Node's TLS refusing a certificate
 * the CA signs for any other name.
 */
// @peculiar/x509 (read here too) needs the Reflect metadata API loaded first, as src/tls/ca.ts does.
import 'reflect-metadata';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from '@peculiar/x509';
import { CA_VALIDITY_DAYS, defaultTlsDir, ensureCa, issueServerCertificate, permittedNames, serverNames, type ServerCertificate } from '../../src/tls/ca.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-ca-'));
  dirs.push(dir);
  return path.join(dir, 'tls');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Serves `certificate` on 127.0.0.1 and connects as `servername`, trusting only `caPem`; resolves with the handshake's outcome. */
async function handshake(certificate: ServerCertificate, caPem: string, servername: string): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
  const server = tls.createServer({ cert: certificate.cert, key: certificate.key }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: caPem }, () => {
        socket.end();
        resolve({ ok: true });
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: String(err.code), message: err.message }));
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('local CA', () => {
  it('is created with a critical Name Constraints extension permitting only the served names, key 0600, short validity', async () => {
    const dir = tempDir();
    const notices: string[] = [];
    const ca = await ensureCa(dir, serverNames('http://resend:4400/'), (l) => notices.push(l));
    expect(ca.created).toBe(true);
    expect(ca.certPath).toBe(path.join(dir, 'ca.pem'));
    expect(fs.statSync(path.join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, "ca.pem")).mode & 0o777).toBe(0o644);

    const cert = new X509Certificate(fs.readFileSync(ca.certPath, 'utf8'));
    const nc = cert.getExtension('2.5.29.30');
    expect(nc?.critical).toBe(true);
    expect(permittedNames(cert).sort()).toEqual(['127.0.0.1/32', '::1/128', 'api.resend.com', 'localhost', 'resend'].sort());
    const basic = cert.getExtension('2.5.29.19');
    expect(basic?.critical).toBe(true);
    const days = (cert.notAfter.getTime() - cert.notBefore.getTime()) / 86_400_000;
    expect(days).toBeLessThanOrEqual(CA_VALIDITY_DAYS + 1);

    // One line, naming the certificate, never the key.
    expect(notices).toHaveLength(1);
    const keyPem = fs.readFileSync(path.join(dir, 'ca-key.pem'), 'utf8');
    const keyBody = keyPem.split('\n')[1];
    expect(notices[0]).toContain(ca.certPath);
    expect(notices[0]).not.toContain('PRIVATE KEY');
    expect(notices[0]).not.toContain(keyBody);
  });

  it('is reused while it covers the names; a --public-url host outside them makes a new one, with a notice', async () => {
    const dir = tempDir();
    const first = await ensureCa(dir, serverNames());
    const notices: string[] = [];
    const again = await ensureCa(dir, serverNames('http://localhost:4400'), (l) => notices.push(l));
    expect(again.created).toBe(false);
    expect(again.certPem).toBe(first.certPem);
    expect(notices).toEqual([]);

    const widened = await ensureCa(dir, serverNames('https://mail.internal.test'), (l) => notices.push(l));
    expect(widened.created).toBe(true);
    expect(widened.certPem).not.toBe(first.certPem);
    expect(widened.permitted).toContain('mail.internal.test');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/did not cover mail\.internal\.test/);
  });

  it('signs a certificate for api.resend.com that Node accepts, and one for example.org that Node refuses (name constraints)', async () => {
    const ca = await ensureCa(tempDir(), serverNames());
    const good = await issueServerCertificate(ca, serverNames());
    expect(await handshake(good, ca.certPem, 'api.resend.com')).toEqual({ ok: true });

    const other = await issueServerCertificate(ca, ['example.org']);
    const refused = await handshake(other, ca.certPem, 'example.org');
    expect(refused.ok).toBe(false);
    // OpenSSL's X509_V_ERR_PERMITTED_VIOLATION (Node gives it no code of its own): the chain is refused, not only the host name.
    expect(refused).toMatchObject({ message: 'permitted subtree violation' });
  });

  it('is made once when several processes start on a fresh folder at the same time', async () => {
    const dir = tempDir();
    const notices: string[] = [];
    const all = await Promise.all([1, 2, 3, 4].map(() => ensureCa(dir, serverNames(), (l) => notices.push(l))));
    expect(new Set(all.map((c) => c.certPem)).size).toBe(1);
    expect(all.filter((c) => c.created)).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect(fs.readdirSync(dir).sort()).toEqual(['ca-key.pem', 'ca.pem']);
    // The key on disk signs certificates the certificate on disk verifies.
    const leaf = await issueServerCertificate(await ensureCa(dir, serverNames()), serverNames());
    expect(await handshake(leaf, fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'), 'localhost')).toEqual({ ok: true });
  });

  it('is replaced when it expires within a day (kept until then), with a notice', async () => {
    const dir = tempDir();
    const first = await ensureCa(dir, serverNames());
    const notices: string[] = [];
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const day = 86_400_000;
      // Valid for CA_VALIDITY_DAYS from a minute before it was made: a day and a half left, then half a day.
      vi.setSystemTime(Date.now() + (CA_VALIDITY_DAYS - 1.5) * day);
      const kept = await ensureCa(dir, serverNames(), (l) => notices.push(l));
      expect(kept.created).toBe(false);
      expect(notices).toEqual([]);
      vi.setSystemTime(Date.now() + day);
      const renewed = await ensureCa(dir, serverNames(), (l) => notices.push(l));
      expect(renewed.created).toBe(true);
      expect(renewed.certPem).not.toBe(first.certPem);
      expect(renewed.cert.notAfter.getTime()).toBeGreaterThan(Date.now() + (CA_VALIDITY_DAYS - 1) * day);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/replaced \(the old one expired on /);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is replaced when its files cannot be read (a ca.pem that is no certificate)', async () => {
    const dir = tempDir();
    await ensureCa(dir, serverNames());
    fs.writeFileSync(path.join(dir, 'ca.pem'), 'not a certificate\n');
    const notices: string[] = [];
    const ca = await ensureCa(dir, serverNames(), (l) => notices.push(l));
    expect(ca.created).toBe(true);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/replaced \(the old files could not be read\)/);
    // The new files are a working pair: a certificate it signs verifies against the ca.pem on disk.
    const leaf = await issueServerCertificate(ca, serverNames());
    expect(await handshake(leaf, fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'), 'api.resend.com')).toEqual({ ok: true });
  });

  it('defaults its folder beside a --db file, or in the user cache folder for :memory:', () => {
    expect(defaultTlsDir('/srv/data/state.db')).toBe(path.join('/srv/data', 'resend-emulator-tls'));
    expect(defaultTlsDir(':memory:')).toMatch(/resend-emulator[\\/]tls$/);
    expect(defaultTlsDir(':memory:').startsWith(path.resolve('.'))).toBe(false);
  });
});
