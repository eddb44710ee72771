/**
 * The SMTP relay (src/smtp/) with nodemailer as the client: each message
 * takes the path of `POST /emails` (rules, lifecycle, webhooks, listing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { Resend } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';
import { startReceiver, verifyInput, type Receiver } from '../deliveries/receiver.js';

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

/** The email id in a `250 OK: queued as <id>` reply. */
function idOf(info: SMTPTransport.SentMessageInfo): string {
  const m = /^250 OK: queued as ([0-9a-f-]{36})$/.exec(info.response);
  if (!m) throw new Error(`no email id in ${info.response}`);
  return m[1];
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('SMTP relay', () => {
  const t = useFreshEmulatorPerTest({ smtpPort: 0 });

  /** A nodemailer transport to the emulator (as a Resend SMTP config with host/port/key changed). */
  const transport = (pass: string = t.emu.apiKey, extra: Partial<SMTPTransport.Options> = {}) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: t.emu.smtpPort!, secure: false, auth: { user: 'resend', pass }, ...extra });

  it('sends a plain message: 250 with the email id, visible through emails.get, emu.emails() and GET /emails', async () => {
    expect(t.emu.smtpPort).toBeGreaterThan(0);
    const info = await transport().sendMail({
      from: 'Acme <hello@example.com>',
      to: 'delivered@resend.dev',
      subject: 'Over SMTP',
      text: 'Hello from nodemailer',
      headers: { 'X-Entity-Ref-ID': 'ref-123' },
    });
    const id = idOf(info);
    expect(info.accepted).toEqual(['delivered@resend.dev']);

    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    const got = await resend.emails.get(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id, from: 'Acme <hello@example.com>', to: ['delivered@resend.dev'], subject: 'Over SMTP', last_event: 'queued', bcc: [], cc: [] });
    expect(got.data!.text).toContain('Hello from nodemailer');
    expect(got.data!.html).toBeNull();

    const [sent] = t.emu.emails({ subject: 'Over SMTP' });
    expect(sent.id).toBe(id);
    expect(sent.headers).toMatchObject({ 'X-Entity-Ref-ID': 'ref-123' });
    expect(Object.keys(sent.headers ?? {}).map((k) => k.toLowerCase())).not.toContain('message-id');

    const list = await resend.emails.list();
    expect(list.data!.data.map((e) => e.id)).toContain(id);

    await t.emu.clock.advance('10s');
    expect((await resend.emails.get(id)).data!.last_event).toBe('delivered');
  });

  it('carries HTML, text, Reply-To, Cc, attachments and an inline image (content_id kept)', async () => {
    const info = await transport().sendMail({
      from: 'hello@example.com',
      to: 'Ann <delivered+ann@resend.dev>',
      cc: 'delivered+cc@resend.dev',
      replyTo: 'support@example.com',
      subject: 'Rich',
      html: '<p>Logo: <img src="cid:logo@acme"></p>',
      text: 'Logo below',
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 fake'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo@acme' },
      ],
    });
    const id = idOf(info);
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    const got = (await resend.emails.get(id)).data!;
    expect(got.to).toEqual(['Ann <delivered+ann@resend.dev>']);
    expect(got.cc).toEqual(['delivered+cc@resend.dev']);
    expect(got.reply_to).toEqual(['support@example.com']);
    expect(got.html).toBe('<p>Logo: <img src="cid:logo@acme"></p>');
    expect(got.text).toBe('Logo below');

    const atts = await t.api.get(`/emails/${id}/attachments`);
    expect(atts.status).toBe(200);
    const byName = Object.fromEntries(atts.body.data.map((a: any) => [a.filename, a]));
    expect(byName['invoice.pdf']).toMatchObject({ content_type: 'application/pdf', content_disposition: 'attachment', size: 13 });
    expect(byName['invoice.pdf'].content_id).toBeUndefined();
    expect(byName['logo.png']).toMatchObject({ content_type: 'image/png', content_id: 'logo@acme', content_disposition: 'inline', size: PNG.length });
    const [sent] = t.emu.emails({ subject: 'Rich' });
    const logo = sent.attachments.find((a) => a.filename === 'logo.png')!;
    expect(logo.content_id).toBe('logo@acme');
    const bytes = await fetch(`${t.emu.url}/_emulator/emails/${id}/attachments/${logo.id}`);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('takes the recipients from the envelope: one only in RCPT TO becomes bcc', async () => {
    const info = await transport().sendMail({
      from: 'hello@example.com',
      to: 'delivered+to@resend.dev',
      bcc: 'delivered+hidden@resend.dev',
      subject: 'With Bcc',
      text: 'hi',
    });
    const id = idOf(info);
    expect(info.envelope.to).toEqual(['delivered+to@resend.dev', 'delivered+hidden@resend.dev']);
    const got = (await t.api.get(`/emails/${id}`)).body;
    expect(got.to).toEqual(['delivered+to@resend.dev']);
    expect(got.bcc).toEqual(['delivered+hidden@resend.dev']);

    // An envelope that leaves a To header address out: not sent to it.
    const env = await transport().sendMail({
      from: 'hello@example.com',
      to: ['delivered+a@resend.dev', 'delivered+b@resend.dev'],
      subject: 'Envelope wins',
      text: 'hi',
      envelope: { from: 'bounce@example.com', to: ['delivered+b@resend.dev'] },
    });
    const got2 = (await t.api.get(`/emails/${idOf(env)}`)).body;
    expect(got2.to).toEqual(['delivered+b@resend.dev']);
    expect(got2.bcc).toEqual([]);
  });

  it('refuses a sender of an unverified domain with 553 and the service message; nothing is stored', async () => {
    const before = t.emu.emails().length;
    const err: any = await transport()
      .sendMail({ from: 'me@unverified.io', to: 'delivered@resend.dev', subject: 'No', text: 'no' })
      .then(() => null, (e) => e);
    expect(err).not.toBeNull();
    expect(err.responseCode).toBe(553);
    expect(err.response).toBe('553 The `unverified.io` domain is not verified. Please, add and verify your domain.');
    expect(t.emu.emails()).toHaveLength(before);
  });

  it('refuses other invalid messages with 550 and the service message (onboarding@resend.dev to a stranger, no subject)', async () => {
    const before = t.emu.emails().length;
    const stranger: any = await transport()
      .sendMail({ from: 'onboarding@resend.dev', to: 'someone@elsewhere.com', subject: 'Hi', text: 'x' })
      .then(() => null, (e) => e);
    expect(stranger.responseCode).toBe(550);
    expect(stranger.response).toBe(`550 You can only send testing emails to your own email address (${FIXTURES.ownerEmail}). To send emails to other recipients, please verify a domain at resend.com/domains, and change the \`from\` address to an email using this domain.`);

    const owner = await transport().sendMail({ from: 'onboarding@resend.dev', to: FIXTURES.ownerEmail, subject: 'Hi', text: 'x' });
    expect(idOf(owner)).toBeTruthy();

    const noSubject: any = await transport()
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', text: 'x' })
      .then(() => null, (e) => e);
    expect(noSubject.responseCode).toBe(550);
    expect(noSubject.response).toBe('550 Missing `subject` field.');
    expect(t.emu.emails()).toHaveLength(before + 1);
  });

  it('a bad password or user: 535; an unknown user with a good key too', async () => {
    const before = t.emu.emails().length;
    const bad: any = await transport('re_not_a_key').sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' }).then(() => null, (e) => e);
    expect(bad.responseCode).toBe(535);
    expect(bad.code).toBe('EAUTH');
    const user: any = await nodemailer
      .createTransport({ host: '127.0.0.1', port: t.emu.smtpPort!, auth: { user: 'admin', pass: t.emu.apiKey } })
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' })
      .then(() => null, (e) => e);
    expect(user.responseCode).toBe(535);
    expect(t.emu.emails()).toHaveLength(before);
  });

  it('missing auth: 530 at MAIL FROM', async () => {
    const before = t.emu.emails().length;
    const err: any = await nodemailer
      .createTransport({ host: '127.0.0.1', port: t.emu.smtpPort!, secure: false })
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' })
      .then(() => null, (e) => e);
    expect(err.responseCode).toBe(530);
    expect(t.emu.emails()).toHaveLength(before);
  });

  it('AUTH LOGIN works as AUTH PLAIN does, and STARTTLS is not offered', async () => {
    const tr = transport(t.emu.apiKey, { authMethod: 'LOGIN', requireTLS: false });
    expect(await tr.verify()).toBe(true);
    const info = await tr.sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Login', text: 'x' });
    expect(idOf(info)).toBeTruthy();
    const tls: any = await transport(t.emu.apiKey, { requireTLS: true }).verify().then(() => null, (e) => e);
    expect(tls?.message).toMatch(/STARTTLS/);
  });

  it("a sending_access key sends; one restricted to a domain only from that domain; another team's key sends for its team", async () => {
    const full = await t.api.post('/api-keys').send({ name: 'smtp', permission: 'sending_access' });
    const restricted = await t.api.post('/api-keys').send({ name: 'smtp-dom', permission: 'sending_access', domain_id: FIXTURES.verifiedDomainId });
    const info = await transport(full.body.token).sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Sending key', text: 'x' });
    expect(t.emu.emails({ subject: 'Sending key' })[0].id).toBe(idOf(info));
    const ok = await transport(restricted.body.token).sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Restricted', text: 'x' });
    expect(idOf(ok)).toBeTruthy();
    // From another verified domain of the team: refused for the sender, with the API's message.
    const dom = await t.api.post('/domains').send({ name: 'second-smtp.dev' });
    await t.api.post(`/domains/${dom.body.id}/verify`);
    await t.emu.clock.advance('1m');
    expect((await t.api.get(`/domains/${dom.body.id}`)).body.status).toBe('verified');
    const elsewhere: any = await transport(restricted.body.token)
      .sendMail({ from: 'hello@second-smtp.dev', to: 'delivered@resend.dev', subject: 'Elsewhere', text: 'x' })
      .then(() => null, (e) => e);
    expect(elsewhere.response).toBe('553 This API key can only send emails from the `example.com` domain.');
    expect(await transport().sendMail({ from: 'hello@second-smtp.dev', to: 'delivered@resend.dev', subject: 'Full key', text: 'x' })).toBeTruthy();
    // The key list shows the key as used.
    const keys = await t.api.get('/api-keys');
    expect(keys.body.data.find((k: any) => k.id === full.body.id).last_used_at).not.toBeNull();

    const theirs: any = await transport(FIXTURES.secondTeamKey)
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Not theirs', text: 'x' })
      .then(() => null, (e) => e);
    // example.com is not a domain of the second team: refused as the API would.
    expect(theirs.responseCode).toBe(553);
    const mine = await transport(FIXTURES.secondTeamKey).sendMail({ from: 'hi@claimable.dev', to: 'delivered@resend.dev', subject: 'Second team', text: 'x' });
    expect(t.emu.emails({ team_id: FIXTURES.secondTeamId, subject: 'Second team' }).map((e) => e.id)).toEqual([idOf(mine)]);
  });

  it('raises the email.* webhooks, signed as for API sends', async () => {
    rx = await startReceiver();
    const resend = new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
    const { data: hook } = await resend.webhooks.create({ endpoint: rx.url, events: ['email.sent', 'email.delivered', 'email.bounced'] });
    const info = await transport().sendMail({ from: 'hello@example.com', to: 'bounced@resend.dev', subject: 'Hooks', text: 'x' });
    const id = idOf(info);
    await t.emu.clock.advance('10s');
    const events = rx.requests.map((r) => resend.webhooks.verify(verifyInput(r, hook!.signing_secret)) as any);
    expect(events.map((e) => e.type)).toEqual(['email.sent', 'email.bounced']);
    expect(events.every((e) => e.data.email_id === id)).toBe(true);
    expect(events[0].data).toMatchObject({ from: 'hello@example.com', to: ['bounced@resend.dev'], subject: 'Hooks' });
    // The bounce put the address on the suppression list: the next message is suppressed, as via the API.
    const again = await transport().sendMail({ from: 'hello@example.com', to: 'bounced@resend.dev', subject: 'Again', text: 'x' });
    await t.emu.clock.advance('10s');
    expect((await resend.emails.get(idOf(again))).data!.last_event).toBe('suppressed');
  });

  it('closes with the emulator', async () => {
    const port = t.emu.smtpPort!;
    await t.emu.close();
    const err: any = await nodemailer
      .createTransport({ host: '127.0.0.1', port, auth: { user: 'resend', pass: 'x' }, connectionTimeout: 2000 })
      .verify()
      .then(() => null, (e) => e);
    expect(err?.code).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
  });
});

describe('SMTP relay off', () => {
  const t = useFreshEmulatorPerTest();
  it('is off by default in startServer()', () => {
    expect(t.emu.smtpPort).toBeNull();
  });
});
