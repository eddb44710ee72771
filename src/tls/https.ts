/**
 * The HTTPS listener of `--tls`: the same request listener as the HTTP one,
 * with the server certificate of `ca.ts`, so `https://api.resend.com` (name
 * resolved to the emulator by /etc/hosts or a docker network alias) reaches
 * the same app, state and clock (README "Code that calls api.resend.com
 * directly").
 */
import https from 'node:https';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerTimeouts } from '../context.js';
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
 * Listens on `host:port` (`port` 0 picks a free one) with `certificate`,
 * the listener timeouts of the HTTP server (`timeouts`, ms), TLS 1.2 or
 * newer. Rejects with the bind error (`EADDRINUSE`, `EACCES`, ...).
 */
export async function startHttps(app: RequestListener, host: string, port: number, certificate: ServerCertificate, timeouts: ServerTimeouts): Promise<HttpsListener> {
  const server = https.createServer(
    {
      cert: certificate.cert,
      key: certificate.key,
      minVersion: 'TLSv1.2',
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    app,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
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
