/**
 * The HTTPS listener of `--tls`: the same request listener as the HTTP one,
 * with the server certificate of `ca.ts` (sent with the intermediate CA), so
 * `https://api.resend.com` (name resolved to the emulator by /etc/hosts or a
 * docker network alias) reaches the same app, state and clock
 * (docs/https-and-interception.md).
 */
import https from 'node:https';
import type { RequestListener, ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '../listen.js';
import type { ServerCertificate } from './ca.js';

/** A bound HTTPS listener. */
export interface HttpsListener {
  server: https.Server;
  /** The bound port. */
  port: number;
  /** Closes every connection and the listener. */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (`port` 0 picks a free one) with `certificate`
 * (its `cert` is the chain: leaf, then intermediate),
 * TLS 1.2 or newer, and `options`: those of the HTTP listener (its
 * timeouts, and its `IncomingMessage` / `ServerResponse` classes, which
 * spare express its per-request prototype change: src/server.ts
 * `bornWithAppPrototypes`). Rejects with the bind error (`EADDRINUSE`,
 * `EACCES`, ...).
 */
export async function startHttps(app: RequestListener, host: string, port: number, certificate: ServerCertificate, options: ServerOptions): Promise<HttpsListener> {
  const server = https.createServer({ ...options, cert: certificate.cert, key: certificate.key, minVersion: 'TLSv1.2' }, app);
  await listen(server, port, host);
  let closed: Promise<void> | null = null;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}
