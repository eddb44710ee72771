/**
 * A template's versions go with it (foreign key of `template_versions`,
 * templates' migration 40): deleting a template through the API removes
 * its versions, and only its own.
 */
import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';

describe('template versions go with their template', () => {
  const t = useFreshEmulatorPerTest();
  const versions = (id: string) => (storeOf(t.emu).prepare('SELECT COUNT(*) AS n FROM template_versions WHERE template_id = ?').get(id) as { n: number }).n;

  it('deleting a template removes its draft and published versions, not another template\'s', async () => {
    const mk = async (name: string) => (await t.api.post('/templates').send({ name, html: '<p>Hi</p>' })).body.id as string;
    const [a, b] = [await mk('A'), await mk('B')];
    expect((await t.api.post(`/templates/${a}/publish`)).status).toBe(200);
    expect((await t.api.patch(`/templates/${a}`).send({ html: '<p>Draft</p>' })).status).toBe(200);
    expect(versions(a)).toBeGreaterThanOrEqual(1);
    expect(versions(b)).toBe(1);
    expect((await t.api.delete(`/templates/${a}`)).status).toBe(200);
    expect(versions(a)).toBe(0);
    expect(versions(b)).toBe(1);
  });
});
