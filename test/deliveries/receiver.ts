/**
 * A webhook receiver for tests: a node:http server on 127.0.0.1 (port 0)
 * that records every request (raw body and headers) and answers with the
 * status `respond` picks (default 200). `hang: true` never answers (for
 * timeouts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests carrying this svix-id. */
  withId(id: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(respond: (n: number, r: Received) => number | 'hang' = () => 200, path = '/hook'): Promise<Receiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' };
      requests.push(r);
      const status = respond(requests.length, r);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 200 && status < 300 ? 'ok' : `nope ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    withId: (id) => requests.filter((r) => r.headers['svix-id'] === id),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SDK's verify() input from a received request. */
export function verifyInput(r: Received, webhookSecret: string) {
  return {
    payload: r.body,
    headers: {
      id: String(r.headers['svix-id']),
      timestamp: String(r.headers['svix-timestamp']),
      signature: String(r.headers['svix-signature']),
    },
    webhookSecret,
  };
}
