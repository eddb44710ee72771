/**
 * Typed jobs (issue 9): every job type is defined once (`defineJob`,
 * src/clock/jobs.ts) and listed with its payload (src/clock/job-types.ts);
 * the scheduler refuses an unknown type at start-up, not when it falls due.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { Clock } from '../../src/clock/clock.js';
import { Scheduler, emulatorClockTable, jobsTable } from '../../src/clock/scheduler.js';
import { defineJob, registerJobs, type AnyJobDefinition } from '../../src/clock/jobs.js';
import { JOB_TYPES } from '../../src/clock/job-types.js';
import { openDatabase, migrate } from '../../src/store/db.js';
import type { Emulator } from '../../src/context.js';
import { modules } from '../../src/modules.js';
import { domainVerifyJob } from '../../src/resources/domains/jobs.js';
import { emailSendJob, emailSendManyJob } from '../../src/resources/emails/jobs.js';
import { useFreshEmulatorPerTest, FIXTURES } from '../helpers.js';
import { contextOf, schedulerOf, storeOf } from '../../src/internals.js';

/** A bare context: a store with the scheduler's tables, a manual clock and its scheduler. */
function bareContext(): Emulator {
  const db = openDatabase();
  migrate(db, { tables: [jobsTable, emulatorClockTable], migrations: [] });
  const clock = new Clock('manual', Date.parse('2030-01-01T00:00:00Z'));
  return { db, clock, scheduler: new Scheduler(db, clock) } as unknown as Emulator;
}

/** Every job definition of the emulator's modules. */
const allDefinitions = (): AnyJobDefinition[] => modules.flatMap((m) => m.jobs ?? []);

describe('the job list', () => {
  it('every listed job type is defined exactly once by a module, and every definition is listed', () => {
    const types = allDefinitions().map((d) => d.type).sort();
    expect(types).toEqual([...JOB_TYPES].sort());
    expect(new Set(types).size).toBe(types.length);
  });
});

describe('registerJobs: the start-up check', () => {
  it('registers every definition so the scheduler can run it', () => {
    const ctx = bareContext();
    registerJobs(ctx, allDefinitions());
    // `schedule` throws for a type without a handler, so each of these proves one registration.
    for (const t of JOB_TYPES) expect(ctx.scheduler.schedule(t, {})).toBeGreaterThan(0);
  });

  it('refuses a listed type that no module defines', () => {
    const ctx = bareContext();
    const defs = allDefinitions().filter((d) => d.type !== 'emails.complain');
    expect(() => registerJobs(ctx, defs)).toThrow(/without a definition \(defineJob\): emails\.complain/);
  });

  it('refuses a definition whose type is not in the list', () => {
    const ctx = bareContext();
    const defs = allDefinitions();
    expect(() => registerJobs(ctx, defs, JOB_TYPES.filter((t) => t !== 'webhook.replay'))).toThrow(/webhook\.replay is defined but not listed/);
  });

  it('refuses a type defined twice', () => {
    const ctx = bareContext();
    expect(() => registerJobs(ctx, [...allDefinitions(), emailSendJob])).toThrow(/emails\.send registered twice/);
  });

  it('refuses a store holding pending jobs of an unknown type, naming them', () => {
    const ctx = bareContext();
    const insert = ctx.db.prepare('INSERT INTO jobs (type, team_id, due_at, payload, created_at, status) VALUES (?, NULL, 0, ?, 0, ?)');
    insert.run('emails.gone', '{}', 'pending');
    insert.run('emails.gone', '{}', 'pending');
    expect(() => registerJobs(ctx, allDefinitions())).toThrow(/pending jobs of unknown type: emails\.gone \(2\)/);
  });

  it('lets finished jobs of an unknown type be: only pending ones would fail when due', () => {
    const ctx = bareContext();
    const insert = ctx.db.prepare('INSERT INTO jobs (type, team_id, due_at, payload, created_at, status) VALUES (?, NULL, 0, ?, 0, ?)');
    insert.run('emails.gone', '{}', 'done');
    insert.run('emails.gone', '{}', 'failed');
    insert.run('emails.gone', '{}', 'cancelled');
    expect(() => registerJobs(ctx, allDefinitions())).not.toThrow();
  });
});

describe('start-up with a --db file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start on a store holding a pending job of an unknown type, and starts once it is gone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-jobs-'));
    dirs.push(dir);
    const file = path.join(dir, 'store.db');
    const first = await startServer({ db: file });
    storeOf(first).prepare(`INSERT INTO jobs (type, team_id, due_at, payload, created_at) VALUES ('domains.retired', NULL, 0, '{}', 0)`).run();
    await first.close();

    await expect(startServer({ db: file })).rejects.toThrow(/pending jobs of unknown type: domains\.retired \(1\)/);

    const db = openDatabase(file);
    db.prepare(`DELETE FROM jobs WHERE type = 'domains.retired'`).run();
    db.close();
    const again = await startServer({ db: file });
    expect(schedulerOf(again).pending()).toEqual([]);
    await again.close();
  });
});

