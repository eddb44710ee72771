/**
 * How much the reliability suites run. `npm test` runs a bounded slice;
 * `npm run fuzz` sets `FUZZ=full` for the long run. Environment:
 * - `FUZZ=full`: the full run (`fullRuns`, no time cap);
 * - `FUZZ_RUNS=N`: runs (sequences or request rounds) whatever the mode;
 * - `FUZZ_SEED=N`: the fast-check seed (default fixed, so a slice is reproducible).
 * Each suite prints one `[reliability] name: …` line with its figures.
 */
export interface FuzzSettings {
  full: boolean;
  runs: number;
  seed: number;
  maxCommands: number;
  /** fast-check `interruptAfterTimeLimit` (ms): caps the quick slice; none in full mode. */
  timeLimitMs: number | undefined;
  /** vitest timeout for the test (ms). */
  testTimeoutMs: number;
  report(figures: Record<string, number | string>): void;
}

export function fuzzSettings(name: string, opts: { quickRuns: number; fullRuns: number; quickTimeMs?: number }): FuzzSettings {
  const full = process.env.FUZZ === 'full';
  const runs = Number(process.env.FUZZ_RUNS) || (full ? opts.fullRuns : opts.quickRuns);
  const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : 0x13_2026;
  return {
    full,
    runs,
    seed,
    maxCommands: full ? 60 : 30,
    timeLimitMs: full ? undefined : (opts.quickTimeMs ?? 15_000),
    testTimeoutMs: full ? 6 * 3_600_000 : 60_000,
    report(figures) {
      const text = Object.entries(figures).map(([k, v]) => `${v} ${k}`).join(', ');
      console.log(`[reliability] ${name}: ${text} (seed ${seed}, ${full ? 'full' : 'quick slice'})`);
    },
  };
}
