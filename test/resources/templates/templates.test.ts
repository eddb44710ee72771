import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { renderTemplate, resolvePublishedTemplate } from '../../../src/resources/templates/render.js';
import { contextOf } from '../../../src/internals.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const FIXTURE_TEMPLATE = '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe('templates', () => {
  const t = useFreshEmulatorPerTest();

  const create = (body: Record<string, unknown>) => t.api.post('/templates').send({ name: 'Welcome', html: '<p>Hi {{{NAME}}}</p>', ...body });

  it('creates a draft and shows every field of the SPEC table', async () => {
    const res = await create({
      alias: 'welcome-v2',
      from: 'Acme <hi@example.com>',
      subject: 'Hello {{{NAME}}}',
      reply_to: 'support@example.com',
      text: 'Hi {{{NAME}}}',
      variables: [{ key: 'NAME', type: 'string', fallback_value: 'friend' }, { key: 'COUNT', type: 'number', fallback_value: 3 }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'template', id: expect.any(String) });
    const got = await t.api.get(`/templates/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      object: 'template',
      id: res.body.id,
      current_version_id: expect.any(String),
      alias: 'welcome-v2',
      name: 'Welcome',
      created_at: expect.stringMatching(TS),
      updated_at: expect.stringMatching(TS),
      published_at: null,
      status: 'draft',
      from: 'Acme <hi@example.com>',
      subject: 'Hello {{{NAME}}}',
      reply_to: 'support@example.com',
      html: '<p>Hi {{{NAME}}}</p>',
      text: 'Hi {{{NAME}}}',
      variables: [
        { id: expect.any(String), key: 'NAME', type: 'string', fallback_value: 'friend', created_at: expect.stringMatching(TS), updated_at: expect.stringMatching(TS) },
        { id: expect.any(String), key: 'COUNT', type: 'number', fallback_value: 3, created_at: expect.stringMatching(TS), updated_at: expect.stringMatching(TS) },
      ],
      has_unpublished_versions: false,
    });
    const byAlias = await t.api.get('/templates/welcome-v2');
    expect(byAlias.body.id).toBe(res.body.id);
  });

  it('shows reply_to as a string or null (SPEC), whatever form it was sent in', async () => {
    const arr = await create({ reply_to: ['a@example.com'] });
    expect((await t.api.get(`/templates/${arr.body.id}`)).body.reply_to).toBe('a@example.com');
    const none = await create({});
    const got = (await t.api.get(`/templates/${none.body.id}`)).body;
    expect(got.reply_to).toBeNull();
    expect(got.from).toBeNull();
    expect(got.subject).toBeNull();
    expect(got.text).toBeNull();
    expect(got.alias).toBeNull();
    expect(got.variables).toEqual([]);
  });

  it('requires html and name', async () => {
    const noHtml = await t.api.post('/templates').send({ name: 'x' });
    expect(noHtml.status).toBe(422);
    expect(noHtml.body).toEqual({ statusCode: 422, message: 'Missing `html` field.', name: 'missing_required_field' });
    const noName = await t.api.post('/templates').send({ html: '<p/>' });
    expect(noName.status).toBe(422);
    expect(noName.body.name).toBe('missing_required_field');
  });

  // The rules of `variables`, one per test (a failure hides no other).
  it('variables: at most 50', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ key: `V${i}`, type: 'string' }));
    const tooMany = await create({ variables: many });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.name).toBe('validation_error');
    expect((await create({ variables: many.slice(0, 50) })).status).toBe(201);
  });

  it('variables: a key of letters, digits and underscores, at most 50 characters', async () => {
    const badKey = await create({ variables: [{ key: 'first-name', type: 'string' }] });
    expect(badKey.status).toBe(422);
    expect(badKey.body.name).toBe('validation_error');
    expect(badKey.body.message).toContain('variables[0].key');
    expect((await create({ variables: [{ key: 'K'.repeat(51), type: 'string' }] })).status).toBe(422);
    expect((await create({ variables: [{ key: 'K'.repeat(50), type: 'string' }] })).status).toBe(201);
  });

  it('variables: type is string, number, boolean, object or list (400 for another)', async () => {
    const badType = await create({ variables: [{ key: 'A', type: 'date' }] });
    expect(badType.status).toBe(400);
    expect(badType.body.name).toBe('validation_error');
    for (const type of ['boolean', 'object', 'list']) expect((await create({ variables: [{ key: 'A', type }] })).status, type).toBe(201);
  });

  it.each(['FIRST_NAME', 'LAST_NAME', 'EMAIL', 'UNSUBSCRIBE_URL', 'contact', 'this'])('variables: the reserved key %s is refused', async (key) => {
    const reserved = await create({ variables: [{ key, type: 'string' }] });
    expect(reserved.status).toBe(422);
    expect(reserved.body.name).toBe('validation_error');
    expect(reserved.body.message).toContain('reserved');
  });

  it('variables: a key given twice is refused, naming it', async () => {
    const dup = await create({ variables: [{ key: 'A', type: 'string' }, { key: 'A', type: 'number' }] });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toContain('`A`');
  });

  it("variables: a fallback_value of another type than the variable's is refused", async () => {
    const fb = await create({ variables: [{ key: 'N', type: 'number', fallback_value: 'three' }] });
    expect(fb.status).toBe(422);
    expect(fb.body.name).toBe('validation_error');
  });

  it('rejects an alias already used by another template of the team', async () => {
    expect((await create({ alias: 'dup' })).status).toBe(201);
    const again = await create({ alias: 'dup' });
    expect(again.status).toBe(422);
    expect(again.body.name).toBe('validation_error');
    expect((await t.as(FIXTURES.secondTeamKey).post('/templates').send({ name: 'x', html: 'x', alias: 'dup' })).status).toBe(201);
  });

  it('lists newest first with 20 items by default and the list fields', async () => {
    for (let i = 0; i < 21; i++) await create({ name: `T${i}` });
    const res = await t.api.get('/templates');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data).toHaveLength(20);
    expect(res.body.has_more).toBe(true);
    expect(res.body.data[0].name).toBe('T20');
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['alias', 'created_at', 'id', 'name', 'published_at', 'status', 'updated_at']);
    const next = await t.api.get(`/templates?after=${res.body.data[19].id}`);
    expect(next.body.data.map((x: any) => x.name)).toEqual(['T0', 'Welcome']);
  });

  it('publishes: draft → published; later edits form a new draft version used only after re-publishing', async () => {
    const { body } = await create({ subject: 'v1 {{{NAME}}}', variables: [{ key: 'NAME', type: 'string', fallback_value: 'you' }] });
    const pub = await t.api.post(`/templates/${body.id}/publish`);
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual({ object: 'template', id: body.id });
    const published = (await t.api.get(`/templates/${body.id}`)).body;
    expect(published.status).toBe('published');
    expect(published.published_at).toMatch(TS);
    expect(published.has_unpublished_versions).toBe(false);

    const upd = await t.api.patch(`/templates/${body.id}`).send({ html: '<p>v2 {{{NAME}}}</p>' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ object: 'template', id: body.id });
    const edited = (await t.api.get(`/templates/${body.id}`)).body;
    expect(edited.status).toBe('published');
    expect(edited.has_unpublished_versions).toBe(true);
    expect(edited.html).toBe('<p>v2 {{{NAME}}}</p>');
    expect(edited.current_version_id).not.toBe(published.current_version_id);
    expect(edited.variables[0].id).toBe(published.variables[0].id);

    const ctx = contextOf(t.emu);
    const sendable = resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, body.id);
    expect(sendable.html).toBe('<p>Hi {{{NAME}}}</p>');

    await t.api.post(`/templates/${body.id}/publish`);
    expect(resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, body.id).html).toBe('<p>v2 {{{NAME}}}</p>');
    expect((await t.api.get(`/templates/${body.id}`)).body.has_unpublished_versions).toBe(false);
  });

  it('renames and re-aliases without a new version', async () => {
    const { body } = await create({ alias: 'a1' });
    await t.api.post(`/templates/${body.id}/publish`);
    await t.api.patch('/templates/a1').send({ name: 'Renamed', alias: 'a2' });
    const got = (await t.api.get('/templates/a2')).body;
    expect(got.name).toBe('Renamed');
    expect(got.has_unpublished_versions).toBe(false);
    expect((await t.api.get('/templates/a1')).status).toBe(404);
  });

  it('duplicates into a draft copy without alias', async () => {
    const { body } = await create({ alias: 'orig', subject: 'S', variables: [{ key: 'NAME', type: 'string' }] });
    await t.api.post(`/templates/${body.id}/publish`);
    const dup = await t.api.post('/templates/orig/duplicate');
    expect(dup.status).toBe(200);
    expect(dup.body).toEqual({ object: 'template', id: expect.any(String) });
    expect(dup.body.id).not.toBe(body.id);
    const copy = (await t.api.get(`/templates/${dup.body.id}`)).body;
    expect(copy).toMatchObject({ name: 'Welcome (copy)', alias: null, status: 'draft', subject: 'S', html: '<p>Hi {{{NAME}}}</p>', published_at: null });
    expect(copy.variables.map((v: any) => v.key)).toEqual(['NAME']);
  });

  it('removes by id or alias; unknown is 404 "Template not found"', async () => {
    const { body } = await create({ alias: 'gone' });
    const del = await t.api.delete('/templates/gone');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: 'template', id: body.id, deleted: true });
    for (const res of [await t.api.get(`/templates/${body.id}`), await t.api.delete(`/templates/${body.id}`), await t.api.post('/templates/nope/publish'), await t.api.patch('/templates/nope').send({ name: 'x' })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Template not found', name: 'not_found' });
    }
  });

  it("never shows another team's template", async () => {
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/templates/${FIXTURE_TEMPLATE}`)).status).toBe(404);
    expect((await other.get('/templates/welcome')).status).toBe(404);
    expect((await other.get('/templates')).body.data).toEqual([]);
  });

  it('seeds a published fixture template with alias and variables', async () => {
    const got = (await t.api.get('/templates/welcome')).body;
    expect(got).toMatchObject({ id: FIXTURE_TEMPLATE, status: 'published', from: 'Acme <welcome@example.com>', has_unpublished_versions: false });
    expect(got.variables.map((v: any) => [v.key, v.fallback_value])).toEqual([['NAME', 'there'], ['PLAN', 'free']]);
  });
});

