/**
 * The emulator's local certificate authority and the server certificates it
 * signs, for code that calls `https://api.resend.com` with no setting to
 * change the URL (docs/https-and-interception.md).
 *
 * A user adds the root (`ca.pem`) to a trust store, so no key that could sign
 * for another site may be kept: the root's key is made unexportable, signs
 * one intermediate CA at creation, and is then dropped (never written). The
 * intermediate carries a critical Name Constraints extension 
 * (RFC 5280 §4.2.1.10) whose permitted subtrees are only the names the emulator serves
 * (`api.resend.com`, `localhost`, 127.0.0.1/32, ::1/128 and the `--public-url`
 * host), `pathLenConstraint` 0, and the root's short validity
 * (`CA_VALIDITY_DAYS`); its key (mode 0600) is the only CA key on disk and
 * signs the server certificates. Every verifier applies an intermediate's
 * Name Constraints, Java included; the JDK ignores them on a trusted root
 * (a `TrustAnchor` made from a certificate has no constraints; OpenJDK 17 and
 * 25 checked), which is why they cannot sit on the root alone. The root
 * carries the same constraints too, for the stacks that do apply them there
 * (OpenSSL, so Node, Python, Ruby, PHP, curl; Go).
 *
 * Files in the TLS folder (`--tls-dir`, 0755 so another container can read
 * `ca.pem`): `ca.pem` (the root, the one file a user trusts, 0644),
 * `intermediate.pem` (0644) and `intermediate-key.pem` (its PKCS#8 key,
 * 0600). A folder of the old layout (a CA whose key, `ca-key.pem`, was kept)
 * is replaced once, with a notice. The server certificate and its key live
 * in memory only, made afresh at each start, and are served with the
 * intermediate (the chain: `ServerCertificate.cert`). Nothing here logs a key.
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
import { createPublicKey, webcrypto } from 'node:crypto';
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

/** File name of the root CA certificate in the TLS folder: what a user trusts (its key is never kept). */
export const CA_CERT_FILE = 'ca.pem';
/** File name of the intermediate CA certificate (the one with the Name Constraints that every stack applies). */
export const INTERMEDIATE_CERT_FILE = 'intermediate.pem';
/** File name of the intermediate CA's private key (mode 0600): the only CA key on disk. */
export const INTERMEDIATE_KEY_FILE = 'intermediate-key.pem';
/** File name of the CA key in a folder of the old layout (a root whose key was kept): its presence makes the folder be replaced. */
export const OLD_CA_KEY_FILE = 'ca-key.pem';

const ALG = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A loaded CA: the root users trust, the intermediate whose key signs, where they live. */
export interface LocalCa {
  /** The root CA certificate, PEM (what a user trusts; no key of it exists any more). */
  certPem: string;
  /** Path of `ca.pem` (the root). */
  certPath: string;
  /** The root, parsed. */
  cert: x509.X509Certificate;
  /** The intermediate CA certificate, PEM (sent with every server certificate). */
  intermediatePem: string;
  /** The intermediate, parsed. */
  intermediate: x509.X509Certificate;
  /** The intermediate's private key (never written anywhere but `intermediate-key.pem`). */
  key: CryptoKey;
  /** The names the intermediate's Name Constraints permit (DNS names, and IPs as `addr/prefix`). */
  permitted: string[];
  /** True when this call created it (first use, expiry, a name it did not cover, the old layout). */
  created: boolean;
}

/** A server certificate and its key, PEM, for `https.createServer` / smtp-server. */
export interface ServerCertificate {
  /** The chain a server sends: the leaf, then the intermediate CA (PEM blocks one after the other). */
  cert: string;
  /** The leaf's private key, PKCS#8 PEM. */
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

/** The critical Name Constraints extension permitting only `names` (as `subtreeOf` writes them). */
function nameConstraints(names: string[]): x509.Extension {
  const constraints = new NameConstraints({
    permittedSubtrees: new GeneralSubtrees(
      names.map((n) => {
        const s = subtreeOf(n);
        return new GeneralSubtree({ base: new GeneralName(s.includes('/') ? { iPAddress: s } : { dNSName: s }) });
      }),
    ),
  });
  return new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(constraints));
}

/**
 * A new CA for `names`: a root whose private key cannot be exported and is
 * dropped when this returns, and the intermediate it signs (Name Constraints,
 * path length 0, the root's validity). Returns the root certificate and the
 * intermediate's certificate and key (the CryptoKey and its PKCS#8 PEM).
 */
