import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { messageId } from '../../../src/resources/emails/store.js';
import { storeOf } from '../../../src/internals.js';

/** One `INSERT INTO emails` and one Message-ID for sends and the fixture seed (issue 9 item 8). */
describe('emails: the one insert and Message-ID', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' }); // its sent emails are seeded rows

  it('messageId is <UTC YYYYMMDDHHMMSS>.<first 8 of the id>@<domain>', () => {
    expect(messageId('a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d', Date.parse('2026-01-03T09:00:00.000Z'), 'example.com')).toBe('<20260103090000.a1b2c3d4@example.com>');
  });

  it('a sent email and a seeded one get the same Message-ID shape and the same stored columns', async () => {
    const sent = await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'x', text: 'y' });
    const got = (await t.api.get(`/emails/${sent.body.id}`)).body;
    expect(got.message_id).toMatch(new RegExp(`^<\\d{14}\\.${sent.body.id.slice(0, 8)}@example\\.com>$`));

    const seeded = (await t.api.get('/emails/a1b2c3d4-0002-4a5b-8c6d-7e8f9a0b1c2d')).body;
    expect(seeded).toMatchObject({
      message_id: '<20260104083000.a1b2c3d4@example.com>',
      from: 'Acme <billing@example.com>',
      to: ['bob@example.org'],
      cc: ['owner@example.com'],
      bcc: [],
      reply_to: [],
      last_event: 'delivered',
      scheduled_at: null,
      tags: [{ name: 'category', value: 'billing' }],
    });
    const row = storeOf(t.emu).prepare('SELECT source, domain_id, broadcast_id FROM emails WHERE id = ?').get(seeded.id);
    expect(row).toEqual({ source: 'api', domain_id: FIXTURES.verifiedDomainId, broadcast_id: null });
  });
});
