/**
 * Snapshots of every schema version this project has shipped
 * (src/state/snapshot.ts, src/store/schema.ts). One fixture a past schema
 * version, each exported by the code of the commit that first had it
 * (test/fixtures/snapshots/generate.sh; commits.txt lists them, in version
 * order). Versions 1 to 19 are 0.x: a 0.x snapshot imports when its tables
 * and columns map onto the 1.0 schema (columns it lacks take their
 * defaults; what 1.0 dropped unread is ignored), with its data intact:
 * every row there with the same values in every column both versions have,
 * the API reading its emails, contacts and thread emails, the clock the
 * snapshot's. The others are refused with 422 naming their version and the
 * table or column that does not map, and change nothing: versions 5 to 11
 * kept each email's history in `email_events` (1.0: the email's `events`),
 * version 14 kept copies of thread emails in `inbox_messages`. A snapshot
 * of a newer version is refused, naming both versions.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { BASELINE_VERSION, schemaVersion } from '../../src/store/schema.js';
import { userTables } from '../../src/store/db.js';
import { contextOf, storeOf } from '../../src/internals.js';
import { modules } from '../../src/modules.js';
import { exportSnapshot, importSnapshot } from '../../src/state/snapshot.js';
import type { Emulator } from '../../src/context.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/snapshots');
const CURRENT = schemaVersion(modules.flatMap((m) => m.migrations ?? []));
/** The 0.x versions, one fixture each. */
const versions = Array.from({ length: BASELINE_VERSION - 1 }, (_, i) => i + 1);
const load = (v: number) => JSON.parse(fs.readFileSync(path.join(dir, `v${v}.json`), 'utf8'));
const refusal = (v: number, what: string) =>
  `Invalid snapshot: ${v <= 13 ? 'a snapshot without `schema_version`' : `a snapshot of schema version ${v}`} (resend-emulator 0.x) has ${what}, which this version (schema version ${CURRENT}) does not have; it cannot be imported.`;
/** The 0.x versions that do not map onto 1.0, and why. */
const REFUSED: Record<number, string> = {
  ...Object.fromEntries([5, 6, 7, 8, 9, 10, 11].map((v) => [v, 'rows of table `email_events`'])),
  14: 'column `inbox_messages.from_addr`',
};
const imported = versions.filter((v) => !REFUSED[v]);

