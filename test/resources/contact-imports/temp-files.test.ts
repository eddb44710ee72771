/**
 * Issue 13, defect 3: an upload never outlives its request or its import.
 * The key (and its permission) is checked before multer stores a byte, and
 * every path that ends an upload removes its file: 401, 403, 422 (a bad
 * field, an unknown segment, multer's own errors), a broken-off upload, an
 * import that ran, and an import still queued when the state is reset,
 * replaced by a snapshot, or closed with an in-memory store. Each test
 * counts the files in the emulator's upload folder (`config.uploadDir`, one
 * fresh folder per test).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig, run, type Running } from '../../../src/server.js';
import { UPLOAD_PREFIX } from '../../../src/http/uploads.js';
import { client } from '../../helpers.js';

const CSV = 'email,first_name\nada@example.net,Ada\nbob@example.net,Bob\n';
const UNKNOWN = '6f0c3b1e-2d4a-4b5c-8d6e-7f8091a2b3c4';

describe('contact import uploads leave nothing behind', () => {
  let dir: string;
  let csv: string;
  let emu: Running;
  let api: ReturnType<typeof client>;
  const files = () => fs.readdirSync(path.join(dir, 'uploads'));

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-files-'));
    fs.mkdirSync(path.join(dir, 'uploads'));
    csv = path.join(dir, 'contacts.csv');
    fs.writeFileSync(csv, CSV);
    emu = await run(defaultConfig({ clock: 'manual', validateResponses: true, logLevel: 'error', uploadDir: path.join(dir, 'uploads') }), '127.0.0.1', 0);
    api = client(emu.url, emu.apiKey);
  });
  afterEach(async () => {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upload = (c: ReturnType<typeof client>, fields: Record<string, string> = {}) => {
    let req = c.post('/contacts/imports').attach('file', csv);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req;
  };

  it('a queued import keeps exactly its one stored file (the baseline the other tests count against)', async () => {
    const res = await upload(api);
    expect(res.status).toBe(201);
    expect(files()).toHaveLength(1);
    expect(files()[0]).toMatch(new RegExp(`^${UPLOAD_PREFIX}[0-9a-f]{32}$`));
    await emu.ctx.scheduler.advance(2_000);
    expect((await api.get(`/contacts/imports/${res.body.id}`)).body).toMatchObject({ status: 'completed', counts: { created: 2 } });
    expect(files()).toEqual([]);
  });

  it('401 without a key, 403 with an unknown one, 401 for a sending-only key: refused before the upload is stored', async () => {
    const spy = vi.spyOn(fs, 'createWriteStream');
    try {
      expect((await upload(client(emu.url))).status).toBe(401);
      expect((await upload(client(emu.url, 're_not_a_key'))).status).toBe(403);
      const sending = (await api.post('/api-keys').send({ name: 's', permission: 'sending_access' })).body.token as string;
      const restricted = await upload(client(emu.url, sending));
      expect(restricted.status).toBe(401);
      expect(restricted.body.name).toBe('restricted_api_key');
      expect(spy).not.toHaveBeenCalled(); // multer never opened a file
    } finally {
      spy.mockRestore();
    }
    expect(files()).toEqual([]);
  });

  it('422 for a bad field (on_conflict=bogus), 404 for an unknown segment, 422 for a file under another name: file removed', async () => {
    const bogus = await upload(api, { on_conflict: 'bogus' });
    expect(bogus.status).toBe(422);
    expect(bogus.body).toMatchObject({ statusCode: 422 });
    expect((await upload(api, { segments: JSON.stringify([{ id: UNKNOWN }]) })).status).toBe(404);
    expect((await upload(api, { column_map: '{not json' })).status).toBe(422);
    const other = await api.post('/contacts/imports').attach('upload', csv);
    expect(other.status).toBe(422);
    expect(files()).toEqual([]);
    expect((await api.get('/contacts/imports')).body.data).toEqual([]);
  });

  it('an upload broken off half-way leaves no file', async () => {
    const boundary = 'broken-off';
    const { port } = new URL(emu.url);
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/contacts/imports', method: 'POST', headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '10000000' } });
      req.on('error', () => resolve());
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nemail\n${'x@example.net\n'.repeat(20_000)}`);
      // Once the file exists, hang up.
      const timer = setInterval(() => {
        if (files().length > 0) {
          clearInterval(timer);
          req.destroy();
          resolve();
        }
      }, 5);
    });
    await vi.waitFor(() => expect(files()).toEqual([]), { timeout: 3_000, interval: 20 });
  });

  it('an import queued, then /_emulator/reset: its file is removed with it', async () => {
    expect((await upload(api)).status).toBe(201);
    expect(files()).toHaveLength(1);
    expect((await client(emu.url).post('/_emulator/reset')).status).toBe(200);
    expect(files()).toEqual([]);
  });

  it('a snapshot import removes the files only replaced rows needed, keeps those the new state needs, and never touches a file it names', async () => {
    expect((await upload(api)).status).toBe(201);
    const snapshot = (await client(emu.url).get('/_emulator/snapshot')).body;
    // The same state again: the queued import still needs its file.
    expect((await client(emu.url).post('/_emulator/snapshot').send(snapshot)).status).toBe(200);
    expect(files()).toHaveLength(1);

    // A state whose import names a file that is not an upload: never read, never deleted.
    const victim = path.join(dir, 'victim.csv');
    fs.writeFileSync(victim, 'email\nvictim@example.net\n');
    const row = snapshot.tables.contact_imports[0];
    const job = snapshot.tables.jobs.find((j: { type: string }) => j.type === 'contact-imports.start');
    const forged = { ...snapshot, tables: { ...snapshot.tables, contact_imports: [{ ...row, file_path: victim }], jobs: [job] } };
    expect((await client(emu.url).post('/_emulator/snapshot').send(forged)).status).toBe(200);
    expect(files()).toEqual([]); // the replaced import's upload went
    await emu.ctx.scheduler.advance(2_000);
    const done = (await api.get(`/contacts/imports/${row.id}`)).body;
    expect(done).toMatchObject({ status: 'failed' });
    expect(fs.readFileSync(victim, 'utf8')).toContain('victim@example.net');
  });

  it('an in-memory store closed with an import still queued removes its file', async () => {
    expect((await upload(api)).status).toBe(201);
    expect(files()).toHaveLength(1);
    await emu.close();
    expect(files()).toEqual([]);
  });
});
