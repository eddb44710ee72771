/**
 * A `--db` file the emulator cannot use (src/store/db.ts): each a one-line
 * start-up error naming the file and what to do, exit 1, and the file left
 * exactly as it was (same bytes, no WAL or journal beside it). A file in use
 * by another emulator is tested in cli.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { bin, expectOneLineFailure, FREE_SMTP, runToExit } from './process.js';
import { startServer } from '../../src/index.js';
import { schemaVersion } from '../../src/store/schema.js';
import { modules } from '../../src/modules.js';

const SCHEMA_VERSION = schemaVersion(modules.flatMap((m) => m.migrations ?? []));

const NOBODY = 65534;

describe('start-up on a --db file it cannot use', () => {
  const dirs: string[] = [];
  const mounts: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-store-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const m of mounts.splice(0)) spawnSync('umount', [m]);
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  /** A store made by this version, closed. */
  async function makeStore(file: string): Promise<void> {
    const emu = await startServer({ db: file });
    await emu.close();
  }

  /** The file's bytes and the files beside it, to check that a failed start left them alone. */
  const state = (file: string) => ({ bytes: fs.readFileSync(file).toString('base64'), beside: fs.readdirSync(path.dirname(file)).sort() });

  it('a file that is not a database', async () => {
    const file = path.join(tempDir(), 'notes.db');
    fs.writeFileSync(file, 'these are my notes, not a database\n'.repeat(20));
    const before = state(file);
    const r = await runToExit(['start', '--port', '0', '--db', file]);
    expectOneLineFailure(r, `--db ${file} is not an SQLite database (SQLITE_NOTADB: file is not a database); it was left as it is: give --db an emulator store, or a path that does not exist yet for a new one`);
    expect(state(file)).toEqual(before);
  });

  it('a store of a newer schema version (user_version)', async () => {
    const dir = tempDir();
    const newer = path.join(dir, 'newer.db');
    await makeStore(newer);
    const raw = new Database(newer);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION); // stamped by this version
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = state(newer);
    const r = await runToExit(['start', '--port', '0', '--db', newer]);
    expectOneLineFailure(r, `--db ${newer} was written by a newer resend-emulator (schema version ${SCHEMA_VERSION + 1}; this version knows schema version ${SCHEMA_VERSION}); it was left as it is: upgrade resend-emulator, or give --db another file`);
    expect(state(newer)).toEqual(before);
  });

  it('a store of resend-emulator 0.x (schema version 19, or one from before stores recorded it) is refused, naming its version and what to do', async () => {
    const dir = tempDir();
    const what = `this version (schema version ${SCHEMA_VERSION}) starts only on stores of 1.0 or later, and it was left as it is: give --db a new file (or delete this one), or export a snapshot with the version that wrote it and import it here`;
    const old = path.join(dir, 'old.db');
    const raw = new Database(old);
    raw.pragma('journal_mode = WAL'); // as every emulator left its store
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL); CREATE TABLE teams (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL)');
    raw.pragma('user_version = 19');
    raw.close();
    const before = state(old);
    const r = await runToExit(['start', '--port', '0', '--db', old]);
    expectOneLineFailure(r, `--db ${old} was written by resend-emulator 0.x (schema version 19); ${what}`);
    expect(state(old)).toEqual(before);

    const older = path.join(dir, 'older.db');
    const raw2 = new Database(older);
    raw2.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    raw2.close();
    const r2 = await runToExit(['start', '--port', '0', '--db', older]);
    expectOneLineFailure(r2, `--db ${older} was written by an early resend-emulator 0.x (one that did not record its schema version); ${what}`);
  });

  /**
   * Runs the CLI as `nobody` (root ignores permissions) when that user can
   * read the code; where it cannot (a clone under a private home), the
   * folder is a read-only mount instead, which refuses root's writes too
   * (`STORE_FAULTS_READONLY_MOUNT=1` asks for that variant).
   */
  function runWithoutWriteAccess(args: string[], dir: string): { code: number | null; stdout: string; stderr: string } {
    const env = { ...process.env, ...FREE_SMTP, NODE_DISABLE_COMPILE_CACHE: '1' };
    const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(bin)}, require('fs').constants.R_OK)`], { uid: NOBODY, gid: NOBODY, env });
    if (process.getuid?.() === 0 && probe.status === 0 && process.env.STORE_FAULTS_READONLY_MOUNT !== '1') {
      // nobody must reach the folder (the temp folders on the way are root's, 0700): let it through, not write.
      for (let d = dir; d !== path.dirname(d) && d.startsWith(path.dirname(os.tmpdir())); d = path.dirname(d)) {
        const mode = fs.statSync(d).mode & 0o777;
        fs.chmodSync(d, mode | 0o011);
      }
      fs.chmodSync(dir, 0o755);
      const r = spawnSync(process.execPath, [bin, ...args], { uid: NOBODY, gid: NOBODY, env, encoding: 'utf8', timeout: 10_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    }
    spawnSync('mount', ['--bind', dir, dir]);
    mounts.push(dir);
    spawnSync('mount', ['-o', 'remount,bind,ro', dir]);
    const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', timeout: 10_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('a folder without write permission: a new store cannot be created there, an existing one cannot be written', async () => {
    const dir = tempDir();
    const existing = path.join(dir, 'existing.db');
    await makeStore(existing);
    fs.chmodSync(existing, 0o644);
    const before = state(existing);
    const fresh = path.join(dir, 'fresh.db');
    const r1 = runWithoutWriteAccess(['start', '--port', '0', '--db', fresh], dir);
    expectOneLineFailure(r1, `--db ${fresh} cannot be opened for writing (SQLITE_CANTOPEN: unable to open database file); the emulator needs to read and write the file and to create files in its folder ${dir} (the WAL beside it): grant that, or pick another path`);
    expect(fs.existsSync(fresh)).toBe(false);
    const r2 = runWithoutWriteAccess(['start', '--port', '0', '--db', existing], dir);
    expectOneLineFailure(r2, new RegExp(`^resend-emulator: --db ${existing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be opened for writing \\(SQLITE_\\w+: [^)]+\\); the emulator needs to read and write the file and to create files in its folder .+ \\(the WAL beside it\\): grant that, or pick another path$`));
    expect(state(existing)).toEqual(before);
  });
});
