/**
 * Issue 10 (memory per stored email): an email's history lives in its own
 * row (`emails.events`) instead of three `email_events` rows in two
 * indexes.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { userTables } from '../../../src/store/db.js';
import { eventsOf } from '../../../src/resources/emails/service.js';
import { loadEmailHead, loadEmailSteps } from '../../../src/resources/emails/store.js';
import { contextOf, storeOf } from '../../../src/internals.js';

describe('an email history in emails.events', () => {
  const t = useFreshEmulatorPerTest();

  it('holds every step in order with its emulated time, and the data a step has', async () => {
    const id = (await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 's', html: '<a href="https://example.com/x">x</a>' })).body.id;
    const sentAt = t.emu.clock.nowMs();
    expect(eventsOf(contextOf(t.emu), id)).toEqual([{ type: 'queued', at: sentAt }]);
    await t.emu.clock.advance('1m');
    const click = await t.anon.post(`/_emulator/emails/${id}/events`).send({ type: 'clicked', link: 'https://example.com/x' });
    expect(click.status).toBeLessThan(300);
    const events = eventsOf(contextOf(t.emu), id);
    expect(events.map((e) => e.type)).toEqual(['queued', 'sent', 'delivered', 'clicked']);
    expect(events.map((e) => e.at)).toEqual([...events.map((e) => e.at)].sort((a, b) => a - b));
    expect(events[3].data).toEqual({ link: 'https://example.com/x' });
    expect(userTables(storeOf(t.emu))).not.toContain('email_events');
  });
});

describe('loadEmailHead (the lifecycle jobs\' read)', () => {
  const t = useFreshEmulatorPerTest();

  it('reads every column of emails but html and text', async () => {
    const id = (await t.api.post('/emails').send({
      from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', cc: 'cc@resend.dev', bcc: 'bcc@resend.dev', reply_to: 'reply@example.com',
      subject: 's', html: '<p>x</p>', tags: [{ name: 'k', value: 'v' }], headers: { 'X-Entity-Ref-ID': '1' },
    })).body.id;
    const columns = (storeOf(t.emu).prepare(`SELECT name FROM pragma_table_info('emails')`).all() as { name: string }[]).map((c) => c.name);
    const head = loadEmailHead(contextOf(t.emu), id)!;
    expect(Object.keys(head).sort()).toEqual(columns.filter((c) => c !== 'html' && c !== 'text').sort());
    expect(head).toMatchObject({ id, subject: 's', last_event: 'queued' });
    // Each column under its own name (the read is shaped by hand from an array): the same values as the row.
    const { html, text, ...row } = storeOf(t.emu).prepare('SELECT * FROM emails WHERE id = ?').get(id) as Record<string, unknown>;
    expect(html).toBe('<p>x</p>');
    expect(text).toBe('x');
    expect(head).toEqual(row);
    // A lifecycle step's read: the same values, for its columns only.
    const steps = loadEmailSteps(contextOf(t.emu), [id, '00000000-0000-4000-8000-000000000000']);
    expect([...steps.keys()]).toEqual([id]);
    const { id: _id, team_id, to_addrs, cc, bcc, last_event, topic_id, events } = head;
    expect(steps.get(id)).toEqual({ id: _id, team_id, to_addrs, cc, bcc, last_event, topic_id, events });
  });
});
