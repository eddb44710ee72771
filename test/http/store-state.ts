/**
 * Shared by the robustness sweep and the reliability fuzzers: a raw HTTP
 * sender (no URL normalisation, the default team's key unless overridden)
 * and a fingerprint of the store (row count and content hash of every table
 * but `logs`) to prove that a refused request changed nothing.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { EmulatorServer } from '../../src/index.js';
import { userTables } from '../../src/store/db.js';
import { FIXTURES } from '../helpers.js';
import { storeOf } from '../../src/internals.js';

export interface Answer { status: number; contentType: string; text: string }
const agent = new http.Agent({ keepAlive: true });

/** Sends a request exactly as given (raw path, no URL normalisation). */
export function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${FIXTURES.defaultKey}`, 'user-agent': 'robustness-test', ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`timeout: ${method} ${path.slice(0, 100)}`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Row count and content hash of every table but `logs` (which records failed requests by design). */
export function storeState(emu: EmulatorServer): Record<string, string> {
  const db = storeOf(emu);
  const out: Record<string, string> = {};
  for (const t of userTables(db)) {
    if (t === 'logs') continue;
    const rows = db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all() as Record<string, unknown>[];
    const h = createHash('sha1');
    for (const r of rows) h.update(JSON.stringify(r, (_k, val) => (typeof val === 'bigint' ? String(val) : Buffer.isBuffer(val) ? val.toString('base64') : val)));
    out[t] = `${rows.length} rows ${h.digest('hex').slice(0, 12)}`;
  }
  return out;
}

export function diffState(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k]} → ${b[k]}`);
}

