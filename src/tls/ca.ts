/**
 * The emulator's local certificate authority and the server certificate it
 * signs, for code that calls `https://api.resend.com` with no setting to
 * change the URL (docs/https-and-interception.md).
 *
 * A user adds this CA to a trust store, so a leaked key must not let anyone
 * impersonate every site to them: the CA carries a critical Name Constraints
 * extension (RFC 5280 §4.2.1.10) whose permitted subtrees are only the names
 * the emulator serves (`api.resend.com`, `localhost`, 127.0.0.1/32, ::1/128
 * and the `--public-url` host), `pathLenConstraint` 0, and a short validity
 * (`CA_VALIDITY_DAYS`). A certificate it signs for any other name is refused
 * by every verifier that implements RFC 5280 (OpenSSL, so Node, Python, Ruby,
 * PHP, curl; Go; Java; .NET), even though the CA is trusted.
 *
 * Files in the TLS folder (`--tls-dir`): `ca.pem` (the CA certificate, the
 * one file a user trusts, mode 0644) and `ca-key.pem` (its PKCS#8 private
 * key, mode 0600, the folder 0755 so another container can read `ca.pem`). The server certificate and its key live in
 * memory only, made afresh at each start. Nothing here logs a key.
 *
 * Certificates are made with `@peculiar/x509` (WebCrypto keys from
 * `node:crypto`); the Name Constraints value is the typed ASN.1 schema of
 * `@peculiar/asn1-x509`, serialised by `@peculiar/asn1-schema`, so no DER is
 * written by hand. Keys are ECDSA P-256 with SHA-256 signatures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API; this module is loaded only when TLS is on.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { AsnConvert } from '@peculiar/asn1-schema';
import { GeneralName, GeneralSubtree, GeneralSubtrees, NameConstraints, id_ce_nameConstraints } from '@peculiar/asn1-x509';
import type { EmulatorConfig } from '../context.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** The names every emulator certificate covers (besides the `--public-url` host). */
export const BASE_NAMES = ['api.resend.com', 'localhost', '127.0.0.1', '::1'] as const;

/** Days a new CA is valid. Short on purpose: a leaked key stops mattering soon. */
export const CA_VALIDITY_DAYS = 90;

/** A CA is replaced when it has less than this left (ms): one day. */
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000;

/** File name of the CA certificate in the TLS folder. */
export const CA_CERT_FILE = 'ca.pem';
/** File name of the CA private key in the TLS folder (mode 0600). */
export const CA_KEY_FILE = 'ca-key.pem';

const ALG = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A loaded CA: its certificate (PEM and parsed), its private key, where it lives. */
export interface LocalCa {
  /** The CA certificate, PEM. */
  certPem: string;
  /** Path of `ca.pem` (what a user trusts). */
  certPath: string;
  cert: x509.X509Certificate;
  /** The CA's private key (never written anywhere but `ca-key.pem`). */
  key: CryptoKey;
  /** The names its Name Constraints permit (DNS names, and IPs as `addr/prefix`). */
  permitted: string[];
  /** True when this call created it (first use, expiry, or a name it did not cover). */
  created: boolean;
}

/** A server certificate and its key, PEM, for `https.createServer` / smtp-server. */
export interface ServerCertificate {
  cert: string;
  key: string;
}

/**
 * The default TLS folder: `resend-emulator-tls` beside a `--db` file, or for
 * an in-memory store the user's cache folder (`$XDG_CACHE_HOME` or
 * `~/.cache`; `~/Library/Caches` on macOS; `%LOCALAPPDATA%` on Windows) +
 * `/resend-emulator/tls`. Never inside the package.
 */
export function defaultTlsDir(db: string): string {
  if (db !== ':memory:') return path.join(path.dirname(path.resolve(db)), 'resend-emulator-tls');
  const home = os.homedir();
  const cache =
    process.env.XDG_CACHE_HOME ||
    (process.platform === 'darwin'
      ? path.join(home, 'Library', 'Caches')
      : process.platform === 'win32'
        ? process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
        : path.join(home, '.cache'));
  return path.join(cache, 'resend-emulator', 'tls');
}

