// The ceilings every scenario of `npm run bench` is measured against, in the
// same run (issue "Fast as the stack allows"): a bare `node:http` server and
// express 5 alone with `express.json()`, each answering constant JSON. For
// the list scenario the express ceiling serializes 100 list items of the
// emulator's real shape on every request (JSON.stringify cost included).
import http from 'node:http';
import express from 'express';

/**
 * Starts the two ceilings on loopback.
 * @param {object[]} listItems items of the real list shape (the express list ceiling answers `{object:'list', has_more:false, data: listItems}`)
 * @returns {Promise<{ bareUrl: string, expressUrl: string, close(): Promise<void> }>}
 */
export async function startCeilings(listItems) {
  const bare = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"object":"list","has_more":false,"data":[]}');
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '50mb' }));
  // POST ceiling: parse the JSON body, answer the shape of POST /emails.
  app.post('/emails', (req, res) => {
    res.status(200).json({ id: '4ef9a417-02e9-4d39-ad75-9611e0fcc33c' });
  });
  // List ceiling: serialize 100 items of the real shape.
  app.get('/emails', (_req, res) => {
    res.status(200).json({ object: 'list', has_more: false, data: listItems });
  });
  app.get('/health', (_req, res) => res.json({ status: 'ok' }));
  const expressServer = http.createServer(app);
  await Promise.all([
    new Promise((r) => bare.listen(0, '127.0.0.1', r)),
    new Promise((r) => expressServer.listen(0, '127.0.0.1', r)),
  ]);
  return {
    bareUrl: `http://127.0.0.1:${bare.address().port}`,
    expressUrl: `http://127.0.0.1:${expressServer.address().port}`,
    close: async () => {
      bare.closeAllConnections?.();
      expressServer.closeAllConnections?.();
      await Promise.all([new Promise((r) => bare.close(r)), new Promise((r) => expressServer.close(r))]);
    },
  };
}

/** A spawn → first 200 on `/health` of a bare express server, for the start-up table (ms). */
export const EXPRESS_START_SCRIPT = `
import http from 'node:http';
import express from 'express';
const app = express();
app.use(express.json());
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
const s = http.createServer(app).listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
`;
