/**
 * Rules of an automation graph that its JSON Schema cannot say 
 * (docs/reference/resources.md#automations-and-runs): step keys unique; connections between existing steps; nothing
 * leads into the trigger; no cycles; connection types that fit their source
 * step (`condition_met`/`condition_not_met` only from a condition, which has
 * no other; `timeout`/`event_received` only from a wait_for_event); `delay`
 * durations and `wait_for_event` timeouts readable and at most 30 days.
 * Every failure is 422 `validation_error`.
 */
import { parseDuration } from '../../clock/clock.js';
import { automationMessages } from './messages.js';
import type { Connection, ConnectionType, Graph, Step } from './store.js';

/** Longest delay or wait timeout (docs/reference/resources.md#automations-and-runs). */
export const MAX_WAIT_MS = 30 * 24 * 3_600_000;

/** Reads a step duration (`30 minutes`, `1 hour`, `2 days`) in ms; throws 422 if unreadable, not positive or over 30 days. */
export function stepDuration(text: unknown, field: string): number {
  const ms = typeof text === 'string' ? parseDuration(text) : null;
  if (ms === null || ms <= 0) throw automationMessages.durationUnreadable(field, text);
  if (ms > MAX_WAIT_MS) throw automationMessages.durationTooLong(field);
  return ms;
}

const ALLOWED: Record<string, ConnectionType[]> = {
  condition: ['condition_met', 'condition_not_met'],
  wait_for_event: ['default', 'event_received', 'timeout'],
};

/**
 * Validates and normalises a graph (connection `type` defaults to `default`).
 * Throws `ApiError` 422 `validation_error`.
 */
export function checkGraph(steps: Step[], connections: { from: string; to: string; type?: ConnectionType }[]): Graph {
  const byKey = new Map<string, Step>();
  steps.forEach((s, i) => {
    if (byKey.has(s.key)) throw automationMessages.duplicateStepKey(i, s.key);
    byKey.set(s.key, s);
    if (s.type === 'delay') stepDuration(s.config.duration, `steps[${i}].config.duration`);
    if (s.type === 'wait_for_event' && s.config.timeout !== undefined) stepDuration(s.config.timeout, `steps[${i}].config.timeout`);
  });
  const conns: Connection[] = connections.map((c, i) => {
    const type = c.type ?? 'default';
    for (const end of ['from', 'to'] as const) {
      if (!byKey.has(c[end])) throw automationMessages.unknownStepKey(i, end, c[end]);
    }
    if (byKey.get(c.to)!.type === 'trigger') throw automationMessages.connectionToTrigger(i);
    const sourceType = byKey.get(c.from)!.type;
    const allowed = ALLOWED[sourceType] ?? ['default'];
    if (!allowed.includes(type)) {
      throw automationMessages.connectionType(i, sourceType, allowed);
    }
    return { from: c.from, to: c.to, type };
  });
  // Cycle check (depth-first, colours).
  const out = new Map<string, string[]>();
  for (const c of conns) out.set(c.from, [...(out.get(c.from) ?? []), c.to]);
  const colour = new Map<string, 1 | 2>();
  const visit = (k: string): void => {
    colour.set(k, 1);
    for (const n of out.get(k) ?? []) {
      if (colour.get(n) === 1) throw automationMessages.cycle(n);
      if (!colour.has(n)) visit(n);
    }
    colour.set(k, 2);
  };
  for (const k of byKey.keys()) if (!colour.has(k)) visit(k);
  return { steps: steps.map((s) => ({ key: s.key, type: s.type, config: s.config })), connections: conns };
}
