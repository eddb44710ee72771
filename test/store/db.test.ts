/**
 * src/store/db.ts: a `--db` file belongs to one emulator at a time (issue
 * 13): a second `startServer({ db })` on a file another holds fails at once
 * with `DatabaseInUseError`, and starts once the first has closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { DatabaseInUseError } from '../../src/store/db.js';

describe('store file lock', () => {
  const dirs: string[] = [];
  const servers: EmulatorServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a second emulator on the same file fails at once; after the first closes it opens the same state', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-lock-'));
    dirs.push(dir);
    const db = path.join(dir, 'state.db');
    const first = await startServer({ db });
    servers.push(first);
    const res = await fetch(`${first.url}/contacts`, { method: 'POST', headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'lock@example.net' }) });
    expect(res.status).toBe(201);
    const t0 = Date.now();
    const err = await startServer({ db }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseInUseError);
    expect((err as Error).message).toBe(`--db ${db} is in use by another running emulator (or another program holding it); stop that one or pick another file`);
    expect(Date.now() - t0).toBeLessThan(2_000);
    await servers.pop()!.close();
    const second = await startServer({ db });
    servers.push(second);
    const list = await (await fetch(`${second.url}/contacts`, { headers: { authorization: `Bearer ${second.apiKey}` } })).json() as { data: { email: string }[] };
    expect(list.data.map((c) => c.email)).toContain('lock@example.net');
  });
});
