import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { DRAFT_BROADCAST, NEWSLETTER_SEGMENT, SENT_BROADCAST } from '../resources/broadcasts/helpers.js';

describe('SDK: resend.broadcasts', () => {
  const emu = useEmulator({ validateResponses: true, fixtures: 'demo' }); // the demo set holds a sent broadcast (SENT_BROADCAST)
  const sdk = () => emu.resend;

  it('create, get, update, list, duplicate, remove', async () => {
    const resend = sdk();
    const created = await resend.broadcasts.create({
      segmentId: NEWSLETTER_SEGMENT,
      from: 'Acme <news@example.com>',
      subject: 'Hello',
      html: '<p>Hi {{{contact.first_name|there}}}</p>',
      replyTo: 'help@example.com',
      previewText: 'Preview',
      name: 'SDK broadcast',
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;

    const got = await resend.broadcasts.get(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ object: 'broadcast', id, name: 'SDK broadcast', segment_id: NEWSLETTER_SEGMENT, audience_id: NEWSLETTER_SEGMENT, reply_to: ['help@example.com'], preview_text: 'Preview', status: 'draft', topic_id: null });

    const upd = await resend.broadcasts.update(id, { subject: 'Hello again', text: 'Hi' });
    expect(upd.data).toEqual({ object: 'broadcast', id });
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ subject: 'Hello again', text: 'Hi' });

    const list = await resend.broadcasts.list();
    expect(list.data!.data.map((b) => b.id)).toEqual([id, DRAFT_BROADCAST, SENT_BROADCAST]);
    const page = await resend.broadcasts.list({ limit: 1, after: id });
    expect(page.data!.data.map((b) => b.id)).toEqual([DRAFT_BROADCAST]);
    expect(page.data!.has_more).toBe(true);

    const dup = await resend.broadcasts.duplicate(id);
    expect(dup.data).toEqual({ object: 'broadcast', id: expect.any(String) });
    expect((await resend.broadcasts.get(dup.data!.id)).data).toMatchObject({ subject: 'Hello again', status: 'draft' });

    const del = await resend.broadcasts.remove(id);
    expect(del.data).toEqual({ object: 'broadcast', id, deleted: true });
    const gone = await resend.broadcasts.get(id);
    expect(gone.data).toBeNull();
    expect(gone.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Broadcast not found' });
  });

  it('create and update map topicId, previewText, replyTo and segmentId', async () => {
    const resend = sdk();
    const TOPIC = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const created = await resend.broadcasts.create({ segmentId: NEWSLETTER_SEGMENT, from: 'a@example.com', subject: 's', html: '<p>x</p>', topicId: TOPIC, replyTo: ['a@example.com', 'b@example.com'] });
    expect(created.data).toEqual({ object: 'broadcast', id: expect.any(String) });
    const id = created.data!.id;
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ topic_id: TOPIC, reply_to: ['a@example.com', 'b@example.com'] });
    const upd = await resend.broadcasts.update(id, { previewText: 'Soon', replyTo: ['c@example.com'], name: 'Renamed' });
    expect(upd.data).toEqual({ object: 'broadcast', id });
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ name: 'Renamed', preview_text: 'Soon', reply_to: ['c@example.com'], topic_id: TOPIC, segment_id: NEWSLETTER_SEGMENT });
    const rec = await resend.broadcasts.recipients(id, { type: 'bounced', email: 'x@example.com', bounceType: 'permanent', limit: 5 });
    expect(rec.data).toEqual({ object: 'list', has_more: false, data: [] });
  });

  it('audienceId (deprecated) still works', async () => {
    const res = await sdk().broadcasts.create({ audienceId: NEWSLETTER_SEGMENT, from: 'a@example.com', subject: 's', text: 't' });
    expect(res.error).toBeNull();
    expect((await sdk().broadcasts.get(res.data!.id)).data!.segment_id).toBe(NEWSLETTER_SEGMENT);
  });

  it('send with scheduledAt, cancel back to draft, send now', async () => {
    const resend = sdk();
    const sched = await resend.broadcasts.send(DRAFT_BROADCAST, { scheduledAt: 'in 1 hour' });
    expect(sched.data).toEqual({ id: DRAFT_BROADCAST });
    expect((await resend.broadcasts.get(DRAFT_BROADCAST)).data!.status).toBe('scheduled');
    const cancel = await resend.broadcasts.cancel(DRAFT_BROADCAST);
    expect(cancel.data).toEqual({ object: 'broadcast', id: DRAFT_BROADCAST });
    expect((await resend.broadcasts.get(DRAFT_BROADCAST)).data).toMatchObject({ status: 'draft', scheduled_at: null });
    const now = await resend.broadcasts.send(DRAFT_BROADCAST);
    expect(now.data).toEqual({ id: DRAFT_BROADCAST });
    expect((await resend.broadcasts.get(DRAFT_BROADCAST)).data!.status).toBe('queued');
  });

  it('create with send: true and scheduledAt', async () => {
    const res = await sdk().broadcasts.create({ segmentId: NEWSLETTER_SEGMENT, from: 'a@example.com', subject: 's', html: '<p>x</p>', send: true, scheduledAt: 'in 2 days' });
    expect(res.error).toBeNull();
    expect((await sdk().broadcasts.get(res.data!.id)).data!.status).toBe('scheduled');
  });

  it('errors reach the caller in the service shape', async () => {
    const resend = sdk();
    const cancel = await resend.broadcasts.cancel(SENT_BROADCAST);
    expect(cancel.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
    const del = await resend.broadcasts.remove(SENT_BROADCAST);
    expect(del.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
    const upd = await resend.broadcasts.update(SENT_BROADCAST, { subject: 'x' });
    expect(upd.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
  });

  it('recipients and clickedLinks of a broadcast that sent nothing', async () => {
    const resend = sdk();
    const rec = await resend.broadcasts.recipients(DRAFT_BROADCAST, { type: 'sent', limit: 10 });
    expect(rec.error).toBeNull();
    expect(rec.data).toEqual({ object: 'list', has_more: false, data: [] });
    const links = await resend.broadcasts.clickedLinks(DRAFT_BROADCAST);
    expect(links.data).toEqual({ object: 'list', has_more: false, data: [] });
  });
});
