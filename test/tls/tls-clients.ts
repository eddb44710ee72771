/**
 * TLS clients of several stacks, for the tests of the local CA
 * (test/tls/https.test.ts): each GETs `https://NAME:PORT/PATH` with NAME
 * resolved to 127.0.0.1, trusting only a given `ca.pem`, and reports per
 * target the HTTP status or why the certificate chain was refused.
 *
 * - Node: `node:https` with `ca` (OpenSSL inside Node).
 * - OpenSSL: `openssl s_client -CAfile ca.pem -verify_hostname NAME
 *   -verify_return_error` (the library Python, Ruby, PHP use).
 * - curl: `curl --cacert ca.pem --resolve NAME:PORT:127.0.0.1`.
 * - Java: a JDK's `java` runs TlsProbe.java (`HttpsURLConnection`, the JDK's
 *   default trust manager, as OkHttp in the Java SDK) with a PKCS#12 trust
 *   store that `keytool -importcert` made of `ca.pem` alone
 *   (`-Djavax.net.ssl.trustStore`), and NAME resolved by
 *   `-Djdk.net.hosts.file`. The JDK is `$JAVA_HOME`, or else found from the
 *   real path of `javac` on PATH (`findJdk`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const exe = process.platform === 'win32' ? '.exe' : '';

/** A URL to GET: `https://name:port/path`, `name` resolved to 127.0.0.1. */
export interface Target {
  name: string;
  port: number;
  path: string;
}

/** Per target: the HTTP status, or `refused: <why>` (the client's own words). */
export type Verdict = number | `refused: ${string}`;

/** A TLS stack that can be run on this machine. */
export interface TlsClient {
  stack: 'node' | 'openssl' | 'curl' | 'java';
  /** GETs each target trusting only `caPath` (a PEM file); resolves with a verdict per target, in order. */
  get(caPath: string, targets: Target[]): Promise<Verdict[]>;
}

/** The first `command` (+ `.exe` on Windows) found on PATH, its path as found, or null. */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command + exe);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/**
 * The JDK's home: `JAVA_HOME` when it holds `bin/javac`, else two folders
 * above the real path of `javac` on PATH (`/usr/bin/javac` ->
 * `/usr/lib/jvm/java-17-openjdk-amd64/bin/javac` -> that JDK), as
 * docs/https-and-interception.md tells a user to derive it; null without a JDK.
 */
export function findJdk(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.JAVA_HOME && fs.existsSync(path.join(env.JAVA_HOME, 'bin', `javac${exe}`))) return env.JAVA_HOME;
  const javac = onPath('javac', env);
  return javac ? path.dirname(path.dirname(fs.realpathSync(javac))) : null;
}

function run(file: string, args: string[], input = '', env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { env, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === 'string') return reject(err); // could not run it at all
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin!.end(input);
  });
}

const node: TlsClient = {
  stack: 'node',
  get(caPath, targets) {
    const ca = fs.readFileSync(caPath, 'utf8');
    return Promise.all(
      targets.map(
        (t) =>
          new Promise<Verdict>((resolve) => {
            https
              .get({ host: '127.0.0.1', port: t.port, path: t.path, servername: t.name, headers: { host: `${t.name}:${t.port}` }, ca, agent: false }, (res) => {
                res.resume();
                resolve(res.statusCode!);
              })
              .on('error', (err) => resolve(`refused: ${err.message}`));
          }),
      ),
    );
  },
};

function openssl(binary: string): TlsClient {
  return {
    stack: 'openssl',
    get(caPath, targets) {
      return Promise.all(
        targets.map(async (t): Promise<Verdict> => {
          const args = ['s_client', '-connect', `127.0.0.1:${t.port}`, '-servername', t.name, '-verify_hostname', t.name, '-CAfile', caPath, '-verify_return_error', '-quiet'];
          const r = await run(binary, args, `GET ${t.path} HTTP/1.1\r\nHost: ${t.name}:${t.port}\r\nConnection: close\r\n\r\n`);
          const status = /^HTTP\/1\.1 (\d{3})/m.exec(r.stdout);
          if (r.code === 0 && status) return Number(status[1]);
          return `refused: ${/verify error:[^\n]*/.exec(r.stderr)?.[0] ?? r.stderr.trim().split('\n')[0]}`;
        }),
      );
    },
  };
}

function curl(binary: string): TlsClient {
  return {
    stack: 'curl',
    get(caPath, targets) {
      return Promise.all(
        targets.map(async (t): Promise<Verdict> => {
          const args = ['-sS', '-o', os.devNull, '-w', '%{http_code}', '--cacert', caPath, '--resolve', `${t.name}:${t.port}:127.0.0.1`, `https://${t.name}:${t.port}${t.path}`];
          const r = await run(binary, args);
          return r.code === 0 ? Number(r.stdout) : `refused: ${r.stderr.trim()}`;
        }),
      );
    },
  };
}

function java(home: string): TlsClient {
  return {
    stack: 'java',
    async get(caPath, targets) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-java-tls-'));
      try {
        // No options from the environment: the trust store and the names are the ones given here.
        const env: NodeJS.ProcessEnv = { ...process.env, JAVA_HOME: home };
        delete env.JAVA_TOOL_OPTIONS;
        delete env.JDK_JAVA_OPTIONS;
        const store = path.join(dir, 'trust.p12');
        const keytool = await run(path.join(home, 'bin', `keytool${exe}`), ['-importcert', '-noprompt', '-alias', 'resend-emulator', '-file', caPath, '-keystore', store, '-storetype', 'PKCS12', '-storepass', 'changeit'], '', env);
        if (keytool.code !== 0) throw new Error(`keytool failed: ${keytool.stdout}${keytool.stderr}`);
        const hosts = path.join(dir, 'hosts');
        fs.writeFileSync(hosts, `127.0.0.1 ${[...new Set(targets.map((t) => t.name))].join(' ')}\n`);
        const urls = targets.map((t) => `https://${t.name}:${t.port}${t.path}`);
        const r = await run(
          path.join(home, 'bin', `java${exe}`),
          [`-Djavax.net.ssl.trustStore=${store}`, '-Djavax.net.ssl.trustStorePassword=changeit', '-Djavax.net.ssl.trustStoreType=PKCS12', `-Djdk.net.hosts.file=${hosts}`, path.join(here, 'TlsProbe.java'), ...urls],
          '',
          env,
        );
        const lines = r.stdout.trim().split('\n');
        return urls.map((url): Verdict => {
          const line = lines.find((l) => l.startsWith(`${url} `));
          if (!line) throw new Error(`TlsProbe printed nothing for ${url}: ${r.stdout}${r.stderr}`);
          const rest = line.slice(url.length + 1);
          return /^\d{3}$/.test(rest) ? Number(rest) : `refused: ${rest.replace(/^refused \| /, '')}`;
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The clients this machine can run: Node always; OpenSSL, curl and Java
 * (a JDK, `findJdk`) when found on PATH.
 */
export function tlsClients(): TlsClient[] {
  const clients: TlsClient[] = [node];
  const opensslBin = onPath('openssl');
  if (opensslBin) clients.push(openssl(opensslBin));
  const curlBin = onPath('curl');
  if (curlBin) clients.push(curl(curlBin));
  const jdk = findJdk();
  if (jdk) clients.push(java(jdk));
  return clients;
}