describe('snapshots of every 0.x schema version', () => {
  const t = useFreshEmulatorPerTest();

  it('there is one fixture per 0.x schema version, from its commit', () => {
    const commits = fs.readFileSync(path.join(dir, 'commits.txt'), 'utf8').trim().split('\n');
    expect(commits).toHaveLength(BASELINE_VERSION - 1);
    for (const v of versions) expect(load(v).generated_by).toEqual({ commit: commits[v - 1], schema: v });
  });

  it.each(imported)('schema version %i imports with its data intact', async (v) => {
    const snap = load(v);
    // Versions up to 13 were exported before snapshots carried their version; later ones carry it.
    expect(snap.schema_version).toBe(v <= 13 ? undefined : v);
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const db = storeOf(t.emu);
    const now = new Set(userTables(db));
    let checked = 0;
    for (const [table, rows] of Object.entries<Record<string, unknown>[]>(snap.tables)) {
      if (!now.has(table)) {
        // A table 1.0 does not have imports only when it has no rows.
        expect(rows, table).toEqual([]);
        continue;
      }
      const cols = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
      const stored = db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Record<string, unknown>[];
      if (table !== 'jobs') expect(stored, table).toHaveLength(rows.length);
      for (const row of rows) {
        const common = Object.keys(row).filter((k) => cols.has(k));
        const match = stored.find((s) => common.every((k) => s[k] === row[k]));
        // Jobs: the scheduler's recovery at import puts a running one back to pending and deletes the finished and
        // cancelled rows older versions kept (src/clock/scheduler.ts recover); the others are there by id and type.
        if (table === 'jobs') {
          const kept = stored.find((s) => s.id === row.id && s.type === row.type);
          if (row.status === 'done' || row.status === 'cancelled') expect(kept).toBeUndefined();
          else expect(kept, `${table} ${JSON.stringify(row)}`).toMatchObject({ payload: row.payload, due_at: row.due_at });
        } else expect(match, `${table} ${JSON.stringify(row)}`).toBeDefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(db.prepare('SELECT * FROM pragma_foreign_key_check').all()).toEqual([]);
    // Through the API: the fixture's emails and contacts, the thread emails, and the clock.
    for (const e of snap.tables.emails ?? []) {
      const got = await t.api.get(`/emails/${e.id}`);
      expect(got.status).toBe(200);
      expect(got.body.subject).toBe(e.subject);
    }
    const contacts = (snap.tables.contacts ?? []).filter((c: any) => c.team_id === '8f3a1c2e-0b4d-4e6f-9a1b-2c3d4e5f6a7b');
    if (contacts.length) {
      const list = await t.api.get('/contacts?limit=100');
      expect(list.body.data.map((c: any) => c.email).sort()).toEqual(contacts.map((c: any) => c.email).sort());
    }
    for (const m of snap.tables.inbox_messages ?? []) {
      const got = await t.api.get(`/inboxes/${m.inbox_id}/threads/${m.thread_id}/emails/${m.id}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body).toMatchObject({ id: m.id, direction: m.direction, read: m.read === 1 });
    }
    expect(t.emu.clock.now().getTime()).toBeGreaterThanOrEqual(snap.clock_ms); // the clock never moves back (docs/clock.md)
    // Exported again, it says this version, and imports as it is.
    const again = await t.api.get('/_emulator/snapshot');
    expect(again.body.schema_version).toBe(CURRENT);
    expect((await t.api.post('/_emulator/snapshot').send(again.body)).status).toBe(200);
  });

  it('a webhook attempt of a snapshot made before attempts had ids (versions 5 and 6) gets one as it is imported, and the attempts list answers it', async () => {
    // Versions 5 and 6 are refused for their email history; without it, their attempts (none of which has an id) import.
    const snap = load(5);
    snap.tables.email_events = [];
    expect(snap.tables.webhook_attempts.every((a: any) => a.id === undefined)).toBe(true);
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = storeOf(t.emu).prepare('SELECT id FROM webhook_attempts ORDER BY seq').pluck().all() as (string | null)[];
    expect(ids).toHaveLength(snap.tables.webhook_attempts.length);
    for (const id of ids) expect(id).toMatch(/^atmpt_[A-Za-z0-9]{27}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const delivery = snap.tables.webhook_deliveries[0];
    const list = await t.api.get(`/webhooks/${delivery.webhook_id}/events/${delivery.id}/attempts`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const a of list.body.data) expect(ids).toContain(a.id);
  });

  it.each(versions.filter((v) => REFUSED[v]))('schema version %i is refused with 422 naming its version and what does not map, and changes nothing', async (v) => {
    const before = (await t.api.get('/_emulator/snapshot')).body;
    const res = await t.api.post('/_emulator/snapshot').send(load(v));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'validation_error', message: refusal(v, REFUSED[v]) });
    expect((await t.api.get('/_emulator/snapshot')).body).toEqual(before);
  });
});

describe('how an older snapshot maps onto this schema', () => {
  const t = useFreshEmulatorPerTest();
  /** This emulator's export, as a snapshot of `version`. */
  const exported = async (version: number | undefined) => ({ ...(await t.api.get('/_emulator/snapshot')).body, schema_version: version });

  it('a column the snapshot lacks takes the column\'s default', async () => {
    const sent = await t.api.post('/emails').send({ from: 'Acme <onboarding@resend.dev>', to: 'delivered@resend.dev', subject: 'hi', text: 'hi' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const snap = await exported(19);
    expect(snap.tables.emails.length).toBeGreaterThan(0);
    for (const e of snap.tables.emails) delete e.events;
    expect((await t.api.post('/_emulator/snapshot').send(snap)).status).toBe(200);
    expect(storeOf(t.emu).prepare(`SELECT DISTINCT events FROM emails`).all()).toEqual([{ events: '[]' }]);
  });

  it('a column 1.0 dropped unread (webhook_deliveries.attempt_count) is ignored in a 0.x snapshot, refused in a 1.0 one', async () => {
    const row = { seq: 1, id: 'whd_1', team_id: '8f3a1c2e-0b4d-4e6f-9a1b-2c3d4e5f6a7b', webhook_id: 'wh_1', event_type: 'email.sent', payload: '{}', status: 'delivered', created_at: 0, next_attempt_at: null, attempt_count: 2 };
    const old = await exported(19);
    old.tables.webhook_deliveries = [row];
    expect((await t.api.post('/_emulator/snapshot').send(old)).status).toBe(200);
    expect(storeOf(t.emu).prepare(`SELECT id FROM webhook_deliveries`).all()).toEqual([{ id: 'whd_1' }]);
    const now = await exported(CURRENT);
    now.tables.webhook_deliveries = [row];
    const res = await t.api.post('/_emulator/snapshot').send(now);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Invalid snapshot: unknown column `attempt_count` of table `webhook_deliveries`.');
  });

  it('a snapshot without schema_version (written by hand) maps the same way', async () => {
    const snap = await exported(undefined);
    delete snap.schema_version;
    expect((await t.api.post('/_emulator/snapshot').send(snap)).status).toBe(200);
    snap.tables.teams[0].plan = 'pro';
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`Invalid snapshot: a snapshot without \`schema_version\` (resend-emulator 0.x) has column \`teams.plan\`, which this version (schema version ${CURRENT}) does not have; it cannot be imported.`);
  });

  it('a snapshot of a newer schema version is refused with 422 naming both versions, and changes nothing', async () => {
    const before = (await t.api.get('/_emulator/snapshot')).body;
    const res = await t.api.post('/_emulator/snapshot').send({ ...before, schema_version: CURRENT + 1 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: `This snapshot was written at schema version ${CURRENT + 1}, by a newer resend-emulator; this one knows schema version ${CURRENT}. Upgrade resend-emulator to import it.`,
    });
    expect((await t.api.get('/_emulator/snapshot')).body).toEqual(before);
  });
});

/**
 * A snapshot of a version since the baseline goes through each later
 * migration's `upgradeSnapshot` (a schema of its own: the emulator has no
 * migration after the baseline yet). Here a version 21 that renamed a
 * contact's `first_name` from a `given_name` of version 20 (hypothetical):
 * the store already has the renamed column; the snapshot of 20 is brought
 * to it before it is mapped.
 */
describe('a snapshot of a version since the baseline', () => {
  const t = useFreshEmulatorPerTest();
  const rename = {
    name: 'test',
    migrations: [{
      version: BASELINE_VERSION + 1,
      name: 'contacts_given_name',
      sql: '',
      upgradeSnapshot: (tables: Record<string, Record<string, unknown>[]>) => {
        for (const c of tables.contacts ?? []) {
          c.first_name = c.given_name;
          delete c.given_name;
        }
      },
    }],
  };

  it('goes through the later migrations\' upgradeSnapshot, then imports; this version exports as the later one', async () => {
    const ctx: Emulator = { ...contextOf(t.emu), modules: [...contextOf(t.emu).modules, rename] };
    const created = await t.api.post('/contacts').send({ email: 'ada@example.net', first_name: 'Ada' });
    expect(created.status).toBe(201);
    const snap = exportSnapshot(ctx);
    expect(snap.schema_version).toBe(BASELINE_VERSION + 1);
    const old = { ...snap, schema_version: BASELINE_VERSION, tables: { ...snap.tables, contacts: snap.tables.contacts.map(({ first_name, ...c }) => ({ ...c, given_name: first_name })) } };
    const given = JSON.stringify(old);
    importSnapshot(ctx, old);
    expect((await t.api.get(`/contacts/${created.body.id}`)).body.first_name).toBe('Ada');
    // The caller's snapshot is left as it was (`upgradeSnapshot` changes a copy).
    expect(JSON.stringify(old)).toBe(given);
    // Without the migration the old column is refused (a column this version does not have).
    expect(() => importSnapshot(contextOf(t.emu), { ...old, schema_version: BASELINE_VERSION - 1 })).toThrow('has column `contacts.given_name`');
    expect(JSON.stringify(old)).toBe(given);
  });
});

