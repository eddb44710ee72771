// These tests need the topics and contacts modules (POST /topics and the
// CONTRACT src/resources/contacts/service.ts) merged: they fail until then.
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';

describe('POST /emails with topic_id', () => {
  const t = useFreshEmulatorPerTest();
  const send = (body: Record<string, unknown>) => t.api.post('/emails').send({ from: 'hello@example.com', subject: 's', text: 'x', ...body });

  it('sends to a non-contact only when the topic defaults to opt_in; else the email fails', async () => {
    const optIn = await t.api.post('/topics').send({ name: 'News', default_subscription: 'opt_in' });
    const optOut = await t.api.post('/topics').send({ name: 'Promos', default_subscription: 'opt_out' });
    expect(optIn.status).toBe(201);
    const a = await send({ to: 'delivered@resend.dev', topic_id: optIn.body.id });
    const b = await send({ to: 'delivered@resend.dev', topic_id: optOut.body.id });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    await t.emu.clock.advance('3s');
    expect((await t.api.get(`/emails/${a.body.id}`)).body).toMatchObject({ last_event: 'delivered', topic_id: optIn.body.id });
    expect((await t.api.get(`/emails/${b.body.id}`)).body.last_event).toBe('failed');
  });

  it('answers 404 for a topic of no team', async () => {
    const res = await send({ to: 'delivered@resend.dev', topic_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' });
    expect(res.status).toBe(404);
  });
});