/**
 * The names a certificate must cover: `BASE_NAMES` plus the host of
 * `publicUrl` (when given and readable as a URL), lower-cased, IPv6 without
 * brackets, no duplicates.
 */
export function serverNames(publicUrl?: string): string[] {
  const names: string[] = [...BASE_NAMES];
  if (publicUrl) {
    try {
      const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
      if (host && !names.includes(host)) names.push(host);
    } catch {
      // An unreadable --public-url is the HTTP side's concern; the certificate keeps the base names.
    }
  }
  return names;
}

/** A name as a Name Constraints subtree: DNS names as they are, IPs as `addr/32` or `addr/128`. */
function subtreeOf(name: string): string {
  const v = net.isIP(name);
  return v === 4 ? `${name}/32` : v === 6 ? `${canonicalIp6(name)}/128` : name.toLowerCase();
}

function canonicalIp6(ip: string): string {
  return new URL(`http://[${ip}]/`).hostname.replace(/^\[|\]$/g, '');
}

/** The permitted subtrees of a certificate's Name Constraints, as `subtreeOf` writes them; [] without the extension. */
export function permittedNames(cert: x509.X509Certificate): string[] {
  const ext = cert.getExtension(id_ce_nameConstraints);
  if (!ext) return [];
  const nc = AsnConvert.parse(ext.value, NameConstraints);
  return Array.from(nc.permittedSubtrees ?? [], (s) => {
    if (s.base.dNSName !== undefined) return s.base.dNSName.toLowerCase();
    if (s.base.iPAddress !== undefined) {
      const [addr, prefix] = s.base.iPAddress.split('/');
      return net.isIP(addr) === 6 ? `${canonicalIp6(addr)}/${prefix}` : `${addr}/${prefix}`;
    }
    return '';
  });
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] &= 0x7f; // a positive INTEGER
  return Buffer.from(bytes).toString('hex');
}