describe('typed schedule and cancel', () => {
  const t = useFreshEmulatorPerTest();

  it('a definition schedules its own type with its payload, runs it when due, and cancels by a payload field', async () => {
    const ctx = contextOf(t.emu);
    const now = ctx.clock.nowMs();
    ctx.db.prepare(`UPDATE domains SET status = 'pending' WHERE id = ?`).run(FIXTURES.verifiedDomainId);

    const id = domainVerifyJob.schedule(ctx, { domain_id: FIXTURES.verifiedDomainId }, { dueAt: now + 1_000, teamId: FIXTURES.defaultTeamId });
    expect(ctx.scheduler.pending()).toEqual([{ id, type: 'domains.verify', due_at: now + 1_000 }]);
    const fired = await t.emu.clock.advance(1_000);
    expect(fired.map((j) => j.type)).toEqual(['domains.verify']);
    const status = (ctx.db.prepare('SELECT status FROM domains WHERE id = ?').get(FIXTURES.verifiedDomainId) as { status: string }).status;
    expect(status).toBe('verified');

    domainVerifyJob.schedule(ctx, { domain_id: 'a' }, { dueAt: now + 5_000 });
    domainVerifyJob.schedule(ctx, { domain_id: 'b' }, { dueAt: now + 5_000 });
    domainVerifyJob.schedule(ctx, { domain_id: 'c' }, { dueAt: now + 5_000 });
    expect(domainVerifyJob.cancel(ctx, 'domain_id', 'a')).toBe(1);
    expect(domainVerifyJob.cancel(ctx, 'domain_id', ['b', 'c', 'z'])).toBe(2);
    expect(ctx.scheduler.pending()).toEqual([]);
  });

  it('cancelling a value of a list field takes it out of each job\'s list, and drops a job left with none', () => {
    const ctx = contextOf(t.emu);
    const dueAt = ctx.clock.nowMs() + 60_000;
    const both = emailSendManyJob.schedule(ctx, { email_ids: ['a', 'b'] }, { dueAt });
    emailSendManyJob.schedule(ctx, { email_ids: ['a'] }, { dueAt });
    const payloads = () => (ctx.db.prepare(`SELECT id, payload FROM jobs WHERE status = 'pending' AND type = 'emails.send-many'`).all() as { id: number; payload: string }[])
      .map((r) => ({ id: r.id, payload: JSON.parse(r.payload) }));
    expect(emailSendManyJob.cancel(ctx, 'email_ids', 'a')).toBe(2);
    expect(payloads()).toEqual([{ id: both, payload: { email_ids: ['b'] } }]);
    expect(emailSendManyJob.cancel(ctx, 'email_ids', 'z')).toBe(0);
    expect(emailSendManyJob.cancel(ctx, 'email_ids', ['b'])).toBe(1);
    expect(payloads()).toEqual([]);
  });

  it('a snapshot holding a pending job of an unknown type is refused (422) and changes nothing', async () => {
    const snap = (await t.anon.get('/_emulator/snapshot').expect(200)).body;
    const job = { id: 9_999, type: 'emails.gone', team_id: null, due_at: 0, payload: '{}', status: 'pending', error: null, created_at: 0 };
    const res = await t.anon.post('/_emulator/snapshot').send({ ...snap, tables: { ...snap.tables, jobs: [...snap.tables.jobs, job] } }).expect(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'validation_error', message: 'Invalid snapshot: pending jobs of unknown type `emails.gone`.' });
    expect((await t.anon.get('/_emulator/snapshot').expect(200)).body).toEqual(snap);
    // The same job, finished, is only history: accepted.
    await t.anon.post('/_emulator/snapshot').send({ ...snap, tables: { ...snap.tables, jobs: [...snap.tables.jobs, { ...job, status: 'done' }] } }).expect(200);
  });

  it('a job that was running when the snapshot was taken is pending again after the import, and runs', async () => {
    const domain = (await t.api.post('/domains').send({ name: 'snapshot-running.example' }).expect(201)).body;
    await t.api.post(`/domains/${domain.id}/verify`).expect(200);
    const snap = (await t.anon.get('/_emulator/snapshot').expect(200)).body;
    const jobs = snap.tables.jobs.map((j: { type: string; status: string }) => (j.type === 'domains.verify' ? { ...j, status: 'running' } : j));
    expect(jobs.some((j: { status: string }) => j.status === 'running')).toBe(true);
    await t.anon.post('/_emulator/snapshot').send({ ...snap, tables: { ...snap.tables, jobs } }).expect(200);
    const rows = storeOf(t.emu).prepare(`SELECT status FROM jobs WHERE type = 'domains.verify'`).all();
    expect(rows).toEqual([{ status: 'pending' }]);
    await t.emu.clock.advance('10s');
    expect((await t.api.get(`/domains/${domain.id}`).expect(200)).body.status).not.toBe('pending');
  });

  it('the compiler checks the payload and the cancel key of each job type', () => {
    const ctx = contextOf(t.emu);
    // Each line below is a type error: `npm test` runs tsc over the tests, and an unused @ts-expect-error fails it.
    const wrong = () => {
      // @ts-expect-error a domain job takes `domain_id`, not `email_id`
      domainVerifyJob.schedule(ctx, { email_id: 'x' });
      // @ts-expect-error `emails.send` cannot be cancelled by a field its payload lacks
      emailSendJob.cancel(ctx, 'domain_id', 'x');
      // @ts-expect-error a type that is not in src/clock/job-types.ts
      defineJob('emails.unknown', () => {});
    };
    void wrong; // never called: the checks above are the compiler's (tsc over test/ in `npm test`)
  });
});
