/**
 * `--tls` as a whole: the CA in the TLS folder (a root users trust and the
 * intermediate that signs), a fresh server certificate for the names the
 * emulator serves, and the HTTPS listener. Loaded by
 * src/server.ts only when TLS is on (the certificate libraries are not
 * needed otherwise; start-up speed).
 */
import type { RequestListener, ServerOptions } from 'node:http';
import type { EmulatorConfig } from '../context.js';
import { ensureConfiguredCa, issueServerCertificate, serverNames, type ServerCertificate } from './ca.js';
import { startHttps } from './https.js';

export { defaultTlsDir } from './ca.js';

/** A running `--tls` side. */
export interface TlsListener {
  /** Bound HTTPS port. */
  port: number;
  /** Path of the root CA certificate users trust (`ca.pem` in the TLS folder). */
  caCertPath: string;
  /** The server certificate chain (leaf, then intermediate) and key (PEM, in memory), also used for SMTP STARTTLS. */
  certificate: ServerCertificate;
  close(): Promise<void>;
}

/**
 * Loads or creates the CA in `config.tlsDir` (default `defaultTlsDir`),
 * signs with its intermediate a certificate for `api.resend.com`, `localhost`, `127.0.0.1`, `::1`
 * and the `config.publicUrl` host, and serves `app` over HTTPS on
 * `host:config.httpsPort` (0 a free port) with the HTTP
 * listener's `options` (src/server.ts `run`). `notice` gets the
 * one-line notice of a new CA. Rejects when the folder cannot be written or
 * the port bound (the bind error).
 */
export async function startTls(app: RequestListener, host: string, config: EmulatorConfig, options: ServerOptions, notice: (line: string) => void): Promise<TlsListener> {
  const ca = await ensureConfiguredCa(config, notice);
  const certificate = await issueServerCertificate(ca, serverNames(config.publicUrl));
  const listener = await startHttps(app, host, config.httpsPort, certificate, options);
  return { port: listener.port, caCertPath: ca.certPath, certificate, close: () => listener.close() };
}
