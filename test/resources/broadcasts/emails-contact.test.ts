/**
 * Issue 9 item 8: a broadcast email carries its contact on the email row
 * (`emails.contact_id`); the `broadcast_emails` table that repeated
 * `emails.broadcast_id` is gone, and a store made before keeps its contacts.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { createBroadcast } from './helpers.js';
import { migrate, openDatabase, userTables } from '../../../src/store/db.js';
import { modules } from '../../../src/modules.js';
import { migrationsAt } from '../../../src/store/schema.js';
import { emailsOfBroadcast } from '../../../src/resources/emails/service.js';
import { contextOf, storeOf } from '../../../src/internals.js';

describe('broadcast emails: the contact on the email row', () => {
  const t = useFreshEmulatorPerTest();

  it('each broadcast email names its contact; recipients read it from there', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'S' })).body.id;
    const ada = (await t.api.post('/contacts').send({ email: 'delivered+ada@resend.dev', segments: [{ id: seg }] })).body.id;
    const bob = (await t.api.post('/contacts').send({ email: 'delivered+bob@resend.dev', segments: [{ id: seg }] })).body.id;
    const id = await createBroadcast(t, { segment_id: seg, send: true });
    await t.emu.clock.advance('1m');
    const emails = emailsOfBroadcast(contextOf(t.emu), id);
    expect(emails.map((e) => [e.to[0], e.contact_id]).sort()).toEqual([['delivered+ada@resend.dev', ada], ['delivered+bob@resend.dev', bob]]);
    expect(userTables(storeOf(t.emu))).not.toContain('broadcast_emails');
    const sent = await t.api.get(`/broadcasts/${id}/recipients?type=delivered`);
    expect(sent.body.data.map((r: any) => [r.email, r.contact_id]).sort()).toEqual([['delivered+ada@resend.dev', ada], ['delivered+bob@resend.dev', bob]]);
    // An email sent by the API has no contact.
    const api = (await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 's', text: 't' })).body.id;
    expect(storeOf(t.emu).prepare('SELECT contact_id FROM emails WHERE id = ?').get(api)).toEqual({ contact_id: null });
  });
});

describe('migrations 29 + 30 (emails.contact_id) on a store made before them', () => {
  it('copy broadcast_emails.contact_id to its email row, then drop broadcast_emails', () => {
    const all = modules.flatMap((m) => m.migrations ?? []);
    const db = openDatabase(':memory:');
    try {
      // Schema version 9: the store before migrations 29 and 30 (schema version 10, src/store/schema.ts).
      const before = migrationsAt(9);
      migrate(db, all.filter((m) => before.has(m.version)));
      const insert = db.prepare(
        `INSERT INTO emails (id, team_id, message_id, from_addr, to_addrs, subject, last_event, created_at, source, broadcast_id)
         VALUES (?, 't', '<m>', 'a@example.com', ?, 's', 'delivered', 0, ?, ?)`,
      );
      insert.run('e1', '["x@example.org"]', 'broadcast', 'b1');
      insert.run('e2', '["y@example.org"]', 'broadcast', 'b1');
      insert.run('e3', '["z@example.org"]', 'api', null);
      const be = db.prepare('INSERT INTO broadcast_emails (broadcast_id, email_id, contact_id, email, created_at) VALUES (?, ?, ?, ?, 0)');
      be.run('b1', 'e1', 'c1', 'x@example.org');
      be.run('b1', 'e2', null, 'y@example.org');
      migrate(db, all);
      expect(db.prepare('SELECT id, contact_id FROM emails ORDER BY id').all()).toEqual([
        { id: 'e1', contact_id: 'c1' },
        { id: 'e2', contact_id: null },
        { id: 'e3', contact_id: null },
      ]);
      expect(userTables(db)).not.toContain('broadcast_emails');
    } finally {
      db.close();
    }
  });
});
