/**
 * The emulated clock (DESIGN.md "Behaviour: Clock"). One per server.
 * - `real`: follows wall time plus an offset that `advance` grows.
 * - `manual`: stands still until advanced.
 * All values are milliseconds since the Unix epoch.
 */
export type ClockMode = 'real' | 'manual';

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

  /** Emulated now as a Date. */
  now(): Date {
    return new Date(this.nowMs());
  }

  /**
   * Moves the clock to `ms` if that is later than now (never backwards).
   * Used by the scheduler as it walks through due jobs.
   */
  moveTo(ms: number): void {
    const now = this.nowMs();
    if (ms <= now) return;
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
