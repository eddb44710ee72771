/**
 * SMTP fault rules (issue 11 part 2), with nodemailer as the client: a rule
 * with `smtp: <stage>` answers that stage with its code, so the client sees
 * the failure where a real relay would give it, and no email is sent.
 */
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';

const MESSAGE = { from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'SMTP fault probe', text: 'hello' };

describe('SMTP fault rules', () => {
  const t = useFreshEmulatorPerTest({ smtpPort: 0 });
  const transport = (pass: string = t.emu.apiKey) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: t.emu.smtpPort!, secure: false, auth: { user: 'resend', pass } } satisfies SMTPTransport.Options);
  const probes = () => t.emu.emails({ subject: 'SMTP fault probe' });
  /** The error nodemailer rejects with. */
  const failure = (pass?: string, message: Record<string, unknown> = MESSAGE) => transport(pass).sendMail(message).then(
    () => { throw new Error('sent, but a fault was expected'); },
    (err: Error & { responseCode?: number; response?: string; command?: string; code?: string }) => err,
  );

  it('connect: the greeting is the rule\'s code (default 421)', async () => {
    t.emu.faults.add({ smtp: 'connect' });
    const err = await failure();
    expect(err.responseCode).toBe(421);
    expect(err.response).toMatch(/^421 Service not available/);
    expect(probes()).toEqual([]);
  });

  it('auth: 535 even for a good key (the default code), with the rule\'s text', async () => {
    t.emu.faults.add({ smtp: 'auth', message: 'Authentication temporarily refused' });
    const err = await failure();
    expect(err.code).toBe('EAUTH');
    expect(err.responseCode).toBe(535);
    expect(err.response).toBe('535 Authentication temporarily refused');
    expect(probes()).toEqual([]);
  });

  it.each([
    ['mail', 451, 'MAIL FROM'],
    ['mail', 452, 'MAIL FROM'],
    ['rcpt', 550, 'RCPT TO'],
    ['rcpt', 450, 'RCPT TO'],
    ['data', 554, 'DATA'],
    ['data', 552, 'DATA'],
  ] as const)('%s: answers %i, nothing is sent', async (stage, status, command) => {
    t.emu.faults.add({ smtp: stage, status });
    const err = await failure();
    expect(err.responseCode).toBe(status);
    expect(err.command).toBe(command);
    expect(err.response).toMatch(new RegExp(`^${status} `));
    expect(probes()).toEqual([]);
    expect(t.emu.faults.list()[0]!.fired).toBe(1);
  });

  it('times, team_id and latency: a spent rule lets the next message through; another team is untouched; the stage waits', async () => {
    t.emu.faults.add({ smtp: 'data', status: 451, times: 1 });
    expect((await failure()).responseCode).toBe(451);
    const info = await transport().sendMail(MESSAGE);
    expect(info.response).toMatch(/^250 OK: queued as /);
    expect(probes()).toHaveLength(1);

    t.emu.faults.clear();
    t.emu.faults.add({ smtp: 'mail', team_id: FIXTURES.secondTeamId, status: 550 });
    const other = await failure(FIXTURES.secondTeamKey, { ...MESSAGE, from: 'me@claimable.dev' });
    expect(other.responseCode).toBe(550);
    await transport().sendMail(MESSAGE);
    expect(probes()).toHaveLength(2);

    t.emu.faults.clear();
    t.emu.faults.add({ smtp: 'rcpt', latency_ms: 150 });
    const start = Date.now();
    await transport().sendMail(MESSAGE);
    expect(Date.now() - start).toBeGreaterThanOrEqual(145);
    expect(probes()).toHaveLength(3);
  });

  it('API rules do not touch SMTP, and SMTP rules do not touch the API', async () => {
    t.emu.faults.add({ operation: 'emails/send', status: 500 });
    await transport().sendMail(MESSAGE);
    expect(probes()).toHaveLength(1);
    t.emu.faults.clear();
    t.emu.faults.add({ smtp: 'data', status: 554 });
    const res = await t.api.post('/emails').send({ ...MESSAGE, subject: 'SMTP fault probe over HTTP' });
    expect(res.status).toBe(200);
  });
});
