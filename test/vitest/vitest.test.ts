/**
 * `resend-emulator/vitest` (src/vitest.ts): one server per file, reset
 * before each test, the SDK client it hands out, the two matchers with
 * their passes and their failure messages, and a test that sends nothing
 * finding nothing (the fixtures hold no activity: issue 28).
 */
import { describe, expect, it } from 'vitest';
import { WaitTimeoutError } from '../../src/index.js';
import { useEmulator } from '../../src/vitest.js';
import { failure } from './failure.js';

const emu = useEmulator({ webhooks: 'record' });
const urls = new Set<string>();

async function send(to: string, subject: string, tags?: { name: string; value: string }[]) {
  const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to, subject, html: '<p>Hi</p>', tags });
  expect(error).toBeNull();
  return data!.id;
}

describe('useEmulator', () => {
  it('hands a running server, its key and an SDK client pointed at it', async () => {
    urls.add(emu.url);
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.apiKey).toBe('re_emulator_default_key');
    await send('ada@example.net', 'Welcome');
    expect(emu.emails({ to: 'ada@example.net' })).toHaveLength(1);
    expect(emu.server.url).toBe(emu.url);
  });

  it('resets before each test on the same server (fixtures back, clock kept)', async () => {
    urls.add(emu.url);
    expect(urls.size).toBe(1);
    expect(emu.emails()).toEqual([]);
    const before = emu.clock.now().getTime();
    await emu.clock.advance('1h');
    expect(emu.clock.now().getTime() - before).toBe(3_600_000);
    const id = await send('grace@example.net', 'Later');
    await expect(emu.waitForEmail({ subject: 'later' }, { timeout: 1000 })).resolves.toMatchObject({ id });
  });

  it('clock.now() is a Date; clock.nowMs() is the same instant in ms, a number that moves with advance', async () => {
    expect(emu.clock.now()).toBeInstanceOf(Date);
    const ms = emu.clock.nowMs();
    expect(typeof ms).toBe('number');
    expect(ms).toBe(emu.clock.now().getTime());
    await emu.clock.advance('10m');
    expect(emu.clock.nowMs()).toBe(ms + 600_000);
  });

  it('hands the fault rules; a rule of one test is gone in the next', async () => {
    emu.faults.add({ operation: 'emails/send', status: 503 });
    const { error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Down', html: '<p>Hi</p>' });
    expect(error).toMatchObject({ statusCode: 503, name: 'service_unavailable' });
    expect(emu.faults.list()).toEqual([expect.objectContaining({ fired: 1 })]);
  });

  it('(the next test) starts without the rule', async () => {
    expect(emu.faults.list()).toEqual([]);
    await send('ada@example.net', 'Up again');
  });
});

describe('toHaveSentEmail', () => {
  it('passes for a matching email (substrings, any recipient, tags) and .not passes for none', async () => {
    await send('ada@example.net', 'Welcome to Acme', [{ name: 'kind', value: 'welcome' }]);
    expect(emu).toHaveSentEmail({ to: 'ADA@example', subject: 'welcome', tag: 'kind:welcome' });
    expect(emu).toHaveSentEmail();
    expect(emu).not.toHaveSentEmail({ to: 'bob@example.net' });
  });

  it('fails listing the closest emails and how each differs', async () => {
    await send('ada@example.net', 'Welcome to Acme');
    await send('bob@example.net', 'Your invoice');
    const message = failure(() => expect(emu).toHaveSentEmail({ to: 'bob@example.net', subject: 'Welcome' }));
    // The two this test sent, and nothing seeded.
    expect(message).toContain('expected an email matching {"to":"bob@example.net","subject":"Welcome"}, but none of the 2 sent emails matches. Closest:');
    // Those two differ in one field each; the newest comes first.
    expect(message).toMatch(/1\. \S+ "Your invoice" from "Acme <hello@example.com>" to \["bob@example.net"\]/);
    expect(message).toContain('- subject: "Your invoice" does not contain "Welcome"');
    expect(message).toMatch(/2\. \S+ "Welcome to Acme" [^\n]*\n {5}- to: no recipient \(to, cc, bcc\) contains "bob@example.net"; got \["ada@example.net"\]/);
  });

  it('fails saying no email was sent, and .not lists the matches', async () => {
    const empty = { emails: () => [], webhookDeliveries: () => [] };
    expect(failure(() => expect(empty).toHaveSentEmail({ to: 'ada@example.net' }))).toBe('expected an email matching {"to":"ada@example.net"}, but no email was sent');
    await send('ada@example.net', 'Welcome');
    const message = failure(() => expect(emu).not.toHaveSentEmail({ to: 'ada' }));
    expect(message).toMatch(/^expected no email matching \{"to":"ada"\}, but 1 email matches:\n {2}1\. \S+ "Welcome"/);
  });

  it("decides with the emulator's own emails(filter): q is searched, an unknown key throws its TypeError", async () => {
    await send('ada@example.net', 'Welcome to Acme');
    expect(emu.emails()).toHaveLength(1);
    // No attachment anywhere: the search finds nothing, so neither does the matcher.
    expect(emu.emails({ q: 'has:attachment nosuchword' })).toEqual([]);
    expect(emu).not.toHaveSentEmail({ q: 'has:attachment' });
    expect(emu).not.toHaveSentEmail({ q: 'has:attachment nosuchword' });
    expect(emu).toHaveSentEmail({ to: 'ada@example.net', q: 'subject:"welcome to" -has:attachment' });
    const message = failure(() => expect(emu).toHaveSentEmail({ to: 'ada@example.net', q: 'has:attachment' }));
    expect(message).toContain('expected an email matching {"to":"ada@example.net","q":"has:attachment"}, but none of the');
    expect(message).toMatch(/1\. \S+ "Welcome to Acme" [^\n]*\n {5}- q: the search "has:attachment" does not find it/);
    expect(() => expect(emu).toHaveSentEmail({ subjct: 'x' } as never)).toThrow(TypeError);
    expect(() => expect(emu).toHaveSentEmail({ subjct: 'x' } as never)).toThrow('unknown email filter key "subjct" (did you mean "subject"?)');
    expect(() => expect(emu).not.toHaveSentEmail({ subjct: 'x' } as never)).toThrow(TypeError);
  });

  it('rejects something that is not the emulator', () => {
    expect(() => expect({}).toHaveSentEmail()).toThrow('toHaveSentEmail: expected the emulator');
  });
});

