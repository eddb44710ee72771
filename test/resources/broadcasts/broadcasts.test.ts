import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { createBroadcast, draftBody, getBroadcast, DRAFT_BROADCAST, NEWSLETTER_SEGMENT, SENT_BROADCAST } from './helpers.js';
import { schedulerOf } from '../../../src/internals.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;

describe('broadcasts: create, get, list', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' }); // the demo set holds a sent broadcast (SENT_BROADCAST)

  it('creates a draft and answers 201 {object, id}; GET has every field', async () => {
    const res = await t.api.post('/broadcasts').send(draftBody({ reply_to: 'help@example.com', preview_text: 'Read me', text: 'Hi' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'broadcast', id: expect.any(String) });
    const b = await getBroadcast(t, res.body.id);
    expect(b).toEqual({
      object: 'broadcast',
      id: res.body.id,
      name: 'Launch',
      audience_id: NEWSLETTER_SEGMENT,
      segment_id: NEWSLETTER_SEGMENT,
      from: 'Acme <news@example.com>',
      subject: 'We launched',
      reply_to: ['help@example.com'],
      preview_text: 'Read me',
      html: '<p>Hi {{{contact.first_name|there}}}</p>',
      text: 'Hi',
      status: 'draft',
      created_at: expect.stringMatching(TS),
      scheduled_at: null,
      sent_at: null,
      topic_id: null,
    });
  });

  it('accepts the deprecated audience_id as the segment', async () => {
    const { segment_id, ...body } = draftBody();
    void segment_id;
    const res = await t.api.post('/broadcasts').send({ ...body, audience_id: NEWSLETTER_SEGMENT });
    expect(res.status).toBe(201);
    const b = await getBroadcast(t, res.body.id);
    expect(b.segment_id).toBe(NEWSLETTER_SEGMENT);
    expect(b.audience_id).toBe(NEWSLETTER_SEGMENT);
  });

  it('requires segment_id (or audience_id), from and subject', async () => {
    const { segment_id, ...noSegment } = draftBody();
    void segment_id;
    const r1 = await t.api.post('/broadcasts').send(noSegment);
    expect(r1.status).toBe(422);
    expect(r1.body).toEqual({ statusCode: 422, message: 'Missing `segment_id` field.', name: 'missing_required_field' });
    const r2 = await t.api.post('/broadcasts').send(draftBody({ from: undefined }));
    expect(r2.status).toBe(422);
    expect(r2.body).toEqual({ statusCode: 422, message: 'Missing `from` field.', name: 'missing_required_field' });
    const r3 = await t.api.post('/broadcasts').send(draftBody({ subject: undefined }));
    expect(r3.body).toEqual({ statusCode: 422, message: 'Missing `subject` field.', name: 'missing_required_field' });
  });

  it('rejects a segment_id that is not a UUID', async () => {
    const res = await t.api.post('/broadcasts').send(draftBody({ segment_id: 'nope' }));
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('invalid_parameter');
  });

  it('rejects scheduled_at without send: true (422 validation_error)', async () => {
    const res = await t.api.post('/broadcasts').send(draftBody({ scheduled_at: 'in 1 hour' }));
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toContain('scheduled_at');
    const res2 = await t.api.post('/broadcasts').send(draftBody({ scheduled_at: 'in 1 hour', send: false }));
    expect(res2.status).toBe(422);
    expect((await t.api.get('/broadcasts')).body.data).toHaveLength(2);
  });

  it('create with send: true and scheduled_at schedules it', async () => {
    const id = await createBroadcast(t, { send: true, scheduled_at: 'in 1 hour' });
    const b = await getBroadcast(t, id);
    expect(b.status).toBe('scheduled');
    expect(Date.parse(b.scheduled_at.replace(' ', 'T').replace('+00', 'Z'))).toBe(t.emu.clock.now().getTime() + 3_600_000);
  });

  it('create with send: true and no scheduled_at queues it at once', async () => {
    const id = await createBroadcast(t, { send: true });
    expect((await getBroadcast(t, id)).status).toBe('queued');
  });

  it('lists items with exactly the spec fields (audience_id and segment_id, no topic_id), newest first', async () => {
    const id = await createBroadcast(t, { topic_id: null });
    const res = await t.api.get('/broadcasts');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((b: any) => b.id)).toEqual([id, DRAFT_BROADCAST, SENT_BROADCAST]);
    for (const item of res.body.data) {
      expect(Object.keys(item).sort()).toEqual(['audience_id', 'created_at', 'id', 'name', 'scheduled_at', 'segment_id', 'sent_at', 'status']);
    }
    const sent = res.body.data.find((b: any) => b.id === SENT_BROADCAST);
    expect(sent.status).toBe('sent');
    expect(sent.sent_at).toMatch(TS);
  });

  it('lists all without limit, pages with limit/after/before', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createBroadcast(t, { name: `b${i}` }));
    const all = await t.api.get('/broadcasts');
    expect(all.body.data).toHaveLength(5);
    const p1 = await t.api.get('/broadcasts?limit=2');
    expect(p1.body.has_more).toBe(true);
    expect(p1.body.data.map((b: any) => b.id)).toEqual([ids[2], ids[1]]);
    const p2 = await t.api.get(`/broadcasts?limit=2&after=${ids[1]}`);
    expect(p2.body.data.map((b: any) => b.id)).toEqual([ids[0], DRAFT_BROADCAST]);
    const back = await t.api.get(`/broadcasts?limit=2&before=${ids[0]}`);
    expect(back.body.data.map((b: any) => b.id)).toEqual([ids[2], ids[1]]);
    const both = await t.api.get(`/broadcasts?after=${ids[0]}&before=${ids[1]}`);
    expect(both.status).toBe(422);
    expect(both.body.name).toBe('validation_error');
    const bad = await t.api.get('/broadcasts?limit=101');
    expect(bad.status).toBe(422);
  });

  it('another team sees none of them and gets 404 "Broadcast not found"', async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get('/broadcasts')).body.data).toEqual([]);
    const res = await other.get(`/broadcasts/${DRAFT_BROADCAST}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Broadcast not found', name: 'not_found' });
  });

  it('seeds a draft and a sent broadcast for the default team', async () => {
    const draft = await getBroadcast(t, DRAFT_BROADCAST);
    expect(draft.status).toBe('draft');
    expect(draft.segment_id).toBe(NEWSLETTER_SEGMENT);
    const sent = await getBroadcast(t, SENT_BROADCAST);
    expect(sent.status).toBe('sent');
    expect(sent.sent_at).toBe('2026-01-04 10:00:00.000000+00');
  });
});

describe('broadcasts: update, remove, duplicate', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' }); // the demo set holds a sent broadcast (SENT_BROADCAST)

  it('updates any field of a draft → {object, id}', async () => {
    const id = await createBroadcast(t);
    const res = await t.api.patch(`/broadcasts/${id}`).send({ name: 'Renamed', subject: 'New subject', reply_to: ['a@example.com', 'b@example.com'], text: 'plain' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'broadcast', id });
    const b = await getBroadcast(t, id);
    expect(b).toMatchObject({ name: 'Renamed', subject: 'New subject', reply_to: ['a@example.com', 'b@example.com'], text: 'plain', status: 'draft' });
  });

  it('updates a scheduled broadcast and keeps it scheduled', async () => {
    const id = await createBroadcast(t, { send: true, scheduled_at: 'in 2 hours' });
    const res = await t.api.patch(`/broadcasts/${id}`).send({ subject: 'Edited' });
    expect(res.status).toBe(200);
    const b = await getBroadcast(t, id);
    expect(b.subject).toBe('Edited');
    expect(b.status).toBe('scheduled');
  });

  it('after sending only the name can change (403 validation_error otherwise)', async () => {
    const res = await t.api.patch(`/broadcasts/${SENT_BROADCAST}`).send({ subject: 'Too late' });
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toContain('sent');
    const ok = await t.api.patch(`/broadcasts/${SENT_BROADCAST}`).send({ name: 'Archive name' });
    expect(ok.status).toBe(200);
    const b = await getBroadcast(t, SENT_BROADCAST);
    expect(b.name).toBe('Archive name');
    expect(b.subject).toBe('What is new in January');
  });

  it('a queued broadcast cannot be edited either, but can be renamed', async () => {
    const id = await createBroadcast(t, { send: true });
    expect((await t.api.patch(`/broadcasts/${id}`).send({ html: '<p>x</p>' })).status).toBe(403);
    expect((await t.api.patch(`/broadcasts/${id}`).send({ name: 'x' })).status).toBe(200);
  });

  it('update of an unknown broadcast is 404', async () => {
    const res = await t.api.patch('/broadcasts/00000000-0000-4000-8000-000000000000').send({ name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Broadcast not found');
  });

  it('deletes a draft → {object, id, deleted}', async () => {
    const id = await createBroadcast(t);
    const res = await t.api.delete(`/broadcasts/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'broadcast', id, deleted: true });
    expect((await t.api.get(`/broadcasts/${id}`)).status).toBe(404);
  });

  it('deleting a scheduled broadcast drops its send', async () => {
    const id = await createBroadcast(t, { send: true, scheduled_at: 'in 10 minutes' });
    expect((await t.api.delete(`/broadcasts/${id}`)).status).toBe(200);
    expect(schedulerOf(t.emu).pending().filter((j) => j.type.startsWith('broadcasts.'))).toEqual([]);
    const fired = await t.emu.clock.advance('1h');
    expect(fired.filter((j) => j.type.startsWith('broadcasts.'))).toEqual([]);
  });

  it('refuses to delete a sent or queued broadcast (403 validation_error)', async () => {
    const res = await t.api.delete(`/broadcasts/${SENT_BROADCAST}`);
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('validation_error');
    const id = await createBroadcast(t, { send: true });
    expect((await t.api.delete(`/broadcasts/${id}`)).status).toBe(403);
    expect((await t.api.get(`/broadcasts/${id}`)).status).toBe(200);
  });

  it('duplicates into a new draft with the same content → 201 {object, id}', async () => {
    const res = await t.api.post(`/broadcasts/${SENT_BROADCAST}/duplicate`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'broadcast', id: expect.any(String) });
    expect(res.body.id).not.toBe(SENT_BROADCAST);
    const [copy, orig] = [await getBroadcast(t, res.body.id), await getBroadcast(t, SENT_BROADCAST)];
    expect(copy.status).toBe('draft');
    expect(copy.sent_at).toBeNull();
    for (const f of ['name', 'segment_id', 'from', 'subject', 'html', 'text', 'reply_to', 'preview_text', 'topic_id']) expect(copy[f]).toEqual(orig[f]);
  });
});

