/**
 * docs/reference/interface-spec.md#limits: the import file is at most 200MB. The upload is
 * streamed (never buffered whole) and a file over the limit is answered 413
 * in the error shape, with nothing created.
 */
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useFreshEmulatorPerTest } from '../../helpers.js';

const LIMIT = 200 * 1024 * 1024;

/** Streams a multipart upload whose `file` part is `size` bytes of CSV; resolves with the response. */
function upload(url: string, token: string, size: number): Promise<{ status: number; body: any }> {
  const boundary = 'emulator-size-test';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const row = Buffer.from('someone@example.org\r\n'.padStart(64, 'x').repeat(16_384)); // 1 MiB of rows
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/contacts/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', (err) => { if (!answered) reject(err); });
    let sent = head.length;
    req.write(head);
    const pump = () => {
      while (sent < size) {
        sent += row.length;
        if (!req.write(row)) return void req.once('drain', pump);
        if (answered) return;
      }
      req.end(tail);
    };
    pump();
  });
}

describe('contact import file size limit', () => {
  const t = useFreshEmulatorPerTest();

  it('answers 413 in the error shape for a file over 200MB and creates nothing', async () => {
    const bigTempFiles = () => fs.readdirSync(os.tmpdir()).filter((f) => {
      try { return fs.statSync(path.join(os.tmpdir(), f)).size > 100 * 1024 * 1024; } catch { return false; }
    });
    const before = bigTempFiles();
    const res = await upload(t.emu.url, t.emu.apiKey, LIMIT + 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, name: 'payload_too_large' });
    expect(res.body.message).toContain('200MB');
    const imports = await t.api.get('/contacts/imports');
    expect(imports.body.data).toEqual([]);
    await expect.poll(() => bigTempFiles().filter((f) => !before.includes(f))).toEqual([]); // the partial upload is removed
  }, 120_000);
});
