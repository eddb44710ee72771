import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';

describe('SDK: resend.templates', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('create → publish → get → update → list → duplicate → remove', async () => {
    const resend = sdk();
    const created = await resend.templates.create({
      name: 'Receipt',
      alias: 'receipt',
      from: 'Billing <billing@example.com>',
      subject: 'Receipt for {{{AMOUNT}}}',
      replyTo: 'help@example.com',
      html: '<p>Paid {{{AMOUNT}}}</p>',
      variables: [{ key: 'AMOUNT', type: 'number', fallbackValue: 0 }],
    });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'template', id: expect.any(String) });
    const id = created.data!.id;

    const published = await resend.templates.publish('receipt');
    expect(published.data).toEqual({ object: 'template', id });

    const got = await resend.templates.get(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({
      object: 'template',
      id,
      alias: 'receipt',
      name: 'Receipt',
      status: 'published',
      from: 'Billing <billing@example.com>',
      reply_to: 'help@example.com',
      has_unpublished_versions: false,
    });
    expect(got.data!.variables![0]).toMatchObject({ key: 'AMOUNT', type: 'number', fallback_value: 0 });

    const updated = await resend.templates.update(id, { html: '<p>Total {{{AMOUNT}}}</p>' });
    expect(updated.data).toEqual({ object: 'template', id });
    expect((await resend.templates.get('receipt')).data!.has_unpublished_versions).toBe(true);

    const list = await resend.templates.list({ limit: 1 });
    expect(list.data!.object).toBe('list');
    expect(list.data!.data).toHaveLength(1);
    expect(list.data!.has_more).toBe(true);
    expect(list.data!.data[0]).toMatchObject({ id, name: 'Receipt', status: 'published', alias: 'receipt' });

    const dup = await resend.templates.duplicate(id);
    expect(dup.data).toEqual({ object: 'template', id: expect.any(String) });
    expect((await resend.templates.get(dup.data!.id)).data).toMatchObject({ name: 'Receipt (copy)', status: 'draft', alias: null });

    const removed = await resend.templates.remove(id);
    expect(removed.data).toEqual({ object: 'template', id, deleted: true });
    const missing = await resend.templates.get(id);
    expect(missing.data).toBeNull();
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found', message: 'Template not found' });
  });

  it('chains create(...).publish()', async () => {
    const res = await sdk().templates.create({ name: 'Chained', html: '<p>hi</p>' }).publish();
    expect(res.data).toEqual({ object: 'template', id: expect.any(String) });
    expect((await sdk().templates.get(res.data!.id)).data!.status).toBe('published');
  });

  it('surfaces validation errors', async () => {
    const res = await sdk().templates.create({ name: 'Bad', html: '<p/>', variables: [{ key: 'EMAIL', type: 'string' }] });
    expect(res.data).toBeNull();
    expect(res.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});
