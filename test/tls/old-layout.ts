/**
 * A TLS folder of the old layout (before issue 27): a self-signed,
 * name-constrained CA in `ca.pem` whose key was kept beside it in
 * `ca-key.pem` (PKCS#8, mode 0600), as src/tls/ca.ts wrote it then. Used to
 * check that such a folder is replaced once, with a notice.
 */
// @peculiar/x509 needs the Reflect metadata API loaded first, as src/tls/ca.ts does.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** Writes `ca.pem` and `ca-key.pem` of the old layout into `dir` (created); resolves with the old `ca.pem` text. */
export async function writeOldLayout(dir: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=resend-emulator local CA 0ld0ld00, O=resend-emulator',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 30 * 86_400_000),
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  fs.mkdirSync(dir, { recursive: true });
  const pem = cert.toString('pem');
  fs.writeFileSync(path.join(dir, 'ca.pem'), pem, { mode: 0o644 });
  fs.writeFileSync(path.join(dir, 'ca-key.pem'), x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'), { mode: 0o600 });
  return pem;
}
