/**
 * The report of a parity run, as `emulator parity` prints it and the
 * recording proxy prints at stop: a summary, then one line per differing
 * call naming its method and path, with both answers (docs/parity.md
 * "Reading the report").
 */
import type { CallResult } from './compare.js';
import type { ReceivedResponse } from './exchange.js';

/** An answer in a few words: `201` or `422 validation_error "message"`. */
function answerSummary(r: ReceivedResponse): string {
  const { name, message } = (r.json ?? {}) as { name?: unknown; message?: unknown };
  if (r.status >= 400 && typeof name === 'string') return `${r.status} ${name}${typeof message === 'string' ? ` ${JSON.stringify(message)}` : ''}`;
  return String(r.status);
}

/** One line for a differing call: `✗ step METHOD path: upstream <answer>, emulator <answer>; <differences>`. */
function differenceLine(r: CallResult): string {
  return `✗ ${r.step} ${r.method} ${r.path}: upstream ${answerSummary(r.upstream)}, emulator ${answerSummary(r.emulator)}; ${r.differences.join('; ')}`;
}

/** What a report says beside the calls: steps skipped, cleanup failures, calls not forwarded. */
export interface ReportNotes {
  skipped?: { step: string; reason: string }[];
  cleanupFailures?: string[];
  notForwarded?: string[];
}

/** The report's lines: `N calls compared: M matched, K differed`, the matched steps (each once, `×N` when it matched N times), a line per differing call, then the notes. */
export function formatReport(results: readonly CallResult[], notes: ReportNotes = {}): string[] {
  const differed = results.filter((r) => r.differences.length);
  const matched = results.filter((r) => !r.differences.length);
  const lines = [`parity: ${results.length} call${results.length === 1 ? '' : 's'} compared: ${matched.length} matched, ${differed.length} differed`];
  if (matched.length) {
    // A step matched several times (a proxied suite's calls) is named once, with its count.
    const counts = new Map<string, number>();
    for (const r of matched) counts.set(r.step, (counts.get(r.step) ?? 0) + 1);
    lines.push(`matched: ${[...counts].map(([step, n]) => (n > 1 ? `${step} ×${n}` : step)).join(', ')}`);
  }
  lines.push(...differed.map(differenceLine));
  for (const s of notes.skipped ?? []) lines.push(`skipped ${s.step}: ${s.reason}`);
  for (const f of notes.cleanupFailures ?? []) lines.push(`cleanup failed: ${f} (delete it by hand)`);
  for (const n of notes.notForwarded ?? []) lines.push(`not forwarded: ${n}`);
  return lines;
}