/** A new CA for `names`: its certificate (parsed and PEM) and private key (the CryptoKey and its PKCS#8 PEM). */
async function createCa(names: string[], nowMs: number): Promise<{ cert: x509.X509Certificate; certPem: string; key: CryptoKey; keyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const constraints = new NameConstraints({
    permittedSubtrees: new GeneralSubtrees(
      names.map((n) => {
        const s = subtreeOf(n);
        return new GeneralSubtree({ base: new GeneralName(s.includes('/') ? { iPAddress: s } : { dNSName: s }) });
      }),
    ),
  });
  const id = Buffer.from(webcrypto.getRandomValues(new Uint8Array(4))).toString('hex');
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=resend-emulator local CA ${id}, O=resend-emulator`,
    notBefore: new Date(nowMs - 60_000),
    notAfter: new Date(nowMs + CA_VALIDITY_DAYS * 24 * 60 * 60 * 1000),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(constraints)),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert, certPem: cert.toString('pem'), key: keys.privateKey, keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** Writes a file atomically (temp file + rename) with `mode`. */
function writeFileAtomic(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}

/** The CA in `dir` if it is there, readable, not about to expire and permits every `wanted` subtree; else why not. */
async function loadCa(dir: string, wanted: string[], nowMs: number): Promise<LocalCa | { reason: string }> {
  const certPath = path.join(dir, CA_CERT_FILE);
  const keyPath = path.join(dir, CA_KEY_FILE);
  if (!fs.existsSync(certPath) || !fs.existsSync(keyPath)) return { reason: 'created' };
  try {
    const certPem = fs.readFileSync(certPath, 'utf8');
    const cert = new x509.X509Certificate(certPem);
    const permitted = permittedNames(cert);
    const missing = wanted.filter((n) => !permitted.includes(n));
    if (cert.notAfter.getTime() - nowMs < RENEW_BEFORE_MS) return { reason: `replaced (the old one expired on ${cert.notAfter.toISOString()})` };
    if (missing.length) return { reason: `replaced (the old one did not cover ${missing.join(', ')})` };
    const der = x509.PemConverter.decodeFirst(fs.readFileSync(keyPath, 'utf8'));
    const key = await webcrypto.subtle.importKey('pkcs8', der, ALG, false, ['sign']);
    return { certPem, certPath, cert, key, permitted, created: false };
  } catch {
    return { reason: 'replaced (the old files could not be read)' };
  }
}

/** Lock of the TLS folder while a CA is made: a lock older than this (ms) was left by a crash and is taken over. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs `fn` holding `dir/ca.lock` (created exclusively), so two emulators
 * starting at once on a fresh folder (parallel test workers) make one CA, not
 * a key of one and a certificate of the other.
 */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, 'ca.lock');
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > LOCK_STALE_MS) fs.rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * Loads the CA from `dir`, or creates it there (key 0600) when it is
 * missing, unreadable, expires within a day, or its Name Constraints do not
 * permit every name of `names` (e.g. a new `--public-url` host). `notice`
 * gets one line when a CA is created (never a key). Safe for several
 * processes at once (a lock file while creating). Throws when `dir` cannot
 * be created or written.
 */
export async function ensureCa(dir: string, names: string[], notice: (line: string) => void = () => {}): Promise<LocalCa> {
  const wanted = names.map(subtreeOf);
  const found = await loadCa(dir, wanted, Date.now());
  if ('cert' in found) return found;
  // 0755: ca.pem is meant to be read by others (another container mounting the folder); the key file alone is 0600.
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  return withLock(dir, async () => {
    const nowMs = Date.now();
    // Another process may have made it while this one waited for the lock.
    const again = await loadCa(dir, wanted, nowMs);
    if ('cert' in again) return again;
    const certPath = path.join(dir, CA_CERT_FILE);
    const made = await createCa([...new Set(names)], nowMs);
    writeFileAtomic(path.join(dir, CA_KEY_FILE), made.keyPem, 0o600);
    writeFileAtomic(certPath, made.certPem, 0o644);
    const trustAgain = again.reason === 'created' ? '' : ' again';
    notice(`TLS: new local CA ${again.reason}: ${certPath} (trust it${trustAgain}: docs/https-and-interception.md)`);
    return { certPem: made.certPem, certPath, cert: made.cert, key: made.key, permitted: permittedNames(made.cert), created: true };
  });
}

/**
 * `ensureCa` as `--tls` and `emulator ca` configure it: in `tlsDir`
 * (default `defaultTlsDir(db)`), for the names of `serverNames(publicUrl)`.
 * Throws as `ensureCa` does.
 */
export function ensureConfiguredCa(config: Pick<EmulatorConfig, 'tlsDir' | 'db' | 'publicUrl'>, notice?: (line: string) => void): Promise<LocalCa> {
  return ensureCa(config.tlsDir ?? defaultTlsDir(config.db), serverNames(config.publicUrl), notice);
}

/**
 * Signs a server certificate for `names` (DNS names and IP addresses; the
 * first is the subject CN) with `ca`, valid from a minute ago to the CA's
 * own end. It does not check `names` against the CA's constraints: a
 * certificate for another name is made, and verifiers refuse it (the test
 * of the constraints relies on that). Returns the certificate chain's leaf
 * and its new private key, PEM, both in memory only.
 */
export async function issueServerCertificate(ca: LocalCa, names: string[]): Promise<ServerCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const nowMs = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${names[0]}`,
    issuer: ca.cert.subject,
    notBefore: new Date(nowMs - 60_000),
    notAfter: ca.cert.notAfter,
    signingKey: ca.key,
    publicKey: keys.publicKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((n) => (net.isIP(n) ? { type: 'ip' as const, value: n } : { type: 'dns' as const, value: n }))),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: cert.toString('pem'), key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}
