// POST /emails with a template: rendered through the templates module's
// CONTRACT src/resources/templates/render.ts.
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';

describe('POST /emails with a template', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  async function publishedTemplate(extra: Record<string, unknown> = {}) {
    const created = await t.api.post('/templates').send({
      name: 'Welcome',
      alias: 'onboarding-test',
      from: 'Acme <hello@example.com>',
      subject: 'Welcome, {{{NAME}}}',
      html: '<p>Hi {{{NAME}}}, your plan is {{{PLAN|free}}}. <a href="https://example.com/start">Start</a></p>',
      variables: [
        { key: 'NAME', type: 'string' },
        { key: 'PLAN', type: 'string', fallback_value: 'free' },
      ],
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pub = await t.api.post(`/templates/${created.body.id}/publish`);
    expect(pub.status).toBe(200);
    return created.body.id as string;
  }

  it('renders the published template by id or alias, with its from and subject', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.test/t', events: ['email.sent'] });
    const id = await publishedTemplate();
    const res = await t.api.post('/emails').send({ to: 'delivered@resend.dev', template: { id, variables: { NAME: 'Ada' } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const email = await t.api.get(`/emails/${res.body.id}`);
    expect(email.body).toMatchObject({ from: 'Acme <hello@example.com>', subject: 'Welcome, Ada' });
    expect(email.body.html).toContain('Hi Ada, your plan is free.');
    expect(email.body.text).toContain('Hi Ada');
    const byAlias = await t.api.post('/emails').send({ to: 'delivered@resend.dev', subject: 'Custom', template: { id: 'onboarding-test', variables: { NAME: 'Bo', PLAN: 'pro' } } });
    expect(byAlias.status).toBe(200);
    const b = await t.api.get(`/emails/${byAlias.body.id}`);
    expect(b.body.subject).toBe('Custom');
    expect(b.body.html).toContain('your plan is pro');
    await t.emu.clock.advance('1s');
    const data = t.emu.webhookDeliveries({ event_type: 'email.sent' })[0].payload.data;
    expect(data.template_id).toBe(id);
    expect(t.emu.emails()[0].template_id).toBe(id);
  });

  it('refuses a missing variable without fallback (422) and an unknown template (404)', async () => {
    const id = await publishedTemplate();
    const missing = await t.api.post('/emails').send({ to: 'delivered@resend.dev', template: { id } });
    expect(missing.status).toBe(422);
    expect(missing.body.name).toBe('validation_error');
    expect(missing.body.message).toContain('NAME');
    const unknown = await t.api.post('/emails').send({ to: 'delivered@resend.dev', template: { id: 'no-such-template' } });
    expect(unknown.status).toBe(404);
  });
});
