/**
 * Binding a listener, shared by the HTTP listener (src/server.ts) and the
 * HTTPS one of `--tls` (src/tls/https.ts).
 */
import type net from 'node:net';

/**
 * Listens on `host:port` (`port` 0 picks a free one). Resolves once bound;
 * rejects with the bind error (`EADDRINUSE`, `EACCES`, ...), leaving no
 * error listener behind either way.
 */
export function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
