/**
 * Issue 9 item 8: a broadcast email carries its contact on the email row
 * (`emails.contact_id`); the `broadcast_emails` table that repeated
 * `emails.broadcast_id` is gone.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { createBroadcast } from './helpers.js';
import { userTables } from '../../../src/store/db.js';
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
