/**
 * The emulated clock (docs/reference/design.md#clock). One per server.
 * - `real`: follows wall time plus an offset that `advance` grows.
 * - `manual`: stands still until advanced.
 * All values are milliseconds since the Unix epoch.
 */
export type ClockMode = 'real' | 'manual';

/** The latest emulated time (ms): 9999-12-31T23:59:59.999Z, the end of ISO 8601 years. */
export const MAX_CLOCK_MS = 253_402_300_799_999;

/** What is saved of a clock (in the store, so a `--db` file keeps it across restarts). */
export interface ClockState {
  /** Emulated now when saved, ms. */
  nowMs: number;
  /** Real mode's offset from wall time when saved, ms. */
  offsetMs: number;
}

export class Clock {
  private offsetMs = 0;
  private manualNowMs: number;

  /** `startMs`: the manual clock's start (default: wall time now). */
  constructor(readonly mode: ClockMode, startMs: number = Date.now()) {
    this.manualNowMs = startMs;
  }

  /** Emulated now, in ms. */
  nowMs(): number {
    return this.mode === 'manual' ? this.manualNowMs : Date.now() + this.offsetMs;
  }

  /** What to save of the clock (see `ClockState`). */
  state(): ClockState {
    return { nowMs: this.nowMs(), offsetMs: this.offsetMs };
  }

  /**
   * Resumes from a saved state, never earlier than the saved emulated now:
   * manual mode stands at the saved now; real mode keeps the saved offset
   * (and follows wall time from there).
   */
  restore(saved: ClockState): void {
    if (this.mode === 'manual') this.manualNowMs = Math.max(this.manualNowMs, saved.nowMs);
    else this.offsetMs = Math.max(this.offsetMs, saved.offsetMs, saved.nowMs - Date.now());
  }

  /** Emulated now as a Date. */
  now(): Date {
    return new Date(this.nowMs());
  }

  /**
   * Moves the clock to `ms` if that is later than now (never backwards).
   * Used by the scheduler as it walks through due jobs. Throws RangeError
   * past `MAX_CLOCK_MS`.
   */
  moveTo(ms: number): void {
    const now = this.nowMs();
    if (ms <= now) return;
    if (!(ms <= MAX_CLOCK_MS)) throw new RangeError(`the emulated clock cannot go past ${new Date(MAX_CLOCK_MS).toISOString()}`);
    if (this.mode === 'manual') this.manualNowMs = ms;
    else this.offsetMs += ms - now;
  }
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000, sec: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};

/**
 * Parses a duration: a number of ms, or text like `10m`, `1h30m`, `5 s`,
 * `2 hours`, `in 1 min`. Returns ms, or `null` when it cannot be read.
 */
export function parseDuration(input: number | string): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : null;
  const text = input.trim().toLowerCase().replace(/^in\s+/, '');
  if (/^\d+$/.test(text)) return Number(text);
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;
  let total = 0;
  let matched = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const unit = UNITS[m[2]];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    matched += m[0];
  }
  if (!matched || matched.replace(/\s+/g, '') !== text.replace(/\s+|and|,/g, '')) return null;
  return Math.round(total);
}
