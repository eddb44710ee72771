import { describe, expect, it } from 'vitest';
import { apiTime, isoTime } from '../../src/http/format.js';

describe('apiTime', () => {
  it('renders emulated ms as `YYYY-MM-DD HH:MM:SS.ffffff+00`, the same instant twice alike, another instant anew', () => {
    const t = Date.parse('2026-11-22T10:00:00.123Z');
    expect(apiTime(t)).toBe('2026-11-22 10:00:00.123000+00');
    expect(apiTime(t)).toBe('2026-11-22 10:00:00.123000+00');
    expect(apiTime(t + 1)).toBe('2026-11-22 10:00:00.124000+00');
    expect(apiTime(t)).toBe('2026-11-22 10:00:00.123000+00');
    expect(apiTime(0)).toBe('1970-01-01 00:00:00.000000+00');
    expect(apiTime(null)).toBeNull();
    expect(apiTime(undefined)).toBeNull();
    expect(isoTime(t)).toBe('2026-11-22T10:00:00.123Z');
  });
});