describe('template rendering contract', () => {
  const t = useFreshEmulatorPerTest();

  it('fills values, then inline fallbacks, then declared fallbacks; a variable with none is 422 naming it', async () => {
    const { body } = await t.api.post('/templates').send({
      name: 'R',
      subject: 'Hi {{{NAME}}}',
      html: '<p>{{{NAME}}} / {{{ CITY | Paris }}} / {{{COUNT}}} / {{{MISSING}}}</p>',
      text: '{{{NAME}}}',
      variables: [{ key: 'NAME', type: 'string', fallback_value: 'there' }, { key: 'COUNT', type: 'number', fallback_value: 0 }, { key: 'MISSING', type: 'string' }, { key: 'CITY', type: 'string', fallback_value: 'Rome' }],
    });
    const ctx = contextOf(t.emu);
    expect(() => resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, body.id)).toThrowError(/not been published/);
    try {
      resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, body.id);
    } catch (e: any) {
      expect(e.statusCode).toBe(422);
      expect(e.name).toBe('validation_error');
    }
    await t.api.post(`/templates/${body.id}/publish`);
    const tpl = resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, body.id);
    const out = renderTemplate(tpl, { NAME: 'Ada', COUNT: 7, MISSING: 'x' });
    expect(out).toEqual({ from: null, subject: 'Hi Ada', reply_to: null, html: '<p>Ada / Paris / 7 / x</p>', text: 'Ada' });
    expect(renderTemplate(tpl, { MISSING: 'y' }).html).toBe('<p>there / Paris / 0 / y</p>');
    try {
      renderTemplate(tpl, {});
      expect.unreachable();
    } catch (e: any) {
      expect(e.statusCode).toBe(422);
      expect(e.name).toBe('validation_error');
      expect(e.message).toContain('`MISSING`');
    }
    expect(() => renderTemplate(tpl, { MISSING: 'x'.repeat(2001) })).toThrowError(/2000/);
  });

  it('resolves by alias; unknown is 404 Template not found', async () => {
    const ctx = contextOf(t.emu);
    expect(resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, 'welcome').id).toBe(FIXTURE_TEMPLATE);
    try {
      resolvePublishedTemplate(ctx, FIXTURES.defaultTeamId, 'nope');
      expect.unreachable();
    } catch (e: any) {
      expect(e.statusCode).toBe(404);
      expect(e.message).toBe('Template not found');
    }
    expect(() => resolvePublishedTemplate(ctx, FIXTURES.secondTeamId, 'welcome')).toThrowError('Template not found');
  });
});