describe('broadcasts: send and cancel', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' }); // the demo set holds a sent broadcast (SENT_BROADCAST)

  it('send with scheduled_at in natural language → {id}, status scheduled', async () => {
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: 'in 1 hour' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: DRAFT_BROADCAST });
    const b = await getBroadcast(t, DRAFT_BROADCAST);
    expect(b.status).toBe('scheduled');
    expect(b.scheduled_at).toMatch(TS);
  });

  it('send with an ISO scheduled_at', async () => {
    const at = new Date(t.emu.clock.now().getTime() + 86_400_000);
    await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: at.toISOString() });
    const b = await getBroadcast(t, DRAFT_BROADCAST);
    expect(b.scheduled_at).toBe(`${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 23)}000+00`);
  });

  it('reads a date followed by words as an email does (`2026-08-05 at 9am` style, chrono on the emulated clock)', async () => {
    const day = new Date(t.emu.clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: `${day} at 9am` });
    expect(res.status).toBe(200);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).scheduled_at).toBe(`${day} 09:00:00.000000+00`);
  });

  it('rejects an unreadable scheduled_at (422 validation_error) and leaves the draft alone', async () => {
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: 'next blue moon' });
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('draft');
  });

  it('send without a body sends now: queued', async () => {
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`);
    expect(res.status).toBe(200);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('queued');
  });

  it('refuses to send a sent broadcast (403 validation_error)', async () => {
    const res = await t.api.post(`/broadcasts/${SENT_BROADCAST}/send`).send({});
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('validation_error');
  });

  it('refuses to send a broadcast without html or text (422)', async () => {
    const id = await createBroadcast(t, { html: undefined });
    const res = await t.api.post(`/broadcasts/${id}/send`).send({});
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect((await getBroadcast(t, id)).status).toBe('draft');
  });

  it('scheduled → queued when scheduled_at comes (a clock job)', async () => {
    await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: 'in 30 minutes' });
    await t.emu.clock.advance('29m');
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('scheduled');
    const fired = await t.emu.clock.advance('1m');
    expect(fired.map((j) => j.type)).toEqual(['broadcasts.start']);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('queued');
  });

  it('cancel of a scheduled broadcast → draft, nothing is sent, and it can be sent again', async () => {
    await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: 'in 1 hour' });
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'broadcast', id: DRAFT_BROADCAST });
    const b = await getBroadcast(t, DRAFT_BROADCAST);
    expect(b.status).toBe('draft');
    expect(b.scheduled_at).toBeNull();
    const fired = await t.emu.clock.advance('2h');
    expect(fired.filter((j) => j.type.startsWith('broadcasts.'))).toEqual([]);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('draft');
    expect((await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`).send({ scheduled_at: 'in 5 minutes' })).status).toBe(200);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('scheduled');
  });

  it('cancel of a queued broadcast → canceled (final): no further sending, no edits, no resend', async () => {
    await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`);
    const res = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/cancel`);
    expect(res.status).toBe(200);
    expect((await getBroadcast(t, DRAFT_BROADCAST)).status).toBe('canceled');
    const fired = await t.emu.clock.advance('1m');
    expect(fired.filter((j) => j.type.startsWith('broadcasts.'))).toEqual([]);
    expect((await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/send`)).status).toBe(403);
    expect((await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/cancel`)).status).toBe(403);
    expect((await t.api.patch(`/broadcasts/${DRAFT_BROADCAST}`).send({ subject: 'x' })).status).toBe(403);
  });

  it('refuses to cancel a draft or a sent broadcast (403 validation_error)', async () => {
    const d = await t.api.post(`/broadcasts/${DRAFT_BROADCAST}/cancel`);
    expect(d.status).toBe(403);
    expect(d.body.name).toBe('validation_error');
    expect(d.body.message).toContain('draft');
    const s = await t.api.post(`/broadcasts/${SENT_BROADCAST}/cancel`);
    expect(s.status).toBe(403);
  });
});

