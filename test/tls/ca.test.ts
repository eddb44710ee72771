/**
 * The local CA of `--tls` (src/tls/ca.ts): a root whose key is never
 * written, the intermediate it signed (critical Name Constraints with only
 * the emulator's names, path length 0) whose key is the only one on disk,
 * files and modes, reuse, a new CA for a `--public-url` host outside them,
 * for an expiry within a day, for unreadable or mismatched files, a folder of
 * the old layout replaced once, and Node's TLS refusing a certificate the
 * intermediate signs for any other name (every other stack: https.test.ts).
 */
// @peculiar/x509 (read here too) needs the Reflect metadata API loaded first, as src/tls/ca.ts does.
import 'reflect-metadata';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { BasicConstraintsExtension, X509Certificate } from '@peculiar/x509';
import { CA_VALIDITY_DAYS, defaultTlsDir, ensureCa, issueServerCertificate, permittedNames, serverNames, type ServerCertificate } from '../../src/tls/ca.js';
import { writeOldLayout } from './old-layout.js';

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
  it('is a root whose key is never written and an intermediate with critical Name Constraints permitting only the served names, key 0600, short validity', async () => {
    const dir = tempDir();
    const notices: string[] = [];
    const ca = await ensureCa(dir, serverNames('http://resend:4400/'), (l) => notices.push(l));
    expect(ca.created).toBe(true);
    expect(ca.certPath).toBe(path.join(dir, 'ca.pem'));
    expect(fs.readdirSync(dir).sort()).toEqual(['ca.pem', 'intermediate-key.pem', 'intermediate.pem']);
    expect(fs.statSync(path.join(dir, 'intermediate-key.pem')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'intermediate.pem')).mode & 0o777).toBe(0o644);
    expect(fs.statSync(path.join(dir, 'ca.pem')).mode & 0o777).toBe(0o644);

    const root = new X509Certificate(fs.readFileSync(ca.certPath, 'utf8'));
    const intermediate = new X509Certificate(fs.readFileSync(path.join(dir, 'intermediate.pem'), 'utf8'));
    // The root signed the intermediate; the key on disk is the intermediate's, not the root's.
    expect(await root.verify({ signatureOnly: true })).toBe(true);
    expect(intermediate.issuer).toBe(root.subject);
    expect(await intermediate.verify({ publicKey: root, signatureOnly: true })).toBe(true);
    const spkiOnDisk = createPublicKey(fs.readFileSync(path.join(dir, 'intermediate-key.pem'), 'utf8')).export({ type: 'spki', format: 'der' });
    expect(spkiOnDisk.equals(Buffer.from(intermediate.publicKey.rawData))).toBe(true);
    expect(spkiOnDisk.equals(Buffer.from(root.publicKey.rawData))).toBe(false);

    const names = ['127.0.0.1/32', '::1/128', 'api.resend.com', 'localhost', 'resend'].sort();
    for (const cert of [intermediate, root]) {
      expect(cert.getExtension('2.5.29.30')?.critical).toBe(true);
      expect(permittedNames(cert).sort()).toEqual(names);
      expect(cert.getExtension(BasicConstraintsExtension)).toMatchObject({ critical: true, ca: true });
      const days = (cert.notAfter.getTime() - cert.notBefore.getTime()) / 86_400_000;
      expect(days).toBeLessThanOrEqual(CA_VALIDITY_DAYS + 1);
    }
    expect(intermediate.getExtension(BasicConstraintsExtension)?.pathLength).toBe(0);
    expect(root.getExtension(BasicConstraintsExtension)?.pathLength).toBe(1);
    expect(ca.permitted.sort()).toEqual(names);

    // One line, naming the certificate, never the key.
    expect(notices).toHaveLength(1);
    const keyPem = fs.readFileSync(path.join(dir, 'intermediate-key.pem'), 'utf8');
    const keyBody = keyPem.split('\n')[1];
    expect(notices[0]).toContain(ca.certPath);
    expect(notices[0]).not.toContain('PRIVATE KEY');
    expect(notices[0]).not.toContain(keyBody);

    // A server certificate is sent as a chain: the leaf, then the intermediate.
    const chain = (await issueServerCertificate(ca, serverNames())).cert.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g)!;
    expect(chain.map((pem) => new X509Certificate(pem).subject)).toEqual(['CN=api.resend.com', intermediate.subject]);
  });

  it('replaces a folder of the old layout (a CA whose key was on disk) once, with one notice line, and deletes the old key', async () => {
    const dir = tempDir();
    const oldPem = await writeOldLayout(dir);
    const notices: string[] = [];
    const ca = await ensureCa(dir, serverNames(), (l) => notices.push(l));
    expect(ca.created).toBe(true);
    expect(ca.certPem).not.toBe(oldPem);
    expect(fs.readdirSync(dir).sort()).toEqual(['ca.pem', 'intermediate-key.pem', 'intermediate.pem']);
    expect(notices).toEqual([`TLS: new local CA replaced (the old one kept its key on disk, ca-key.pem; the new one's root key is discarded): ${ca.certPath} (trust it again: docs/https-and-interception.md)`]);
    const again = await ensureCa(dir, serverNames(), (l) => notices.push(l));
    expect(again.created).toBe(false);
    expect(again.certPem).toBe(ca.certPem);
    expect(notices).toHaveLength(1);
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

  it('signs with the intermediate a certificate for api.resend.com that Node accepts, and one for example.org that Node refuses (name constraints)', async () => {
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
    expect(fs.readdirSync(dir).sort()).toEqual(['ca.pem', 'intermediate-key.pem', 'intermediate.pem']);
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

  it('is replaced when its files cannot be read or are not one set (a ca.pem that is no certificate, a missing file, the key of another CA)', async () => {
    const dir = tempDir();
    const spoil: Array<(otherDir: string) => void> = [
      () => fs.writeFileSync(path.join(dir, 'ca.pem'), 'not a certificate\n'),
      () => fs.rmSync(path.join(dir, 'intermediate.pem')),
      (otherDir) => fs.copyFileSync(path.join(otherDir, 'intermediate-key.pem'), path.join(dir, 'intermediate-key.pem')),
      (otherDir) => fs.copyFileSync(path.join(otherDir, 'ca.pem'), path.join(dir, 'ca.pem')),
    ];
    const otherDir = tempDir();
    await ensureCa(otherDir, serverNames());
    for (const change of spoil) {
      await ensureCa(dir, serverNames());
      change(otherDir);
      const notices: string[] = [];
      const ca = await ensureCa(dir, serverNames(), (l) => notices.push(l));
      expect(ca.created).toBe(true);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/replaced \(the old files could not be read\)/);
      // The new files are a working set: a certificate it signs verifies against the ca.pem on disk.
      const leaf = await issueServerCertificate(ca, serverNames());
      expect(await handshake(leaf, fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'), 'api.resend.com')).toEqual({ ok: true });
    }
  });

  it('defaults its folder beside a --db file, or in the user cache folder for :memory:', () => {
    expect(defaultTlsDir('/srv/data/state.db')).toBe(path.join('/srv/data', 'resend-emulator-tls'));
    expect(defaultTlsDir(':memory:')).toMatch(/resend-emulator[\\/]tls$/);
    expect(defaultTlsDir(':memory:').startsWith(path.resolve('.'))).toBe(false);
  });
});
