/**
 * One failure record for every path (src/resources/emails/lifecycle.ts
 * `runLifecycle`, src/clock/scheduler.ts `recordFailed`): an email whose step
 * throws leaves a `failed` job row of that step (its type, payload, team and
 * the error) and the log line `job N (<type>) failed: <message>`, whether it
 * ran as a job of its own (an API email's `emails.send` / `emails.deliver`)
 * or as one of a broadcast batch's shared `emails.send-many` /
 * `emails.deliver-many` job; the batch's other emails go on.
 *
 * The failure: the email's stored `events` made unreadable (not JSON), which
 * each step reads.
 */
import { describe, expect, it, vi } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES, type TestEmulator } from '../../helpers.js';
import { broadcastQueued } from './helpers.js';
import { schedulerOf, storeOf } from '../../../src/internals.js';

/** Makes the email's step throw (its events no longer parse). */
function breakEmail(t: TestEmulator, id: string): void {
  storeOf(t.emu).prepare(`UPDATE emails SET events = 'not json' WHERE id = ?`).run(id);
}

/** The failed job rows, with the error's first line (the stack below it names the path it ran on). */
function failedJobs(t: TestEmulator) {
  const rows = storeOf(t.emu).prepare(`SELECT id, type, team_id, payload, error FROM jobs WHERE status = 'failed' ORDER BY id`).all() as {
    id: number; type: string; team_id: string | null; payload: string; error: string;
  }[];
  return rows.map((r) => ({ id: r.id, type: r.type, team_id: r.team_id, payload: JSON.parse(r.payload), error: r.error.split('\n')[0] }));
}

/** Runs `fn` and returns the lines written to stderr meanwhile. */
async function logged(fn: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (lines.push(...String(chunk).split('\n').filter(Boolean)), true));
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** The last event of each email, by id (read from the store, as a broken email cannot be answered by the API). */
function lastEvents(t: TestEmulator, ids: string[]): string[] {
  return ids.map((id) => storeOf(t.emu).prepare('SELECT last_event FROM emails WHERE id = ?').pluck().get(id) as string);
}

describe('an email whose step fails: one record, whatever the path', () => {
  const t = useFreshEmulatorPerTest({ logLevel: 'warn' });

  it('the send step: a broadcast email that fails in emails.send-many leaves the failed emails.send job row and log line a single email leaves; the batch goes on', async () => {
    // A single email: its own emails.send job.
    const single = (await t.api.post('/emails').send({ from: 'Acme <news@example.com>', to: 'single@example.org', subject: 'One', html: '<p>x</p>' })).body.id as string;
    breakEmail(t, single);
    const singleLog = await logged(() => schedulerOf(t.emu).advance(1_000));
    const [singleRow] = failedJobs(t);

    // A broadcast batch: its emails share one emails.send-many job.
    const [broken, fine] = await broadcastQueued(t);
    breakEmail(t, broken);
    const batchLog = await logged(() => schedulerOf(t.emu).advance(60_000));
    const [, batchRow] = failedJobs(t);

    expect(singleRow).toEqual({ id: expect.any(Number), type: 'emails.send', team_id: FIXTURES.defaultTeamId, payload: { email_id: single }, error: expect.stringMatching(/^\w*Error: /) });
    expect(batchRow).toEqual({ ...singleRow, id: expect.any(Number), payload: { email_id: broken } });
    const line = (row: { id: number }, lines: string[]) => lines.filter((l) => l.includes(`job ${row.id} (`));
    const message = singleRow.error.replace(/^\w*Error: /, '');
    expect(line(singleRow, singleLog)).toEqual([`[resend-emulator] warn: job ${singleRow.id} (emails.send) failed: ${message}`]);
    expect(line(batchRow, batchLog)).toEqual([`[resend-emulator] warn: job ${batchRow.id} (emails.send) failed: ${message}`]);
    expect(lastEvents(t, [broken, fine])).toEqual(['queued', 'delivered']);
  });

  it('the deliver step: a broadcast email that fails in emails.deliver-many leaves the failed emails.deliver job row and log line a single email leaves', async () => {
    const single = (await t.api.post('/emails').send({ from: 'Acme <news@example.com>', to: 'single@example.org', subject: 'One', html: '<p>x</p>' })).body.id as string;
    await schedulerOf(t.emu).advance(1_000); // sent: its emails.deliver job is pending
    expect(lastEvents(t, [single])).toEqual(['sent']);
    breakEmail(t, single);
    const singleLog = await logged(() => schedulerOf(t.emu).advance(60_000));
    const [singleRow] = failedJobs(t);

    const [broken, fine] = await broadcastQueued(t);
    for (let i = 0; i < 600 && !schedulerOf(t.emu).pending().some((j) => j.type === 'emails.deliver-many'); i++) await schedulerOf(t.emu).advance(100);
    expect(lastEvents(t, [broken, fine])).toEqual(['sent', 'sent']);
    breakEmail(t, broken);
    const batchLog = await logged(() => schedulerOf(t.emu).advance(60_000));
    const [, batchRow] = failedJobs(t);

    expect(singleRow).toEqual({ id: expect.any(Number), type: 'emails.deliver', team_id: FIXTURES.defaultTeamId, payload: { email_id: single }, error: expect.stringMatching(/^\w*Error: /) });
    expect(batchRow).toEqual({ ...singleRow, id: expect.any(Number), payload: { email_id: broken } });
    const message = singleRow.error.replace(/^\w*Error: /, '');
    expect(singleLog.filter((l) => l.includes(`job ${singleRow.id} (`))).toEqual([`[resend-emulator] warn: job ${singleRow.id} (emails.deliver) failed: ${message}`]);
    expect(batchLog.filter((l) => l.includes(`job ${batchRow.id} (`))).toEqual([`[resend-emulator] warn: job ${batchRow.id} (emails.deliver) failed: ${message}`]);
    expect(lastEvents(t, [fine])).toEqual(['delivered']);
  });
});
