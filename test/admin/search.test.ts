/**
 * The search language (`q`, src/admin/search.ts) on GET /_emulator/emails and
 * emu.emails(), and `latest` as an id.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseSearch } from '../../src/admin/search.js';
import { listenerAdded, useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';
import { busOf } from '../../src/internals.js';

describe('parseSearch', () => {
  it('reads keys, quoted values and phrases, negation and free words', () => {
    expect(parseSearch('from:ada -subject:"your order" "two words" tag:kind:reset plain https://x.test/a 10:42')).toEqual([
      { key: 'from', value: 'ada', negated: false },
      { key: 'subject', value: 'your order', negated: true },
      { key: null, value: 'two words', negated: false },
      { key: 'tag', value: 'kind:reset', negated: false },
      { key: null, value: 'plain', negated: false },
      { key: null, value: 'https://x.test/a', negated: false },
      { key: null, value: '10:42', negated: false },
    ]);
  });

  it('reads before: and after: as an ISO 8601 date (midnight UTC) or instant', () => {
    expect(parseSearch('before:2026-11-22 after:2026-11-22T10:00:00Z')).toEqual([
      { key: 'before', value: '2026-11-22', negated: false, at: Date.parse('2026-11-22T00:00:00Z') },
      { key: 'after', value: '2026-11-22T10:00:00Z', negated: false, at: Date.parse('2026-11-22T10:00:00Z') },
    ]);
  });

  const fails = (q: string) => {
    try {
      parseSearch(q);
    } catch (err: any) {
      return { statusCode: err.statusCode, name: err.name, message: err.message };
    }
    throw new Error(`no error for ${q}`);
  };

  it('refuses an unknown key with a 422 naming the allowed keys', () => {
    expect(fails('sender:ada')).toEqual({
      statusCode: 422, name: 'validation_error',
      message: 'Unknown search key `sender:` in `q`; allowed keys: from:, to:, subject:, tag:, has:, is:, before:, after:.',
    });
  });

  it('refuses a key with an empty value', () => {
    expect(fails('from:')).toMatchObject({ statusCode: 422, message: expect.stringContaining('needs a value') });
  });

  it('refuses a has: value other than attachment', () => {
    expect(fails('has:link')).toMatchObject({ statusCode: 422, message: expect.stringContaining('has:attachment') });
  });

  it('refuses a date that is not ISO 8601', () => {
    expect(fails('before:yesterday')).toMatchObject({ statusCode: 422, message: expect.stringContaining('ISO 8601') });
  });
});

describe('admin: searching sent emails', () => {
  const t = useFreshEmulatorPerTest();
  const send = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', text: 'Hello', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  /** Ids of the default team's matches, the fixtures' emails left out. */
  const ids = async (q: string, extra = '') => {
    const seeded = new Set(t.emu.emails().filter((e) => e.id.startsWith('a1b2c3d4-')).map((e) => e.id));
    const res = await t.anon.get(`/_emulator/emails?team_id=${FIXTURES.defaultTeamId}&q=${encodeURIComponent(q)}${extra}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: any) => e.id).filter((id: string) => !seeded.has(id));
  };

  describe('terms, on three sent emails', () => {
    let start: number;
    let reset: string;
    let invoice: string;
    let bounce: string;
    beforeEach(async () => {
      // From the next 10:00 UTC, so the hour and seconds below stay on one day (a run started near midnight crossed it).
      const now = t.emu.clock.now().getTime();
      const TEN_AM = 10 * 3_600_000;
      await t.emu.clock.advance(Math.ceil((now - TEN_AM) / 86_400_000) * 86_400_000 + TEN_AM - now);
      start = t.emu.clock.now().getTime();
      reset = await send({ to: 'delivered+ada@resend.dev', subject: 'Reset your password', text: 'Use the link to reset.', tags: [{ name: 'kind', value: 'reset' }] });
      await t.emu.clock.advance('1h');
      invoice = await send({
        from: 'Billing <billing@example.com>', to: 'delivered+bob@resend.dev', cc: 'delivered+cc@resend.dev', subject: 'Your invoice', text: 'Invoice for November attached.',
        tags: [{ name: 'kind', value: 'invoice' }], attachments: [{ filename: 'a.txt', content: Buffer.from('x').toString('base64') }],
      });
      bounce = await send({ to: 'bounced@resend.dev', bcc: 'audit@example.org', subject: 'Welcome aboard', text: 'Welcome, friend.' });
      await t.emu.clock.advance('5s');
    });

    it('from: matches the sender', async () => {
      expect(await ids('from:billing')).toEqual([invoice]);
    });

    it('to: matches To, Cc and Bcc recipients', async () => {
      expect(await ids('to:delivered+cc')).toEqual([invoice]);
      expect(await ids('to:audit@')).toEqual([bounce]);
    });

    it('subject: matches a quoted phrase', async () => {
      expect(await ids('subject:"your invoice"')).toEqual([invoice]);
    });

    it('tag: matches a tag name, or name:value', async () => {
      expect(await ids('tag:kind')).toEqual([invoice, reset]);
      expect(await ids('tag:kind:reset')).toEqual([reset]);
    });

    it('has:attachment matches, and - negates it', async () => {
      expect(await ids('has:attachment')).toEqual([invoice]);
      expect(await ids('-has:attachment tag:kind')).toEqual([reset]);
    });

    it('is: matches the last event, keys and values in any case', async () => {
      expect(await ids('is:bounced')).toEqual([bounce]);
      expect(await ids('IS:BOUNCED')).toEqual([bounce]);
    });

    it('free words and quoted phrases match the text, - excludes, and every term must match', async () => {
      expect(await ids('november')).toEqual([invoice]);
      expect(await ids('"welcome, friend"')).toEqual([bounce]);
      expect(await ids('welcome -bounced')).toEqual([]);
      expect(await ids('resend.dev -is:bounced -tag:kind:reset')).toEqual([invoice]);
    });

    it('before: excludes its instant, after: includes it (emulated time)', async () => {
      const second = new Date(start + 3_600_000).toISOString();
      expect(await ids(`after:${second}`)).toEqual([bounce, invoice]);
      expect(await ids(`before:${second}`)).toEqual(expect.arrayContaining([reset]));
      expect(await ids(`before:${second}`)).not.toContain(invoice);
    });

    it('before: and after: take a date (midnight UTC)', async () => {
      const day = new Date(start).toISOString().slice(0, 10);
      const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
      expect(await ids(`after:${day} before:${next} subject:reset`)).toEqual([reset]);
      expect(await ids(`after:${next}`)).toEqual([]);
    });

    it('q works together with the other filters', async () => {
      expect(await ids('tag:kind', '&subject=invoice')).toEqual([invoice]);
    });

    it('emu.emails() takes q', () => {
      expect(t.emu.emails({ q: 'has:attachment from:billing@' }).map((e) => e.id)).toEqual([invoice]);
    });
  });

  it('emu.emails() and emu.waitForEmail() refuse an unknown key in q', async () => {
    expect(() => t.emu.emails({ q: 'sent:yes' })).toThrow(/allowed keys: from:, to:/);
    await expect(t.emu.waitForEmail({ q: 'sent:yes' })).rejects.toThrow(/Unknown search key/);
  });

  it('answers 422 for an unknown key over HTTP', async () => {
    const res = await t.anon.get('/_emulator/emails?q=' + encodeURIComponent('from:ada colour:red'));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422, name: 'validation_error',
      message: 'Unknown search key `colour:` in `q`; allowed keys: from:, to:, subject:, tag:, has:, is:, before:, after:.',
    });
  });

  it('emu.emails() takes q and still names the allowed keys for a typo', () => {
    expect(() => t.emu.emails({ qq: 'x' } as any)).toThrow(/allowed: to, from, subject, tag, team_id, last_event, q/);
  });

  describe('`latest`, on two sent emails', () => {
    let a: string;
    let b: string;
    beforeEach(async () => {
      a = await send({ to: 'delivered+a@resend.dev', subject: 'First code 111111' });
      b = await send({ to: 'delivered+b@resend.dev', subject: 'Second code 222222' });
    });

    it('is the newest email', async () => {
      const latest = await t.anon.get('/_emulator/emails/latest');
      expect(latest.status).toBe(200);
      expect(latest.body.id).toBe(b);
    });

    it('takes the list filters', async () => {
      expect((await t.anon.get('/_emulator/emails/latest?to=delivered%2Ba')).body.id).toBe(a);
    });

    it('takes q, and answers the email with its codes', async () => {
      const byQ = await t.anon.get('/_emulator/emails/latest?q=' + encodeURIComponent('subject:first'));
      expect(byQ.body).toMatchObject({ id: a, codes: ['111111'] });
    });

    it('serves the raw message of the newest match', async () => {
      const raw = await t.anon.get('/_emulator/emails/latest/raw?q=' + encodeURIComponent('to:delivered+a'));
      expect(raw.status).toBe(200);
      expect(raw.headers['content-type']).toBe('message/rfc822');
      expect(raw.headers['content-disposition']).toContain(`${a}.eml`);
    });

    it('answers 404 when nothing matches, 422 for an unknown key', async () => {
      const none = await t.anon.get('/_emulator/emails/latest?q=nothing-matches-this');
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ statusCode: 404, message: 'Email not found', name: 'not_found' });
      expect((await t.anon.get('/_emulator/emails/latest?q=bogus:1')).status).toBe(422);
    });
  });

  it('`latest` with wait answers when a match arrives', async () => {
    const waiting = listenerAdded(busOf(t.emu), 'email');
    const pending = t.anon.get('/_emulator/emails/latest?wait=5000&q=' + encodeURIComponent('subject:"late one"')).then((r) => r);
    await waiting; // the server holds the request: the email sent next arrives after it
    const id = await send({ to: 'delivered@resend.dev', subject: 'The late one' });
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
  });

  it('`latest` with wait answers 404 when no match arrives in time (real time)', async () => {
    const timeout = await t.anon.get('/_emulator/emails/latest?wait=50&q=never');
    expect(timeout.status).toBe(404);
  });
});