async function createCa(
  names: string[],
  nowMs: number,
): Promise<{ root: x509.X509Certificate; intermediate: x509.X509Certificate; key: CryptoKey; keyPem: string }> {
  // Not extractable: the root key can sign, never be written anywhere; it is garbage once this returns.
  const rootKeys = (await webcrypto.subtle.generateKey(ALG, false, ['sign', 'verify'])) as CryptoKeyPair;
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const id = Buffer.from(webcrypto.getRandomValues(new Uint8Array(4))).toString('hex');
  const notBefore = new Date(nowMs - 60_000);
  const notAfter = new Date(nowMs + CA_VALIDITY_DAYS * 24 * 60 * 60 * 1000);
  const caKeyUsage = () => new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=resend-emulator local CA ${id}, O=resend-emulator`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      caKeyUsage(),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
      nameConstraints(names),
    ],
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=resend-emulator local intermediate CA ${id}, O=resend-emulator`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingKey: rootKeys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      caKeyUsage(),
      await x509.AuthorityKeyIdentifierExtension.create(root),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      nameConstraints(names),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { root, intermediate, key: keys.privateKey, keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** Writes a file atomically (temp file + rename) with `mode`. */
function writeFileAtomic(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}

/**
 * The CA in `dir` if its three files are there, readable and one set (the
 * intermediate signed by the root, the key the intermediate's), it is not
 * about to expire, and its Name Constraints permit every `wanted` subtree;
 * else why not (the reason a new one is made, for the notice).
 */
async function loadCa(dir: string, wanted: string[], nowMs: number): Promise<LocalCa | { reason: string }> {
  const certPath = path.join(dir, CA_CERT_FILE);
  if (fs.existsSync(path.join(dir, OLD_CA_KEY_FILE))) return { reason: `replaced (the old one kept its key on disk, ${OLD_CA_KEY_FILE}; the new one's root key is discarded)` };
  const files = [CA_CERT_FILE, INTERMEDIATE_CERT_FILE, INTERMEDIATE_KEY_FILE].map((f) => path.join(dir, f));
  if (!files.some((f) => fs.existsSync(f))) return { reason: 'created' };
  try {
    const [certPem, intermediatePem, keyPem] = files.map((f) => fs.readFileSync(f, 'utf8'));
    const cert = new x509.X509Certificate(certPem);
    const intermediate = new x509.X509Certificate(intermediatePem);
    if (!(await intermediate.verify({ publicKey: cert, signatureOnly: true }))) throw new Error('intermediate not signed by the root');
    const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
    if (!spki.equals(Buffer.from(intermediate.publicKey.rawData))) throw new Error('key of another certificate');
    const permitted = permittedNames(intermediate);
    const missing = wanted.filter((n) => !permitted.includes(n));
    const ends = Math.min(cert.notAfter.getTime(), intermediate.notAfter.getTime());
    if (ends - nowMs < RENEW_BEFORE_MS) return { reason: `replaced (the old one expired on ${new Date(ends).toISOString()})` };
    if (missing.length) return { reason: `replaced (the old one did not cover ${missing.join(', ')})` };
    const key = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(keyPem), ALG, false, ['sign']);
    return { certPem, certPath, cert, intermediatePem, intermediate, key, permitted, created: false };
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
 * Loads the CA from `dir`, or creates it there (root `ca.pem`, intermediate
 * `intermediate.pem`, its key `intermediate-key.pem` 0600; the root key is
 * never written) when it is missing, unreadable, expires within a day, its
 * Name Constraints do not permit every name of `names` (e.g. a new
 * `--public-url` host), or the folder has the old layout (`ca-key.pem`,
 * deleted then). `notice` gets one line when a CA is created (never a key).
 * Safe for several processes at once (a lock file while creating). Throws
 * when `dir` cannot be created or written.
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
    const certPem = made.root.toString('pem');
    const intermediatePem = made.intermediate.toString('pem');
    writeFileAtomic(path.join(dir, INTERMEDIATE_KEY_FILE), made.keyPem, 0o600);
    writeFileAtomic(path.join(dir, INTERMEDIATE_CERT_FILE), intermediatePem, 0o644);
    writeFileAtomic(certPath, certPem, 0o644);
    fs.rmSync(path.join(dir, OLD_CA_KEY_FILE), { force: true });
    const trustAgain = again.reason === 'created' ? '' : ' again';
    notice(`TLS: new local CA ${again.reason}: ${certPath} (trust it${trustAgain}: docs/https-and-interception.md)`);
    return { certPem, certPath, cert: made.root, intermediatePem, intermediate: made.intermediate, key: made.key, permitted: permittedNames(made.intermediate), created: true };
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
 * first is the subject CN) with the intermediate's key, valid from a minute
 * ago to the intermediate's own end. It does not check `names` against the
 * CA's constraints: a certificate for another name is made, and verifiers
 * refuse it (the tests of the constraints rely on that). Returns the chain
 * (the leaf, then the intermediate) and the leaf's new private key, PEM, both
 * in memory only.
 */
export async function issueServerCertificate(ca: LocalCa, names: string[]): Promise<ServerCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const nowMs = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${names[0]}`,
    issuer: ca.intermediate.subject,
    notBefore: new Date(nowMs - 60_000),
    notAfter: ca.intermediate.notAfter,
    signingKey: ca.key,
    publicKey: keys.publicKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((n) => (net.isIP(n) ? { type: 'ip' as const, value: n } : { type: 'dns' as const, value: n }))),
      await x509.AuthorityKeyIdentifierExtension.create(ca.intermediate),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: cert.toString('pem') + '\n' + ca.intermediatePem, key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}
