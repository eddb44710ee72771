/**
 * Evaluating condition rules and `{var: "event.x"}` references against a run's
 * context (docs/reference/resources.md#automations-and-runs: fields `event.*` and `contact.*`; operators eq,
 * neq, gt, gte, lt, lte, contains, starts_with, ends_with, exists, is_empty;
 * groups `and`/`or`).
 */

/** What a run knows: `event` = the event payload, `contact` = the contact's fields and properties. */
export interface RunContext {
  event: Record<string, unknown>;
  contact: Record<string, unknown> | null;
}

export type Rule =
  | { type: 'rule'; field: string; operator: string; value?: unknown }
  | { type: 'and' | 'or'; rules: Rule[] };

/**
 * The value of a dotted field: `event.plan` → payload.plan; `contact.first_name`;
 * `contact.<property>` or `contact.properties.<property>` for custom properties.
 * Undefined when absent.
 */
export function fieldValue(ctx: RunContext, field: string): unknown {
  const [root, ...path] = field.split('.');
  let cur: unknown = root === 'event' ? ctx.event : root === 'contact' ? ctx.contact : undefined;
  for (const part of path) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function equal(a: unknown, b: unknown): boolean {
  if (b === null) return a === null || a === undefined;
  if (typeof a === typeof b) return a === b;
  const na = num(a);
  const nb = num(b);
  if (na !== null && nb !== null) return na === nb;
  if (typeof b === 'boolean' && typeof a === 'string') return a === String(b);
  return false;
}

/** True when the rule holds. A missing field fails every operator except `neq`, `is_empty`. */
export function evaluate(rule: Rule, ctx: RunContext): boolean {
  if (rule.type !== 'rule') return rule.type === 'and' ? rule.rules.every((r) => evaluate(r, ctx)) : rule.rules.some((r) => evaluate(r, ctx));
  const actual = fieldValue(ctx, rule.field);
  const expected = rule.value;
  switch (rule.operator) {
    case 'eq': return equal(actual, expected);
    case 'neq': return !equal(actual, expected);
    case 'gt': case 'gte': case 'lt': case 'lte': {
      const a = num(actual);
      const b = num(expected);
      if (a === null || b === null) return false;
      return rule.operator === 'gt' ? a > b : rule.operator === 'gte' ? a >= b : rule.operator === 'lt' ? a < b : a <= b;
    }
    case 'contains': return Array.isArray(actual) ? actual.some((x) => equal(x, expected)) : actual !== undefined && actual !== null && String(actual).includes(String(expected));
    case 'starts_with': return actual !== undefined && actual !== null && String(actual).startsWith(String(expected));
    case 'ends_with': return actual !== undefined && actual !== null && String(actual).endsWith(String(expected));
    case 'exists': return actual !== undefined && actual !== null;
    case 'is_empty': return actual === undefined || actual === null || actual === '' || (Array.isArray(actual) && actual.length === 0);
    default: return false;
  }
}

/** Is `v` a `{var: "event.x"}` reference? */
export function isVarRef(v: unknown): v is { var: string } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as any).var === 'string' && Object.keys(v).length === 1;
}

/**
 * Replaces `{var}` references in a map of values; a reference to an absent
 * field leaves the key out (so template fallbacks apply).
 */
export function resolveValues(values: Record<string, unknown> | undefined, ctx: RunContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    const resolved = isVarRef(v) ? fieldValue(ctx, v.var) : v;
    if (resolved !== undefined) out[k] = resolved;
  }
  return out;
}
