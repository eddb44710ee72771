/**
 * `topic.created`, `topic.updated`, `topic.deleted` and
 * `contact.topics.updated` are raised by the changes that cause them, with
 * the SDK's payload types (`TopicEventData`, `ContactTopicsUpdatedEvent`),
 * and `resend.webhooks.verify` accepts each delivery.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resend, type ContactTopicsUpdatedEvent, type TopicCreatedEvent, type TopicDeletedEvent, type TopicUpdatedEvent } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('SDK: topic and contact-topic webhook events', () => {
  const emu = useEmulator({ validateResponses: true });

  it('raises each of the four events, verified by resend.webhooks.verify', async () => {
    rx = await startReceiver();
    const resend = new Resend(emu.server.apiKey, { baseUrl: emu.server.url });
    const { data: hook } = await resend.webhooks.create({ endpoint: rx.url, events: ['topic.created', 'topic.updated', 'topic.deleted', 'contact.topics.updated'] });
    const verified = () => rx!.requests.map((r) => resend.webhooks.verify(verifyInput(r, hook!.signing_secret)));

    const createdAt = emu.server.clock.now().toISOString();
    const { data: topic } = await resend.topics.create({ name: 'Product news', defaultSubscription: 'opt_in', description: 'Monthly' });
    await emu.server.clock.advance('1m');
    const updatedAt = emu.server.clock.now().toISOString();
    await resend.topics.update({ id: topic!.id, name: 'Product updates' });
    const { data: contact } = await resend.contacts.create({ email: 'ada@example.org' });
    await resend.contacts.topics.update({ id: contact!.id, topics: [{ id: topic!.id, subscription: 'opt_out' }] });
    await emu.server.clock.advance('1m');
    const deletedAt = emu.server.clock.now().toISOString();
    await resend.topics.remove(topic!.id);
    await emu.server.clock.advance(0);

    const events = verified();
    expect(events.map((e) => e.type)).toEqual(['topic.created', 'topic.updated', 'contact.topics.updated', 'topic.deleted']);
    const [created, updated, contactTopics, deleted] = events as [TopicCreatedEvent, TopicUpdatedEvent, ContactTopicsUpdatedEvent, TopicDeletedEvent];
    expect(created).toEqual({
      type: 'topic.created', created_at: expect.stringMatching(ISO),
      data: { id: topic!.id, name: 'Product news', description: 'Monthly', default_subscription: 'opt_in', deleted: false, created_at: createdAt, updated_at: createdAt },
    });
    expect(updated.data).toEqual({ ...created.data, name: 'Product updates', updated_at: updatedAt });
    expect(contactTopics).toEqual({
      type: 'contact.topics.updated', created_at: updatedAt,
      data: { email: 'ada@example.org', topics: [{ id: topic!.id, subscription: 'opt_out' }] },
    });
    expect(deleted.data).toEqual({ ...updated.data, deleted: true, updated_at: deletedAt });
  });

  it('raises contact.topics.updated when a contact is created with topics', async () => {
    rx = await startReceiver();
    const resend = new Resend(emu.server.apiKey, { baseUrl: emu.server.url });
    const { data: topic } = await resend.topics.create({ name: 'Digest', defaultSubscription: 'opt_out' });
    const { data: hook } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.topics.updated'] });
    await resend.contacts.create({ email: 'bob@example.org', topics: [{ id: topic!.id, subscription: 'opt_in' }] } as any);
    await emu.server.clock.advance(0);
    expect(rx.requests).toHaveLength(1);
    expect(resend.webhooks.verify(verifyInput(rx.requests[0], hook!.signing_secret))).toMatchObject({
      type: 'contact.topics.updated', data: { email: 'bob@example.org', topics: [{ id: topic!.id, subscription: 'opt_in' }] },
    });
  });
});
