/**
 * The recording proxy (`emulator start --upstream URL --record FILE.har`,
 * `startServer({ upstream, record })`): every call of the public API is
 * answered by the emulator as usual, and also forwarded, in the order
 * received, to the upstream with the same headers (the key of the request,
 * or `upstreamApiKey`); a send is forwarded only to the service's test
 * addresses (./send-guard.ts: any other is refused with 422
 * `upstream_send_refused` before anything leaves). Both answers are
 * compared (./compare.ts) and, at `finish()` (the emulator's close), the
 * differences are printed and both sides written to the HAR.
 * docs/parity.md#the-recording-proxy.
 *
 * Ids: a resource created through the proxy has one id on each side; later
 * calls naming the emulator's id reach the upstream with the upstream's
 * (./ids.ts). A body that is not JSON (a multipart upload, a raw message) is
 * answered by the emulator and not forwarded (listed in the report).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { Emulator, UpstreamConfig } from '../context.js';
import { hasBody, writeJson } from '../http/pipeline.js';
import { DEFAULT_BACKOFF, joinUrl, receivedResponse, send, type Backoff, type Exchange, type ReceivedResponse, type SentRequest } from './exchange.js';
import { compareAnswers, operationOf, type CallResult } from './compare.js';
import { IdMap } from './ids.js';
import { entryOf, harOf, writeHar } from './har.js';
import { redactEntry } from './redact.js';
import { formatReport } from './report.js';
import { SEND_REFUSED, sendRefusal } from './send-guard.js';

/** Where the proxy forwards and records: `url`, the key sent instead of the request's own (`--upstream-api-key`), the HAR written at `finish()` (`--record`). */
export type UpstreamOptions = Readonly<UpstreamConfig>;

/** The proxy: the express middleware the app runs before its operations, and `finish`, run at close. */
export interface RecordingProxy {
  middleware: RequestHandler;
  /**
   * Waits for the calls still being forwarded, writes the HAR (`record`,
   * redacted: ./redact.ts), prints the report to stderr and returns it
   * (`lines`) with the compared calls. Later calls are no longer forwarded.
   * Idempotent (a second call returns the first report).
   */
  finish(): Promise<{ results: CallResult[]; lines: string[] }>;
}

/** Headers that belong to one hop (or that `fetch` sets itself): never forwarded. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'accept-encoding', 'proxy-authorization', 'proxy-connection', 'expect']);

/** The headers of a request as forwarded (lower-case names, one value each). */
function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The answer the emulator wrote, from its status, headers and the chunks it wrote. */
function written(status: number, statusText: string, headers: Record<string, unknown>, chunks: Buffer[]): ReceivedResponse {
  const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]));
  return receivedResponse(status, statusText, flat, Buffer.concat(chunks).toString('utf8'));
}

/** A recording proxy of `ctx`'s app to `options.url` (its middleware goes before the operations; src/app.ts). */
export function createRecordingProxy(ctx: Emulator, options: UpstreamOptions, backoff: Backoff = DEFAULT_BACKOFF): RecordingProxy {
  const ids = new IdMap();
  const results: CallResult[] = [];
  const exchanges: Exchange[] = [];
  const notForwarded: string[] = [];
  // The keys seen: redacted from the HAR wherever they appear.
  const secrets = new Set<string>(options.apiKey ? [options.apiKey] : []);
  let queue: Promise<void> = Promise.resolve();
  let finished: Promise<{ results: CallResult[]; lines: string[] }> | null = null;

  const middleware: RequestHandler = async (req, res, next) => {
    const url = req.url;
    const path = url.split('?')[0];
    if (finished || path.startsWith('/_emulator')) return next();
    const op = await operationOf(req.method, path);
    const refusal = sendRefusal(op?.operationId, req.body);
    if (refusal) {
      notForwarded.push(`${req.method} ${path}: refused, ${SEND_REFUSED}`);
      writeJson(req, res, 422, {}, { statusCode: 422, message: refusal, name: SEND_REFUSED });
      return;
    }
    if (req.body === undefined && hasBody(req)) {
      notForwarded.push(`${req.method} ${path}: its body is not JSON (answered by the emulator only)`);
      return next();
    }
    const headers = forwardedHeaders(req.headers);
    const token = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
    if (token) secrets.add(token);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const auth = headers.authorization ? 'key' : 'none';
    const emulatorRequest: SentRequest = { method: req.method, url: `${ctx.runtime.baseUrl || 'http://emulator'}${url}`, headers, body, auth };

    // The emulator's answer, as it is written.
    const chunks: Buffer[] = [];
    const startedMs = Date.now();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk as string));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (keep(chunk), end(chunk, ...rest))) as typeof res.end;
    const answered = new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
    });

    // Forwarded in the order received, each once the emulator has answered it (so its ids are known for the next).
    queue = queue.then(async () => {
      await answered;
      const emulator = written(res.statusCode, res.statusMessage, res.getHeaders(), chunks);
      const upstreamHeaders = { ...headers, ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) };
      const upstreamRequest: SentRequest = { method: req.method, url: joinUrl(options.url, ids.apply(url)), headers: upstreamHeaders, body: body === undefined ? undefined : ids.apply(body), auth };
      let answer: Awaited<ReturnType<typeof send>>;
      try {
        answer = await send(upstreamRequest, backoff);
      } catch (err) {
        notForwarded.push(`${req.method} ${path}: ${(err as Error).message}`);
        return;
      }
      const step = op?.operationId ?? `${req.method} ${path}`;
      exchanges.push({ side: 'upstream', step, request: upstreamRequest, ...answer });
      exchanges.push({ side: 'emulator', step, request: emulatorRequest, response: emulator, startedMs, timeMs: Date.now() - startedMs });
      ids.learn(emulator.json, answer.response.json);
      const differences = await compareAnswers(req.method, path, answer.response, emulator);
      results.push({ step, method: req.method, path: url, upstream: answer.response, emulator, differences });
    }).catch((err: unknown) => {
      notForwarded.push(`${req.method} ${path}: ${(err as Error).message}`);
    });
    next();
  };

  const finish = async () => {
    await queue;
    const lines = formatReport(results, { notForwarded });
    if (options.record) {
      try {
        writeHar(options.record, harOf(exchanges.map((x) => redactEntry(entryOf(x), [...secrets]))));
      } catch (err) {
        lines.push(`cannot write ${options.record}: ${(err as Error).message}`);
      }
    }
    process.stderr.write(lines.map((l) => `[resend-emulator] ${l}\n`).join('') + (options.record ? `[resend-emulator] parity: both sides recorded in ${options.record}\n` : ''));
    return { results, lines };
  };
  return {
    middleware,
    finish: () => (finished ??= finish()),
  };
}