describe('broadcasts: recipients and clicked links', () => {
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' }); // the demo set holds a sent broadcast (SENT_BROADCAST)

  it('requires type and answers an empty list for a broadcast that sent nothing', async () => {
    const missing = await t.api.get(`/broadcasts/${DRAFT_BROADCAST}/recipients`);
    expect(missing.status).toBe(422);
    expect(missing.body.name).toBe('missing_required_parameter');
    const bad = await t.api.get(`/broadcasts/${DRAFT_BROADCAST}/recipients?type=read`);
    expect(bad.status).toBe(422);
    const res = await t.api.get(`/broadcasts/${DRAFT_BROADCAST}/recipients?type=sent`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', has_more: false, data: [] });
    const links = await t.api.get(`/broadcasts/${DRAFT_BROADCAST}/clicked-links`);
    expect(links.body).toEqual({ object: 'list', has_more: false, data: [] });
  });

  it('bounce_type only with type=bounced (422)', async () => {
    const res = await t.api.get(`/broadcasts/${DRAFT_BROADCAST}/recipients?type=sent&bounce_type=permanent`);
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
  });

  it('404 for an unknown broadcast', async () => {
    const res = await t.api.get('/broadcasts/00000000-0000-4000-8000-000000000000/clicked-links');
    expect(res.status).toBe(404);
  });
});
