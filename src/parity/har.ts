/**
 * HAR 1.2 files (the HTTP Archive format browsers and recorders such as
 * Polly.JS write): one entry per exchange, with this project's custom
 * fields (`_`-prefixed, as the format allows) saying which side answered.
 * Types are `@types/har-format`'s. Written only after `redactEntry`
 * (./redact.ts), so a file never carries an API key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { specDir } from '../http/spec.js';
import type { Entry, Har, Header } from 'har-format';
import type { AuthKind, Exchange, Side } from './exchange.js';

/** An entry as this project writes and reads it: `_side` (which side answered), `_step` (the tour step or operation), `_auth` (how the request was authorised, the token itself never kept). */
export interface ParityEntry extends Entry {
  _side?: Side;
  _step?: string;
  _auth?: AuthKind;
}


function headerList(headers: Record<string, string>): Header[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** One exchange as a HAR entry (`_side`, `_step`, `_auth`, and a `comment` naming the side). */
export function entryOf(x: Exchange): ParityEntry {
  const url = new URL(x.request.url);
  const reqText = x.request.body;
  const resText = x.response.body;
  const mime = x.response.headers['content-type'] ?? 'application/json';
  return {
    _side: x.side,
    _step: x.step,
    _auth: x.request.auth,
    comment: `${x.side}: ${x.step}`,
    startedDateTime: new Date(x.startedMs).toISOString(),
    time: x.timeMs,
    request: {
      method: x.request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(x.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(reqText !== undefined ? { postData: { mimeType: x.request.headers['content-type'] ?? 'application/json', text: reqText } } : {}),
      headersSize: -1,
      bodySize: reqText === undefined ? 0 : Buffer.byteLength(reqText),
    },
    response: {
      status: x.response.status,
      statusText: x.response.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(x.response.headers),
      content: { size: Buffer.byteLength(resText), mimeType: mime, text: resText },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(resText),
    },
    cache: {},
    timings: { send: 0, wait: x.timeMs, receive: 0 },
  };
}

/** This package's version, from its package.json (beside `spec/`). */
function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(path.dirname(specDir()), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** A HAR 1.2 document of `entries`, its creator this package (name and version). */
export function harOf(entries: ParityEntry[]): Har {
  return { log: { version: '1.2', creator: { name: 'resend-emulator', version: packageVersion() }, entries } };
}

/** Writes `har` to `file` as indented JSON (the caller has redacted it). Throws on a write error. */
export function writeHar(file: string, har: Har): void {
  fs.writeFileSync(file, `${JSON.stringify(har, null, 2)}\n`);
}

/**
 * Reads a HAR file. Throws an Error naming the file when it cannot be read,
 * is not JSON, or has no `log.entries` array.
 */
export function readHar(file: string): ParityEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read HAR ${file}: ${(err as Error).message}`);
  }
  const entries = (doc as Har | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`cannot read HAR ${file}: no log.entries array`);
  return entries as ParityEntry[];
}
