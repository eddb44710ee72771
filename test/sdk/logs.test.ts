import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { FIXTURES } from '../helpers.js';
import request from 'supertest';

describe('SDK: resend.logs and resend.oauthGrants', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('logs.list and logs.get show the SDK calls with its user agent', async () => {
    const resend = sdk();
    const key = await resend.apiKeys.create({ name: 'for-logs' });
    expect(key.error).toBeNull();
    const list = await resend.logs.list({ limit: 5 });
    expect(list.error).toBeNull();
    const [item] = list.data!.data;
    expect(item).toMatchObject({ endpoint: '/api-keys', method: 'POST', response_status: 201, user_agent: expect.stringMatching(/^resend-node:/) });
    const one = await resend.logs.get(item.id);
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({ object: 'log', id: item.id, request_body: { name: 'for-logs' }, response_body: { object: 'api_key', id: key.data!.id } });
    const missing = await resend.logs.get('00000000-0000-4000-8000-000000000000');
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('oauthGrants.list and revoke', async () => {
    const resend = sdk();
    const created = await request(emu.url).post('/_emulator/oauth-grants').send({ team_id: FIXTURES.defaultTeamId, client_name: 'Zapier', scopes: ['emails:send'] });
    expect(created.status).toBe(201);
    const list = await resend.oauthGrants.list();
    expect(list.error).toBeNull();
    expect(list.data!.data.map((g) => g.client.name)).toEqual(['Zapier', 'Example CLI']);
    const revoked = await resend.oauthGrants.revoke(created.body.id);
    expect(revoked.data).toEqual({ object: 'oauth_grant', id: created.body.id, revoked_at: expect.stringMatching(/Z$/), revoked_reason: 'revoked_from_api' });
    const again = await resend.oauthGrants.revoke(created.body.id);
    expect(again.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const after = await resend.oauthGrants.list({ limit: 1 });
    expect(after.data!.data[0]).toMatchObject({ id: created.body.id, revoked_reason: 'revoked_from_api' });
    expect(after.data!.has_more).toBe(true);
  });
});
