/**
 * `emulator parity` (src/cli.ts): the tour against the upstream and an
 * emulator started here, or a HAR replayed against it; prints the report
 * and writes the HAR of both sides. docs/parity.md.
 */
import { defaultConfig, run } from '../server.js';
import type { FaultInput } from '../faults/rules.js';
import { DEFAULT_BACKOFF, type Backoff, type Exchange, type Target } from './exchange.js';
import type { CallResult } from './compare.js';
import { entryOf, harOf, readHar, writeHar } from './har.js';
import { redactEntry } from './redact.js';
import { formatReport, type ReportNotes } from './report.js';
import { replayHar, upstreamEntries } from './replay.js';
import { describeTour, newRunName, runTour } from './run-tour.js';
import { TOUR, tourSends } from './tour.js';

/** The service's public API base: `--base-url`'s default. */
const SERVICE_BASE_URL = 'https://api.resend.com';

/** Options of `runParity` (the flags of `emulator parity`). */
export interface ParityOptions {
  /** The upstream's key (the tour; not needed with `upstreamHar` or `dryRun`). */
  apiKey?: string;
  /** The upstream's base URL (default `SERVICE_BASE_URL`). */
  baseUrl?: string;
  /** A HAR to replay instead of calling an upstream. */
  upstreamHar?: string;
  /** Write both sides here (HAR 1.2, redacted). */
  har?: string;
  /** List the calls, make none. */
  dryRun?: boolean;
  /** The emulator's fixtures (a bundled set or a file) and fault rules. */
  fixtures?: string;
  faults?: FaultInput[];
  backoff?: Backoff;
  /** Stops the tour after the current step (then it cleans up and rejects). */
  signal?: AbortSignal;
  /** Where the report's lines go (default: stdout). */
  print?: (line: string) => void;
}

/** What a parity run gave: the compared calls and the report's lines. */
export interface ParityResult {
  results: CallResult[];
  lines: string[];
}

/**
 * Runs `emulator parity`: with `dryRun`, lists the calls; else starts an
 * emulator (in process, on 127.0.0.1, manual clock), runs the tour against
 * `baseUrl` and it (or replays `upstreamHar` against it), prints the
 * report, writes `har`, and closes the emulator. Rejects with an Error whose
 * message is meant for the user: no key, an unreadable HAR, an upstream
 * that cannot be reached (after cleaning up what the run created).
 */
export async function runParity(options: ParityOptions): Promise<ParityResult> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const baseUrl = (options.baseUrl ?? SERVICE_BASE_URL).replace(/\/+$/, '');
  if (options.dryRun) {
    const lines = options.upstreamHar
      ? upstreamEntries(readHar(options.upstreamHar)).map((e) => `${e._step ? `${e._step}: ` : ''}${e.request.method} ${new URL(e.request.url).pathname}${new URL(e.request.url).search}`)
      : [
          `The tour against ${baseUrl} and an emulator (${TOUR.length} calls on each, ${tourSends()} email sent to delivered@resend.dev):`,
          ...describeTour(),
        ];
    lines.forEach(print);
    return { results: [], lines };
  }
  const entries = options.upstreamHar ? readHar(options.upstreamHar) : null;
  if (!entries && !options.apiKey) throw new Error('an API key is needed: --api-key KEY or RESEND_API_KEY (or --upstream-har FILE, or --dry-run)');
  const emu = await run(defaultConfig({ clock: 'manual', logLevel: 'error', fixtures: options.fixtures, faults: options.faults }), '127.0.0.1', 0, null);
  try {
    const emulator: Target = { side: 'emulator', baseUrl: emu.url, apiKey: emu.apiKey };
    const backoff = options.backoff ?? DEFAULT_BACKOFF;
    let results: CallResult[];
    let exchanges: Exchange[];
    let notes: ReportNotes = {};
    const secrets = [emu.apiKey, ...(options.apiKey ? [options.apiKey] : [])];
    if (entries) {
      const replay = await replayHar(entries, emulator, backoff);
      results = replay.results;
      // The recorded side as it was recorded, then the emulator's answers.
      exchanges = replay.exchanges;
      if (options.har) writeHar(options.har, harOf([...upstreamEntries(entries).map((e) => redactEntry({ ...e, _side: 'upstream' }, secrets)), ...exchanges.map((x) => redactEntry(entryOf(x), secrets))]));
    } else {
      const upstream: Target = { side: 'upstream', baseUrl, apiKey: options.apiKey! };
      const tour = await runTour({ upstream, emulator, run: newRunName(), backoff, signal: options.signal });
      results = tour.results;
      exchanges = tour.exchanges;
      notes = { skipped: tour.skipped, cleanupFailures: tour.cleanupFailures };
      if (options.har) writeHar(options.har, harOf(exchanges.map((x) => redactEntry(entryOf(x), secrets))));
    }
    const lines = formatReport(results, notes);
    if (options.har) lines.push(`both sides recorded in ${options.har} (API keys removed)`);
    lines.forEach(print);
    return { results, lines };
  } finally {
    await emu.close();
  }
}
