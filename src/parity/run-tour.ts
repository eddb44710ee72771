/**
 * Runs the tour (./tour.ts) against two sides, step by step: the same call
 * to the upstream, then to the emulator, each with the ids that side gave,
 * compared (./compare.ts). What the run created is deleted at the end on
 * each side, even when a step failed: the ids it captured, nothing else.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_BACKOFF, authHeaders, joinUrl, send, type Backoff, type Exchange, type Target } from './exchange.js';
import { compareAnswers, type CallResult } from './compare.js';
import { TOUR, type TourStep } from './tour.js';

/** The name prefix of what a run creates: `resend-emulator-parity-<8 hex>`. */
export function newRunName(): string {
  return `resend-emulator-parity-${randomBytes(4).toString('hex')}`;
}

/** What a tour run gave: the compared calls, every exchange (both sides, cleanup included, in order), the steps skipped and why, cleanup failures. */
export interface TourRun {
  results: CallResult[];
  exchanges: Exchange[];
  skipped: { step: string; reason: string }[];
  cleanupFailures: string[];
}

/** Options of `runTour`. */
export interface TourOptions {
  upstream: Target;
  emulator: Target;
  /** The run's name prefix (`newRunName()`). */
  run: string;
  steps?: readonly TourStep[];
  backoff?: Backoff;
  /** Once aborted, no further step runs; the run cleans up and rejects. */
  signal?: AbortSignal;
}

/** `template` with `{run}`, `{random}` and `{<capture>}` filled in; null when it names a capture this side lacks. */
function fill(template: string, run: string, random: string, ids: Map<string, string>): string | null {
  let missing = false;
  const out = template.replace(/\{([a-z-]+)\}/g, (_, name: string) => {
    if (name === 'run') return run;
    if (name === 'random') return random;
    const id = ids.get(name);
    if (id === undefined) missing = true;
    return encodeURIComponent(id ?? '');
  });
  return missing ? null : out;
}

/** A JSON body with `{run}` filled in its strings. */
function fillBody(body: unknown, run: string): string {
  return JSON.stringify(body).split('{run}').join(run);
}

/** The steps as `emulator parity --dry-run` lists them: `METHOD path [body]`, one line each, then the cleanup. */
export function describeTour(steps: readonly TourStep[] = TOUR, run = '<run>'): string[] {
  const lines = steps.map((s) => {
    const auth = s.auth === 'none' ? ' (no API key)' : s.auth === 'unknown' ? ' (an unknown API key)' : '';
    return `${s.name}: ${s.method} ${s.path.split('{run}').join(run)}${s.body !== undefined ? ` ${fillBody(s.body, run)}` : ''}${auth}`;
  });
  const cleanups = steps.filter((s) => s.capture?.cleanup).map((s) => `DELETE ${s.capture!.cleanup} (only if created and not already deleted)`);
  return [...lines, ...cleanups.map((c) => `cleanup: ${c}`)];
}

/**
 * Runs `steps` (default: the tour) on both sides and compares each call.
 * A step naming an id one side did not capture is skipped (listed in
 * `skipped`). Rejects when a side cannot be reached, or when `signal` is
 * aborted, after cleaning up.
 */
export async function runTour(options: TourOptions): Promise<TourRun> {
  const { upstream, emulator, run } = options;
  const steps = options.steps ?? TOUR;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const random = randomUUID();
  const ids = { upstream: new Map<string, string>(), emulator: new Map<string, string>() };
  const cleanups = new Map<string, string>();
  const out: TourRun = { results: [], exchanges: [], skipped: [], cleanupFailures: [] };

  const call = async (target: Target, step: string, method: string, path: string, body: string | undefined, auth: TourStep['auth'] = 'key'): Promise<Exchange> => {
    const headers: Record<string, string> = { ...authHeaders(auth, target.apiKey), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), 'user-agent': 'resend-emulator-parity' };
    const request = { method, url: joinUrl(target.baseUrl, path), headers, body, auth };
    const answer = await send(request, backoff);
    const x: Exchange = { side: target.side, step, request, ...answer };
    out.exchanges.push(x);
    return x;
  };

  try {
    for (const step of steps) {
      // Interrupted (Ctrl-C): no further step, but the cleanup below still runs.
      if (options.signal?.aborted) throw new Error('interrupted; what the run created was deleted');
      const paths = { upstream: fill(step.path, run, random, ids.upstream), emulator: fill(step.path, run, random, ids.emulator) };
      if (paths.upstream === null || paths.emulator === null) {
        out.skipped.push({ step: step.name, reason: `needs an id an earlier step did not create on the ${paths.upstream === null ? 'upstream' : 'emulator'}` });
        continue;
      }
      const body = step.body === undefined ? undefined : fillBody(step.body, run);
      if (step.capture?.cleanup) cleanups.set(step.capture.name, step.capture.cleanup);
      // Each side's id is kept as soon as it answers, so a failure of the other side still leaves it to clean up.
      const keep = (x: Exchange) => {
        const id = (x.response.json as { id?: unknown } | undefined)?.id;
        if (step.capture && x.response.status < 300 && typeof id === 'string') ids[x.side].set(step.capture.name, id);
        return x;
      };
      const a = keep(await call(upstream, step.name, step.method, paths.upstream, body, step.auth));
      const b = keep(await call(emulator, step.name, step.method, paths.emulator, body, step.auth));
      if (step.deletes && a.response.status < 300) ids.upstream.delete(step.deletes);
      if (step.deletes && b.response.status < 300) ids.emulator.delete(step.deletes);
      const differences = await compareAnswers(step.method, paths.emulator, a.response, b.response, step.loose);
      out.results.push({ step: step.name, method: step.method, path: paths.emulator, upstream: a.response, emulator: b.response, differences });
    }
  } finally {
    // Only the ids this run captured and did not delete yet: never a listed one.
    for (const target of [upstream, emulator]) {
      for (const [name, template] of cleanups) {
        if (!ids[target.side].has(name)) continue;
        const path = fill(template, run, random, ids[target.side])!;
        try {
          const x = await call(target, `cleanup:${name}`, 'DELETE', path, undefined);
          if (x.response.status >= 300) out.cleanupFailures.push(`${target.side} DELETE ${path}: ${x.response.status} ${x.response.body.slice(0, 200)}`);
        } catch (err) {
          out.cleanupFailures.push(`${target.side} DELETE ${path}: ${(err as Error).message}`);
        }
      }
    }
  }
  return out;
}
