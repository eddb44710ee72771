import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../helpers.js';

describe('publicUrl: the base of the absolute URLs the emulator hands out', () => {
  const t = useFreshEmulatorPerTest({ publicUrl: 'http://resend:4400/' });

  it('share URLs and broadcast unsubscribe links use it, not the listening address', async () => {
    const sent = await t.api.post('/emails').send({ from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'x', html: '<p>x</p>' });
    const share = await t.api.post(`/emails/${sent.body.id}/share`).send({});
    expect(share.status).toBe(200);
    expect(share.body.url).toMatch(/^http:\/\/resend:4400\/_emulator\//);

    const segment = (await t.api.post('/segments').send({ name: 'R' })).body.id;
    await t.api.post('/contacts').send({ email: 'ada@example.net', segments: [{ id: segment }] });
    await t.api.post('/broadcasts').send({ segment_id: segment, from: 'Acme <news@example.com>', subject: 's', html: '<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">u</a>', send: true });
    await t.emu.clock.advance('1s');
    const [email] = t.emu.emails({ to: 'ada@example.net' });
    expect(email.links.some((l: string) => l.startsWith('http://resend:4400/_emulator/unsubscribe/'))).toBe(true);
    expect(t.emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
