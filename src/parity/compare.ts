/**
 * Comparing the two answers to one call: status, error `name` and
 * `message` (ids in it masked), then the shapes of the bodies (./shape.ts)
 * with enums read from the operation's response schema.
 */
import { loadSpec, type Operation, type Schema } from '../http/spec.js';
import { routerOf } from '../http/router.js';
import { compareShapes, shapeOf, type ShapeDifference } from './shape.js';
import type { ReceivedResponse } from './exchange.js';

/** The outcome of one call made to both sides. */
export interface CallResult {
  /** The step (tour) or operation (replay, proxy) it was. */
  step: string;
  method: string;
  /** Path and query as sent to the emulator. */
  path: string;
  upstream: ReceivedResponse;
  emulator: ReceivedResponse;
  /** What differed, one text each (`status 201 / 422`, `$.name: ...`); empty when they matched. */
  differences: string[];
}

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** An error message with what is data in it masked (ids as `<id>`), so two messages compare by their words. */
export function maskMessage(message: string): string {
  return message.replace(UUID_ANYWHERE, '<id>');
}

/** The error `name` and `message` of a body, when it has them. */
function errorOf(json: unknown): { name?: string; message?: string } {
  if (!json || typeof json !== 'object') return {};
  const { name, message } = json as { name?: unknown; message?: unknown };
  return { name: typeof name === 'string' ? name : undefined, message: typeof message === 'string' ? message : undefined };
}

/** The operation of the document a request is for, or null (an unknown route). */
export async function operationOf(method: string, path: string): Promise<Operation | null> {
  const { operations } = await loadSpec();
  const match = routerOf(operations).find(method, path.split('?')[0]);
  return match ? operations[match.index] : null;
}

/** The response schema of `op` for `status` (that code, else `default`), or undefined. */
function responseSchema(op: Operation | null, status: number): Schema | undefined {
  return op?.responses[String(status)] ?? op?.responses.default;
}

function shown(kinds: string[]): string {
  return kinds.length ? kinds.join('|') : 'absent';
}

/** One shape difference as text: `$.path: upstream K, emulator K`. */
function describeShapeDifference(d: ShapeDifference): string {
  return `${d.path}: upstream ${shown(d.upstream)}, emulator ${shown(d.emulator)}`;
}

/**
 * The differences between the two answers to `method path`: the status;
 * for errors the `name` and the masked `message`; then (same status) the
 * shapes (`loose`: paths whose enum value is compared as a type only).
 * Empty when they match.
 */
export async function compareAnswers(method: string, path: string, upstream: ReceivedResponse, emulator: ReceivedResponse, loose: readonly string[] = []): Promise<string[]> {
  const out: string[] = [];
  if (upstream.status !== emulator.status) out.push(`status ${upstream.status} / ${emulator.status}`);
  // A success has no error name: its `name` is data (a segment's name).
  const a = upstream.status >= 400 ? errorOf(upstream.json) : {};
  const b = emulator.status >= 400 ? errorOf(emulator.json) : {};
  if (upstream.status >= 400 || emulator.status >= 400) {
    if (a.name !== b.name) out.push(`name ${a.name ?? '-'} / ${b.name ?? '-'}`);
    if (maskMessage(a.message ?? '') !== maskMessage(b.message ?? '')) out.push(`message ${JSON.stringify(a.message ?? null)} / ${JSON.stringify(b.message ?? null)}`);
  }
  if (upstream.status === emulator.status) {
    const op = await operationOf(method, path);
    const schema = responseSchema(op, upstream.status);
    const shapes = compareShapes(shapeOf(upstream.json, schema), shapeOf(emulator.json, schema), loose);
    // An error's name and message are compared above, by value and masked.
    const said = upstream.status >= 400 ? new Set(['$.name', '$.message']) : new Set<string>();
    out.push(...shapes.filter((d) => !said.has(d.path)).map(describeShapeDifference));
  }
  return out;
}
