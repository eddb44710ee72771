/**
 * Black-box tests of the built CLI (`bin/emulator.js`), the way a user or
 * the Docker image runs it.
 */
import { describe, expect, it, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { expectOneLineFailure, root, runToExit, start, stop } from './process.js';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { startSink } from '../admin/smtp-sink.js';

describe('emulator start (built binary)', () => {
  const running: ChildProcess[] = [];
  const dirs: string[] = [];
  /** A fresh directory in the temp folder, removed after the test (its processes stopped first). */
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => stop(p, 'SIGKILL')));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  // How fast it starts is measured by bench/run.js (target: health within 1 s).
  it('prints URL, key and inbox, then answers health', async () => {
    const s = await start(['--port', '0']);
    running.push(s.proc);
    const res = await fetch(`${s.url}/_emulator/health`);
    expect(res.status).toBe(200);
    expect(s.out()).toMatch(/^resend-emulator listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(s.key).toBe('re_emulator_default_key');
    expect(s.out()).toContain(`Inbox: ${s.url}/_emulator/`);
    const domains = await fetch(`${s.url}/domains`, { headers: { authorization: `Bearer ${s.key}` } });
    expect(domains.status).toBe(200);
  });

  it('seeds the default set (no sent email) unless --fixtures demo (or EMULATOR_FIXTURES=demo) asks for the demo set; a reset puts back the chosen set', async () => {
    const emails = async (url: string) => ((await (await fetch(`${url}/_emulator/emails`)).json()) as { data: { subject: string }[] }).data.map((e) => e.subject);
    const plain = await start(['--port', '0']);
    running.push(plain.proc);
    expect(await emails(plain.url)).toEqual([]);
    const demo = await start(['--port', '0', '--fixtures', 'demo']);
    running.push(demo.proc);
    const history = ["What's new in January", 'Your invoice for December', 'Welcome to Acme'];
    expect(await emails(demo.url)).toEqual(history);
    expect((await fetch(`${demo.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect(await emails(demo.url)).toEqual(history);
    const env = await start([], { EMULATOR_PORT: '0', EMULATOR_FIXTURES: 'demo' });
    running.push(env.proc);
    expect(await emails(env.url)).toEqual(history);
  });

  it('reads flags from EMULATOR_* env vars, --api-key replaces the default key', async () => {
    const s = await start([], { EMULATOR_PORT: '0', EMULATOR_API_KEY: 're_from_env', EMULATOR_CLOCK: 'manual' });
    running.push(s.proc);
    expect(s.key).toBe('re_from_env');
    const ok = await fetch(`${s.url}/domains`, { headers: { authorization: 'Bearer re_from_env' } });
    expect(ok.status).toBe(200);
    const old = await fetch(`${s.url}/domains`, { headers: { authorization: 'Bearer re_emulator_default_key' } });
    expect(old.status).toBe(403);
    const clock = await (await fetch(`${s.url}/_emulator/clock`)).json();
    expect(clock.mode).toBe('manual');
  });

  it('keeps state in a --db file across restarts and closes cleanly on SIGTERM', async () => {
    const dir = tempDir('emu-cli-');
    const db = path.join(dir, 'state.db');
    const a = await start(['--port', '0', '--db', db]);
    const created = await fetch(`${a.url}/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'persisted.io' }),
    });
    expect(created.status).toBe(201);
    expect(await stop(a.proc, 'SIGTERM')).toBe(0);
    expect(fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0).toBe(0);
    const b = await start(['--port', '0', '--db', db]);
    running.push(b.proc);
    const list = await (await fetch(`${b.url}/domains`, { headers: { authorization: `Bearer ${b.key}` } })).json();
    expect(list.data.map((d: any) => d.name)).toContain('persisted.io');
  });

  it("runs as the Docker image does (ENV defaults, no flags) and passes its HEALTHCHECK command", async () => {
    const dir = tempDir('emu-docker-');
    const env = { EMULATOR_HOST: '0.0.0.0', EMULATOR_PORT: '0', EMULATOR_DB: path.join(dir, 'emulator.db') };
    const s = await start([], env);
    running.push(s.proc);
    expect(s.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(fs.existsSync(path.join(dir, 'emulator.db'))).toBe(true);
    // The Dockerfile's HEALTHCHECK, run with the port the image would have.
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const script = /HEALTHCHECK[\s\S]*?CMD \["node", "-e", "((?:[^"\\]|\\.)*)"\]/.exec(dockerfile)![1];
    const port = new URL(s.url).port;
    const check = spawn(process.execPath, ['-e', script], { env: { ...process.env, EMULATOR_PORT: port } });
    expect(await new Promise((r) => check.on('exit', r))).toBe(0);
    const bad = spawn(process.execPath, ['-e', script], { env: { ...process.env, EMULATOR_PORT: '9' } });
    expect(await new Promise((r) => bad.on('exit', r))).toBe(1);
  });

  it('keeps the emulated clock in a --db file across restarts, and --api-key applies to an existing store', async () => {
    const dir = tempDir('emu-clock-');
    const db = path.join(dir, 'state.db');
    const a = await start(['--port', '0', '--db', db, '--clock', 'manual']);
    const adv = await fetch(`${a.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '2031-06-01T00:00:00.000Z' }) });
    expect((await adv.json()).now).toBe('2031-06-01T00:00:00.000Z');
    expect(await stop(a.proc, 'SIGTERM')).toBe(0);
    const b = await start(['--port', '0', '--db', db, '--clock', 'manual', '--api-key', 're_rotated']);
    running.push(b.proc);
    expect((await (await fetch(`${b.url}/_emulator/clock`)).json()).now).toBe('2031-06-01T00:00:00.000Z');
    expect(b.key).toBe('re_rotated');
    expect((await fetch(`${b.url}/domains`, { headers: { authorization: 'Bearer re_rotated' } })).status).toBe(200);
    expect((await fetch(`${b.url}/domains`, { headers: { authorization: 'Bearer re_emulator_default_key' } })).status).toBe(403);
  });

  it('--plan (and EMULATOR_PLAN) sets the quotas GET /usage reports; an unknown plan is a usage error', async () => {
    const free = await start(['--port', '0', '--plan', 'free']);
    running.push(free.proc);
    const usage = await (await fetch(`${free.url}/usage`, { headers: { authorization: `Bearer ${free.key}` } })).json();
    expect(usage.emails.daily.limit).toBe(100);
    expect(usage.emails.monthly.limit).toBe(3000);
    const pro = await start([], { EMULATOR_PORT: '0', EMULATOR_PLAN: 'pro' });
    running.push(pro.proc);
    const proUsage = await (await fetch(`${pro.url}/usage`, { headers: { authorization: `Bearer ${pro.key}` } })).json();
    expect(proUsage.emails).toMatchObject({ daily: { limit: null }, monthly: { limit: 50000 } });
    const bad = await runToExit(['start', '--port', '0', '--plan', 'gold']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Argument: plan, Given: "gold", Choices: "free", "pro", "scale"');
    expect(bad.stderr).toContain('emulator start --help');
  });

  it('rejects an unknown flag with a usage message, a --help hint and exit code 1, without the whole help', async () => {
    const r = await runToExit(['start', '--nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^resend-emulator: Unknown argument: nope$/m);
    expect(r.stderr).toContain('emulator start --help');
    expect(r.stderr).not.toContain('Options:');
    expect(r.stderr).not.toMatch(/\s+at /);
  });

  it('names the missing command in one usage message', async () => {
    const r = await runToExit([]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^resend-emulator: Name a command: start, parity, ca$/m);
    expect(r.stderr).toContain('emulator start --help');
    expect(r.stderr).not.toContain('Options:');
  });

  it('a port in use: one line naming the port and --port, exit 1', async () => {
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as AddressInfo).port;
      const r = await runToExit(['start', '--port', String(port)]);
      expectOneLineFailure(r, `port ${port} is already in use (--port)`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('runs the SMTP relay: banner line, nodemailer sends with only host, port and key changed from a Resend SMTP config; SIGTERM closes it', async () => {
    const s = await start(['--port', '0', '--clock', 'manual']);
    const smtp = /^SMTP: smtp:\/\/127\.0\.0\.1:(\d+) \(user resend, password: the API key\)$/m.exec(s.out());
    expect(smtp).not.toBeNull();
    const resendConfig = { host: 'smtp.resend.com', port: 587, secure: false, auth: { user: 'resend', pass: 're_123456789' } };
    const transport = nodemailer.createTransport({ ...resendConfig, host: '127.0.0.1', port: Number(smtp![1]), auth: { ...resendConfig.auth, pass: s.key } });
    const info = await transport.sendMail({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'CLI SMTP', html: '<p>hi</p>' });
    const id = /^250 OK: queued as (\S+)$/.exec(info.response)?.[1];
    expect(id).toBeTruthy();
    const email = await (await fetch(`${s.url}/emails/${id}`, { headers: { authorization: `Bearer ${s.key}` } })).json();
    expect(email).toMatchObject({ id, subject: 'CLI SMTP', to: ['delivered@resend.dev'], html: '<p>hi</p>', last_event: 'queued' });
    expect(await stop(s.proc, 'SIGTERM')).toBe(0);
    const gone: any = await transport.verify().then(() => null, (e) => e);
    expect(gone?.code).toBeTruthy();
  });

  it('--no-smtp: no SMTP banner line; --help names the default port 2587', async () => {
    const s = await start(['--port', '0', '--no-smtp']);
    running.push(s.proc);
    expect(s.out()).not.toContain('SMTP:');
    const help = await runToExit(['start', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--smtp-port[^[]*\[number\] \[default: 2587\]/);
    expect(help.stdout).toContain('--smtp');
  });

  it('--version prints the package\'s own version; start --help names the EMULATOR_<FLAG> variables with examples', async () => {
    const version = await runToExit(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    const help = await runToExit(['start', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('every flag is also read from EMULATOR_<FLAG>');
    for (const example of ['EMULATOR_PORT=4400', 'EMULATOR_DB=', 'EMULATOR_TLS=1', 'EMULATOR_EXIT_WITH_PARENT=0']) expect(help.stdout).toContain(example);
    expect(help.stdout).toMatch(/--exit-with-parent[^[]*\[boolean\] \[default: true\]/);
  });

  it('boolean flags read 1/yes/on and 0/no/off from the environment (EMULATOR_SMTP=1 keeps SMTP on, EMULATOR_SMTP=off turns it off)', async () => {
    const on = await start(['--port', '0'], { EMULATOR_SMTP: '1' });
    running.push(on.proc);
    expect(on.out()).toMatch(/^SMTP: smtp:\/\/127\.0\.0\.1:\d+/m);
    const off = await start(['--port', '0'], { EMULATOR_SMTP: 'off' });
    running.push(off.proc);
    expect(off.out()).not.toContain('SMTP:');
  });

  it('--mount-path (and EMULATOR_MOUNT_PATH) serves the API under the prefix; the banner URL carries it; other paths are 404 not_found', async () => {
    for (const [args, env] of [[['--mount-path', '/resend'], {}], [[], { EMULATOR_MOUNT_PATH: 'resend/' }]] as const) {
      const s = await start(['--port', '0', ...args], env);
      running.push(s.proc);
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/resend$/);
      expect((await fetch(`${s.url}/_emulator/health`)).status).toBe(200);
      const domains = await fetch(`${s.url}/domains`, { headers: { authorization: `Bearer ${s.key}` } });
      expect(domains.status).toBe(200);
      const outside = await fetch(`${new URL(s.url).origin}/domains`, { headers: { authorization: `Bearer ${s.key}` } });
      expect(outside.status).toBe(404);
      expect(await outside.json()).toEqual({ statusCode: 404, message: expect.any(String), name: 'not_found' });
    }
  });

  it('an SMTP port in use: one line naming the port and --smtp-port, exit 1', async () => {
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as AddressInfo).port;
      const r = await runToExit(['start', '--port', '0', '--smtp-port', String(port)]);
      expectOneLineFailure(r, `port ${port} is already in use (--smtp-port)`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('--smtp-port out of range: one line, exit 1', async () => {
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--smtp-port', 'abc']), '--smtp-port must be an integer 0-65535');
    expectOneLineFailure(await runToExit(['start', '--port', '0'], { EMULATOR_SMTP_PORT: '70000' }), '--smtp-port must be an integer 0-65535');
  });

  it.each([['abc'], ['99999'], ['-1'], ['1.5']])('--port %s: one line, exit 1', async (port) => {
    expectOneLineFailure(await runToExit(['start', '--port', port]), '--port must be an integer 0-65535');
  });

  it('EMULATOR_RELAY and EMULATOR_RELAY_ALLOW set the relay a release sends through, and its allow-list', async () => {
    const sink = await startSink();
    try {
      const s = await start(['--port', '0', '--no-smtp'], { EMULATOR_RELAY: sink.url(), EMULATOR_RELAY_ALLOW: '*@example.org' });
      running.push(s.proc);
      const json = { 'content-type': 'application/json', authorization: `Bearer ${s.key}` };
      const sent = await fetch(`${s.url}/emails`, { method: 'POST', headers: json, body: JSON.stringify({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'Relay me', text: 'x' }) });
      const { id } = (await sent.json()) as { id: string };
      const refused = await fetch(`${s.url}/_emulator/emails/${id}/release`, { method: 'POST', headers: json, body: JSON.stringify({ to: 'me@example.com' }) });
      expect(refused.status).toBe(403);
      const released = await fetch(`${s.url}/_emulator/emails/${id}/release`, { method: 'POST', headers: json, body: JSON.stringify({ to: 'me@example.org' }) });
      expect(released.status).toBe(200);
      expect(sink.messages.map((m) => m.to)).toEqual([['me@example.org']]);
    } finally {
      await sink.close();
    }
  });

  it('--relay-allow naming nothing (only commas and blanks): one line, exit 1', async () => {
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--relay-allow', ' , ']), '--relay-allow must name at least one address or pattern, e.g. *@example.com,me@example.org');
  });

  it('--relay that is not an smtp:// URL: one line, exit 1', async () => {
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--relay', 'http://example.org']), /^resend-emulator: --relay "http:\/\/example\.org" must be an smtp:\/\/ or smtps:\/\/ URL with a host/);
  });

  it('EMULATOR_PORT=abc: the same one line', async () => {
    expectOneLineFailure(await runToExit(['start'], { EMULATOR_PORT: 'abc' }), '--port must be an integer 0-65535');
  });

  it('--rate-limit and --webhook-timeout out of range: one line each', async () => {
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--rate-limit', 'x']), '--rate-limit must be a number >= 0 (0 = off)');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--webhook-timeout', '0']), '--webhook-timeout must be a positive integer (ms)');
  });

  it('a missing --fixtures file: one line naming the file, exit 1, no --db file created', async () => {
    const dir = tempDir('emu-fx-');
    const file = path.join(dir, 'missing.json');
    const r = await runToExit(['start', '--port', '0', '--fixtures', file, '--db', path.join(dir, 'state.db')]);
    expectOneLineFailure(r, new RegExp(`^resend-emulator: cannot read fixtures ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`));
    expect(fs.existsSync(path.join(dir, 'state.db'))).toBe(false);
  });

  it('an invalid --fixtures file (not JSON, or not an object): one line, exit 1', async () => {
    const dir = tempDir('emu-fx-');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{ "teams": [');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--fixtures', bad]), /^resend-emulator: cannot read fixtures .*bad\.json: .*JSON/);
    const arr = path.join(dir, 'array.json');
    fs.writeFileSync(arr, '[]');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--fixtures', arr]), `cannot read fixtures ${arr}: not a JSON object`);
  });

  it('--faults FILE: the rules apply from the start, are listed, and come back with every reset', async () => {
    const dir = tempDir('emu-faults-');
    const file = path.join(dir, 'faults.json');
    fs.writeFileSync(file, JSON.stringify([{ operation: 'POST /emails', status: 503, times: 1 }, { smtp: 'rcpt', status: 450 }]));
    const s = await start(['--port', '0', '--faults', file]);
    running.push(s.proc);
    expect(s.out()).toContain(`Faults: 2 rules from ${file}`);
    const post = () => fetch(`${s.url}/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Acme <hello@example.com>', to: 'delivered@resend.dev', subject: 'CLI faults', text: 'hi' }),
    });
    const first = await post();
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ statusCode: 503, name: 'service_unavailable' });
    expect((await post()).status).toBe(200);
    const listed = await (await fetch(`${s.url}/_emulator/faults`)).json();
    expect(listed.data.map((r: any) => [r.kind, r.status, r.fired])).toEqual([['api', 503, 1], ['smtp', 450, 0]]);
    const smtp = Number(/^SMTP: smtp:\/\/127\.0\.0\.1:(\d+)/m.exec(s.out())![1]);
    const refused: any = await nodemailer
      .createTransport({ host: '127.0.0.1', port: smtp, secure: false, auth: { user: 'resend', pass: s.key } })
      .sendMail({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'x', text: 'x' })
      .then(() => null, (e) => e);
    expect(refused?.responseCode).toBe(450);
    await fetch(`${s.url}/_emulator/faults`, { method: 'DELETE' });
    expect((await (await fetch(`${s.url}/_emulator/faults`)).json()).data).toEqual([]);
    expect((await fetch(`${s.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    const back = await (await fetch(`${s.url}/_emulator/faults`)).json();
    expect(back.data.map((r: any) => [r.status, r.fired])).toEqual([[503, 0], [450, 0]]);
    expect((await post()).status).toBe(503);
  });

  it('a bad --faults file (missing, not JSON, not an array, a bad rule, an unknown team): one line, exit 1, no --db file created', async () => {
    const dir = tempDir('emu-faults-');
    const write = (name: string, text: string) => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, text);
      return f;
    };
    const db = path.join(dir, 'state.db');
    const missing = path.join(dir, 'missing.json');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--faults', missing, '--db', db]), /^resend-emulator: cannot read faults .*missing\.json: ENOENT/);
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--faults', write('bad.json', '[')]), /^resend-emulator: cannot read faults .*bad\.json: .*JSON/);
    const obj = write('object.json', '{"status": 500}');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--faults', obj]), `--faults ${obj}: not a JSON array of rules`);
    const rule = write('rule.json', '[{"status": 500}, {"operation": "emails/sned"}]');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--faults', rule, '--db', db]), `--faults ${rule}: rule 2: Unknown \`operation\` \`emails/sned\`: give an operationId such as \`emails/send\`, or \`METHOD /path\` such as \`POST /emails\`, as in docs/endpoints.md's endpoint table.`);
    expect(fs.existsSync(db)).toBe(false);
    const team = write('team.json', '[{"team_id": "00000000-0000-4000-8000-000000000000"}]');
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--faults', team]), `--faults ${team}: rule 1: The \`team_id\` \`00000000-0000-4000-8000-000000000000\` names no team.`);
  });

  it('--admin-token (or EMULATOR_ADMIN_TOKEN) guards the admin API but health; the banner says so; an empty token is refused', async () => {
    const a = await start(['--port', '0', '--admin-token', 'cli-admin']);
    running.push(a.proc);
    expect(a.out()).toContain(`Inbox: ${a.url}/_emulator/ (admin token required)`);
    expect((await fetch(`${a.url}/_emulator/health`)).status).toBe(200);
    expect((await fetch(`${a.url}/_emulator/emails`)).status).toBe(401);
    expect((await fetch(`${a.url}/_emulator/emails`, { headers: { authorization: 'Bearer cli-admin' } })).status).toBe(200);
    const b = await start(['--port', '0'], { EMULATOR_ADMIN_TOKEN: 'env-admin' });
    running.push(b.proc);
    expect((await fetch(`${b.url}/_emulator/clock`)).status).toBe(401);
    expect((await fetch(`${b.url}/_emulator/clock`, { headers: { authorization: 'Bearer env-admin' } })).status).toBe(200);
    expectOneLineFailure(await runToExit(['start', '--port', '0', '--admin-token', '']), /^resend-emulator: --admin-token must not be empty/);
  });

  it('a --db file in use by another running emulator: the second fails at once with one line; once the first is killed -9 it starts', async () => {
    const dir = tempDir('emu-lock-');
    const db = path.join(dir, 'state.db');
    const a = await start(['--port', '0', '--db', db]);
    running.push(a.proc);
    const t0 = Date.now();
    const second = await runToExit(['start', '--port', '0', '--db', db]);
    expectOneLineFailure(second, `--db ${db} is in use by another running emulator (or another program holding it); stop that one or pick another file`);
    expect(Date.now() - t0).toBeLessThan(4_000); // at once, not after a busy wait
    // The first one is untouched.
    expect((await fetch(`${a.url}/domains`, { headers: { authorization: `Bearer ${a.key}` } })).status).toBe(200);
    await stop(a.proc, 'SIGKILL');
    const b = await start(['--port', '0', '--db', db]);
    running.push(b.proc);
    expect((await fetch(`${b.url}/_emulator/health`)).status).toBe(200);
  });
});
