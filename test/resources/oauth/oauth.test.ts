import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
const FIXTURE_GRANT = 'd4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f7a';

describe('oauth grants', () => {
  const t = useFreshEmulatorPerTest();

  it('lists the seeded grant of the default team in the reference shape', async () => {
    const res = await t.api.get('/oauth/grants');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'list',
      has_more: false,
      data: [{
        id: FIXTURE_GRANT,
        client_id: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b',
        scopes: ['emails:send'],
        created_at: '2026-01-02 00:00:00.000000+00',
        revoked_at: null,
        revoked_reason: null,
        client: { name: 'Example CLI', logo_uri: null },
      }],
    });
  });

  it('creates grants through the admin API; 404 for an unknown team; body checked', async () => {
    const res = await t.anon.post('/_emulator/oauth-grants').send({ team_id: FIXTURES.secondTeamId, client_name: 'Zapier', scopes: ['emails:send', 'domains:read'], logo_uri: 'https://example.com/logo.png' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ client: { name: 'Zapier', logo_uri: 'https://example.com/logo.png' }, scopes: ['emails:send', 'domains:read'], revoked_at: null, created_at: expect.stringMatching(TS) });
    const list = await t.as(FIXTURES.secondTeamKey).get('/oauth/grants');
    expect(list.body.data.map((g: any) => g.id)).toEqual([res.body.id]);
    const unknown = await t.anon.post('/_emulator/oauth-grants').send({ team_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Team not found');
    const missing = await t.anon.post('/_emulator/oauth-grants').send({});
    expect(missing.status).toBe(422);
    expect(missing.body.name).toBe('missing_required_field');
  });

  it('revokes a grant → {object: "oauth_grant", id, revoked_at (ISO), revoked_reason}; it stays listed as revoked', async () => {
    await t.emu.clock.advance('1h');
    const res = await t.api.delete(`/oauth/grants/${FIXTURE_GRANT}`);
    expect(res.status).toBe(200);
    const now = t.emu.clock.now().toISOString();
    expect(res.body).toEqual({ object: 'oauth_grant', id: FIXTURE_GRANT, revoked_at: now, revoked_reason: 'revoked_from_api' });
    const list = await t.api.get('/oauth/grants');
    expect(list.body.data[0]).toMatchObject({ id: FIXTURE_GRANT, revoked_at: `${now.slice(0, 10)} ${now.slice(11, 23)}000+00`, revoked_reason: 'revoked_from_api' });
  });

  it('404 when revoking twice, an unknown grant, or another team\'s grant', async () => {
    const other = await t.as(FIXTURES.secondTeamKey).delete(`/oauth/grants/${FIXTURE_GRANT}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ statusCode: 404, message: 'OAuth grant not found', name: 'not_found' });
    expect((await t.api.delete(`/oauth/grants/${FIXTURE_GRANT}`)).status).toBe(200);
    const again = await t.api.delete(`/oauth/grants/${FIXTURE_GRANT}`);
    expect(again.status).toBe(404);
    expect((await t.api.delete('/oauth/grants/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('pages with limit', async () => {
    for (let i = 0; i < 3; i++) await t.anon.post('/_emulator/oauth-grants').send({ team_id: FIXTURES.defaultTeamId, client_name: `app${i}` });
    const all = await t.api.get('/oauth/grants');
    expect(all.body.data.map((g: any) => g.client.name)).toEqual(['app2', 'app1', 'app0', 'Example CLI']);
    const page = await t.api.get('/oauth/grants?limit=2');
    expect(page.body.has_more).toBe(true);
    expect(page.body.data).toHaveLength(2);
  });
});
