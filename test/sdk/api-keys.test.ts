/**
 * The official SDK's apiKeys methods against startServer(): create, list,
 * update (rename) and remove, each asserting the data the SDK returns.
 */
import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { useEmulator } from '../../src/vitest.js';
import { FIXTURES } from '../helpers.js';

describe('SDK: resend.apiKeys', () => {
  const emu = useEmulator({ validateResponses: true });
  const sdk = () => emu.resend;

  it('create → list → update → remove', async () => {
    const resend = sdk();
    const created = await resend.apiKeys.create({ name: 'deploys', permission: 'sending_access', domain_id: FIXTURES.verifiedDomainId });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'api_key', id: expect.any(String), token: expect.stringMatching(/^re_/) });
    const id = created.data!.id;

    const listed = await resend.apiKeys.list();
    expect(listed.data!.object).toBe('list');
    expect(listed.data!.data.find((k) => k.id === id)).toEqual({ id, name: 'deploys', created_at: expect.any(String), last_used_at: null });

    const renamed = await resend.apiKeys.update(id, { name: 'deploys (prod)' });
    expect(renamed.error).toBeNull();
    expect(renamed.data).toEqual({ object: 'api_key', id });
    expect((await resend.apiKeys.list()).data!.data.find((k) => k.id === id)!.name).toBe('deploys (prod)');

    // The new token sends from its domain, and nothing else.
    const sender = new Resend(created.data!.token, { baseUrl: emu.server.url });
    expect((await sender.domains.list()).error).toMatchObject({ statusCode: 401, name: 'restricted_api_key' });
    const sent = await sender.emails.send({ from: 'ci@example.com', to: 'delivered@resend.dev', subject: 'with a sending key', text: 'x' });
    expect(sent.data).toEqual({ id: expect.any(String) });
    expect((await resend.apiKeys.list()).data!.data.find((k) => k.id === id)!.last_used_at).toEqual(expect.any(String));

    const removed = await resend.apiKeys.remove(id);
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ object: 'list', id, deleted: true });
    expect((await resend.apiKeys.list()).data!.data.map((k) => k.id)).not.toContain(id);
    const again = await resend.apiKeys.update(id, { name: 'x' });
    expect(again.data).toBeNull();
    expect(again.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });
});
