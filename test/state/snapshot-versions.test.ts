/**
 * Snapshots of every schema version this project has shipped import with
 * their data (src/state/snapshot.ts, src/store/schema.ts). One fixture a
 * past schema version, each exported by the code of the commit that first
 * had it (test/fixtures/snapshots/generate.sh; commits.txt lists them, in
 * version order): none carries `schema_version` (they predate it), so each
 * import also checks that its version is recognised from its tables. Data
 * intact: every row of a table that still exists is there with the same
 * values in every column both versions have; the events of the dropped
 * `email_events` are each email's `events`; the API reads the fixture's
 * emails and contacts; the clock is the snapshot's. A snapshot of a newer
 * version is refused, naming both versions.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { userTables } from '../../src/store/db.js';
import { snapshotSchemaVersion } from '../../src/state/snapshot.js';
import { contextOf, storeOf } from '../../src/internals.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/snapshots');
const versions = Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1);
/** The tables migration 35 moves seeded thread emails into. */
const MOVED_TO = new Set(['received_emails', 'received_attachments', 'emails', 'email_attachments']);
const load = (v: number) => JSON.parse(fs.readFileSync(path.join(dir, `v${v}.json`), 'utf8'));

describe('snapshots of every schema version', () => {
  const t = useFreshEmulatorPerTest();

  it('there is one fixture per schema version, from its commit', () => {
    const commits = fs.readFileSync(path.join(dir, 'commits.txt'), 'utf8').trim().split('\n');
    expect(commits).toHaveLength(SCHEMA_VERSION);
    for (const v of versions) expect(load(v).generated_by).toEqual({ commit: commits[v - 1], schema: v });
  });

  it.each(versions)('schema version %i imports with its data intact', async (v) => {
    const snap = load(v);
    // Versions up to 13 were exported before snapshots carried their version; later ones carry it.
    expect(snap.schema_version).toBe(v <= 13 ? undefined : v);
    const res = await t.api.post('/_emulator/snapshot').send(snap);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const db = storeOf(t.emu);
    const now = new Set(userTables(db));
    const movedIds = new Set<string>(v < 15 ? (snap.tables.inbox_messages ?? []).map((m: { id: string }) => m.id) : []);
    let checked = 0;
    for (const [table, rows] of Object.entries<Record<string, unknown>[]>(snap.tables)) {
      if (!now.has(table)) {
        // The two tables a migration dropped: broadcast_emails (30: into emails.contact_id), email_events (31: into emails.events).
        expect(['broadcast_emails', 'email_events']).toContain(table);
        if (table === 'broadcast_emails') {
          for (const be of rows) {
            expect(db.prepare('SELECT contact_id FROM emails WHERE id = ?').get(be.email_id)).toEqual({ contact_id: be.contact_id });
            checked++;
          }
          continue;
        }
        for (const ev of rows) {
          const email = db.prepare('SELECT events FROM emails WHERE id = ?').get(ev.email_id) as { events: string };
          expect(JSON.parse(email.events)).toContainEqual(expect.objectContaining({ type: ev.type, at: ev.at }));
          checked++;
        }
        continue;
      }
      const cols = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
      const stored = db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Record<string, unknown>[];
      // Migration 35: a thread email that existed only in its inbox (a seeded one) moves to received_emails / emails.
      const moved = MOVED_TO.has(table) ? stored.filter((s) => movedIds.has(String(table.endsWith('attachments') ? s.email_id : s.id)) && !rows.some((r) => r.id === s.id)).length : 0;
      if (table !== 'jobs') expect(stored, table).toHaveLength(rows.length + moved);
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
    // Every reference resolves (schema version 18's foreign keys: a row whose parent was gone was dropped by the migration).
    expect(db.prepare('SELECT * FROM pragma_foreign_key_check').all()).toEqual([]);
    // Through the API: the fixture's emails and contacts, and the clock.
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
    // The inboxes' thread emails, read from the emails they are (migration 35 moved the copies of older versions).
    for (const m of snap.tables.inbox_messages ?? []) {
      const got = await t.api.get(`/inboxes/${m.inbox_id}/threads/${m.thread_id}/emails/${m.id}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body).toMatchObject({ id: m.id, direction: m.direction, read: m.read === 1 });
      if (v < 15) expect(got.body).toMatchObject({ from: m.from_addr, to: JSON.parse(m.to_addrs), subject: m.subject, text: m.text, html: m.html, message_id: m.message_id });
      if (m.direction === 'inbound') expect((await t.api.get(`/emails/receiving/${m.id}`)).status).toBe(200);
      else expect((await t.api.get(`/emails/${m.id}`)).status).toBe(200);
    }
    expect(t.emu.clock.now().getTime()).toBeGreaterThanOrEqual(snap.clock_ms); // the clock never moves back (docs/clock.md: the clock never goes backwards)
    // Exported again, it says this version, and imports as it is.
    const again = await t.api.get('/_emulator/snapshot');
    expect(again.body.schema_version).toBe(SCHEMA_VERSION);
    expect((await t.api.post('/_emulator/snapshot').send(again.body)).status).toBe(200);
  });

  it('an explicit schema_version is used as given: an old snapshot marked with its version imports the same', async () => {
    const snap = { ...load(5), schema_version: 5 };
    expect((await t.api.post('/_emulator/snapshot').send(snap)).status).toBe(200);
    const email = snap.tables.email_events[0];
    const row = storeOf(t.emu).prepare('SELECT events FROM emails WHERE id = ?').get(email.email_id) as { events: string };
    expect(JSON.parse(row.events).length).toBe(snap.tables.email_events.filter((e: any) => e.email_id === email.email_id).length);
  });

  it('a snapshot of a newer schema version is refused with 422 naming both versions, and changes nothing', async () => {
    const before = (await t.api.get('/_emulator/snapshot')).body;
    const res = await t.api.post('/_emulator/snapshot').send({ ...before, schema_version: SCHEMA_VERSION + 1 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: `This snapshot was written at schema version ${SCHEMA_VERSION + 1}, by a newer resend-emulator; this one knows schema version ${SCHEMA_VERSION}. Upgrade resend-emulator to import it.`,
    });
    expect((await t.api.get('/_emulator/snapshot')).body).toEqual(before);
  });
});

describe('the schema version of a snapshot without one', () => {
  const t = useFreshEmulatorPerTest();
  it('is recognised from its tables and columns: each fixture is its own version, or one with the same tables and columns', () => {
    // Versions a snapshot cannot tell apart (an emulator_* table, an index, a table moved between modules) hold the same data.
    const same: Record<number, number[]> = { 7: [7, 8], 10: [10, 11], 12: [12, 13] };
    const found = versions.map((v) => snapshotSchemaVersion(contextOf(t.emu), load(v)));
    expect(found).toEqual(versions.map((v) => expect.toSatisfy((x: number) => (same[v] ?? [v]).includes(x) || (same[v - 1]?.includes(v) ?? false) && same[v - 1].includes(x))));
  });
});