describe('toHaveDeliveredWebhook', () => {
  it('passes for a matching delivery, data compared with vitest equality', async () => {
    const { data: hook } = await emu.resend.webhooks.create({ endpoint: 'https://hooks.example.net/in', events: ['email.sent'] });
    const id = await send('ada@example.net', 'Welcome');
    await emu.clock.advance('10s');
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', webhook_id: hook!.id, status: 'recorded', data: { email_id: id, subject: expect.stringContaining('Wel') } });
    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.bounced' });
  });

  it('fails listing the closest deliveries and how each differs', async () => {
    await emu.resend.webhooks.create({ endpoint: 'https://hooks.example.net/in', events: ['email.sent'] });
    await send('ada@example.net', 'Welcome');
    await emu.clock.advance('10s');
    const message = failure(() => expect(emu).toHaveDeliveredWebhook({ event_type: 'email.delivered', data: { subject: 'Goodbye' } }));
    expect(message).toContain('expected a webhook delivery matching {"event_type":"email.delivered","data":{"subject":"Goodbye"}} and accepted by its endpoint (status "succeeded"), but none of the 1 recorded delivery matches. Closest:');
    expect(message).toMatch(/1\. msg_\S+ email\.sent to webhook \S+ \(recorded\)/);
    expect(message).toContain('- event_type: "email.sent", expected "email.delivered"');
    expect(message).toContain('- data.subject: "Welcome", expected "Goodbye"');
    expect(failure(() => expect({ emails: () => [], webhookDeliveries: () => [] }).toHaveDeliveredWebhook({ event_type: 'email.sent' })))
      .toBe('expected a webhook delivery matching {"event_type":"email.sent"} and accepted by its endpoint (status "succeeded"), but no webhook delivery was recorded');
  });
});

describe('a test that sends nothing finds nothing (the fixtures hold no activity)', () => {
  it('(a test that sends a welcome email) passes', async () => {
    await send('ada@example.net', 'Welcome to Acme');
    expect(emu).toHaveSentEmail({ subject: 'Welcome' });
  });

  it('the next test, which sends nothing, fails toHaveSentEmail({ subject: "Welcome" }) and its waitForEmail times out', async () => {
    expect(emu.emails()).toEqual([]);
    expect(() => expect(emu).toHaveSentEmail({ subject: 'Welcome' })).toThrow('expected an email matching {"subject":"Welcome"}, but no email was sent');
    expect(() => expect(emu).toHaveSentEmail()).toThrow('expected an email matching {}, but no email was sent');
    const waited = await emu.waitForEmail({ subject: 'Welcome' }, { timeout: 50 }).then(() => null, (err: unknown) => err);
    expect(waited).toBeInstanceOf(WaitTimeoutError);
    expect((waited as Error).message).toBe('waitForEmail: no email matched {"subject":"Welcome"} within 50 ms');
    await expect(emu.code({ subject: 'Welcome' }, { timeout: 50 })).rejects.toBeInstanceOf(WaitTimeoutError);
    await expect(emu.link({}, undefined, { timeout: 50 })).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(() => expect(emu).toHaveDeliveredWebhook()).toThrow('expected a webhook delivery matching {} and accepted by its endpoint (status "succeeded"), but no webhook delivery was recorded');
    expect(emu.webhookDeliveries()).toEqual([]);
    expect(emu.inboxThreads()).toEqual([]);
  });

  it('what a team sets up is there: the key, the verified domain, contacts, the template, the inbox', async () => {
    expect((await emu.resend.domains.list()).data!.data.map((d) => [d.name, d.status])).toEqual([['example.com', 'verified']]);
    expect((await emu.resend.contacts.list()).data!.data).toHaveLength(3);
    expect((await emu.resend.templates.list()).data!.data.map((t) => t.alias)).toEqual(['welcome']);
    expect((await emu.resend.emails.list()).data!.data).toEqual([]);
    expect((await emu.resend.broadcasts.list()).data!.data.map((b) => b.status)).toEqual(['draft']);
  });
});

describe('the demo fixtures, asked for', () => {
  const demo = useEmulator({ fixtures: 'demo' });

  it('hold three sent emails and an inbox thread: a matcher sees them', async () => {
    expect(demo.emails().map((e) => e.subject)).toEqual(["What's new in January", 'Your invoice for December', 'Welcome to Acme']);
    expect(demo).toHaveSentEmail({ subject: 'Welcome' });
    expect(demo.inboxThreads().map((t) => t.subject)).toEqual(['Where is my order?']);
    expect(emu.emails()).toEqual([]);
  });
});

