// The store's own pace on this machine, in this run (issue 30): the ms of
// 100,000 raw inserts into an in-memory SQLite store through better-sqlite3
// (one prepared INSERT, one transaction, rows shaped like a contact: a
// random UUID `id` under a UNIQUE index, a team, an email, a time), the
// median of 3. About 500 ms on the machine the goals were set on; scripts
// scale their time goals by `calibrationMs / 500`.
import Database from 'better-sqlite3';

export const CALIBRATION_ROWS = 100_000;
/** The calibration the goals are written for (ms). */
export const REFERENCE_CALIBRATION_MS = 500;

/** Median ms of 3 runs of 100,000 raw inserts. */
export function calibrate() {
  return calibrateWithCpu().ms;
}

/**
 * `calibrate()` with the CPU time of the same runs: `ms` the median wall
 * time, `cpuMs` the median CPU time of this process (user + system) over
 * the inserts. On a machine shared with other loads the wall time counts
 * the time the process waited for a core; the CPU time does not.
 */
export function calibrateWithCpu() {
  const runs = [];
  const cpuRuns = [];
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  for (let r = 0; r < 3; r++) {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE rows (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, team_id TEXT NOT NULL, email TEXT NOT NULL, created_at INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO rows (id, team_id, email, created_at) VALUES (?, ?, ?, ?)');
    const team = crypto.randomUUID();
    const t0 = performance.now();
    const c0 = cpu();
    db.transaction(() => {
      for (let i = 0; i < CALIBRATION_ROWS; i++) insert.run(crypto.randomUUID(), team, `user${i}@example.com`, Date.now());
    })();
    runs.push(performance.now() - t0);
    cpuRuns.push(cpu() - c0);
    db.close();
  }
  return { ms: runs.sort((a, b) => a - b)[1], cpuMs: cpuRuns.sort((a, b) => a - b)[1] };
}
