/**
 * The command line (docs/reference/design.md#cli): `emulator start [flags]`, every flag
 * also read from `EMULATOR_<FLAG>` (e.g. `EMULATOR_PORT`).
 *
 * Failures reject `main()` with a `CliError` whose message is meant to be
 * printed as one line `resend-emulator: <message>` (bin/emulator.js does so
 * and exits 1), never with the help text or a stack trace:
 * - a flag out of range (`--port abc`, `--port 99999`, `--rate-limit -1`):
 *   `--port must be an integer 0-65535`, ...;
 * - an unreadable or non-JSON `--fixtures` file: `cannot read fixtures FILE: ...`;
 * - an unreadable or non-JSON `--faults` file: `cannot read faults FILE: ...`;
 *   one that is not an array of valid rules: `--faults FILE: rule N: <the
 *   admin API's message>` (or `--faults FILE: not a JSON array of rules`);
 * - a port in use: `port 4400 is already in use (--port)`, or
 *   `port 2587 is already in use (--smtp-port)` for the SMTP relay, or
 *   `port 4443 is already in use (--https-port)` for the `--tls` listener;
 * - a `--tls-dir` that cannot be written: `cannot start: ...`;
 * - a `--db` file another running emulator holds: `--db FILE is in use by
 *   another running emulator ...`; one that is not a database, cannot be
 *   opened for writing (file or folder permissions), or was written by a
 *   newer version: `--db FILE is not an SQLite database ...`, `--db FILE
 *   cannot be opened for writing ...`, `--db FILE was written by a newer
 *   resend-emulator ...`, each saying what to do (src/store/db.ts);
 * - a usage error (unknown flag, missing command): yargs's message, then a
 *   second line pointing at `emulator start --help`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { defaultConfig, run, type ListenFailure } from './server.js';
import { DEFAULT_HTTPS_PORT } from './context.js';
import { loadFixtures } from './state/fixtures.js';
import { checkFaultInputs } from './faults/store.js';
import { checkRelayUrl } from './admin/release.js';
import type { FaultInput } from './faults/rules.js';
import { PLAN_NAMES } from './state/plans.js';
import { watchParent } from './parent-watch.js';
import type { EmulatorConfig } from './context.js';

/** A start-up or usage failure; `message` is the user-facing text. */
export class CliError extends Error {
  override name = 'CliError';
}

/** The patterns of `--relay-allow` (comma-separated, blanks dropped). */
function relayAllowList(text: string): string[] {
  return text.split(',').map((p) => p.trim()).filter(Boolean);
}

const USAGE_HINT = 'Run `emulator start --help` for the flags.';

/** Checks the numeric flags (yargs turns `--port abc` into NaN); returns true or throws a CliError. */
function checkNumbers(args: { port?: number; 'smtp-port'?: number; smtp?: boolean; 'webhook-timeout'?: number; 'rate-limit'?: number; 'admin-token'?: string; 'https-port'?: number; relay?: string; 'relay-allow'?: string }): true {
  if (args.relay !== undefined) {
    try {
      checkRelayUrl(args.relay);
    } catch (err) {
      throw new CliError(`--${(err as Error).message}`);
    }
  }
  if (args['relay-allow'] !== undefined && relayAllowList(args['relay-allow']).length === 0) {
    throw new CliError('--relay-allow must name at least one address or pattern, e.g. *@example.com,me@example.org');
  }
  if (args['admin-token'] !== undefined && args['admin-token'].trim() === '') {
    throw new CliError('--admin-token must not be empty (leave it out to keep the admin API open to local clients)');
  }
  const p = args.port;
  if (p !== undefined && !(Number.isInteger(p) && p >= 0 && p <= 65535)) {
    throw new CliError('--port must be an integer 0-65535');
  }
  const sp = args['smtp-port'];
  if (args.smtp !== false && sp !== undefined && !(Number.isInteger(sp) && sp >= 0 && sp <= 65535)) {
    throw new CliError('--smtp-port must be an integer 0-65535');
  }
  const hp = args['https-port'];
  if (hp !== undefined && !(Number.isInteger(hp) && hp >= 0 && hp <= 65535)) {
    throw new CliError('--https-port must be an integer 0-65535');
  }
  const t = args['webhook-timeout'];
  if (t !== undefined && !(Number.isInteger(t) && t > 0)) {
    throw new CliError('--webhook-timeout must be a positive integer (ms)');
  }
  const r = args['rate-limit'];
  if (r !== undefined && !(Number.isFinite(r) && r >= 0)) {
    throw new CliError('--rate-limit must be a number >= 0 (0 = off)');
  }
  return true;
}

/**
 * Turns an error from binding a listener into a CliError naming the flag at
 * fault: `--port`, or `--smtp-port` when the SMTP relay could not bind.
 */
function listenError(err: ListenFailure, host: string, port: number, smtpPort: number | null, httpsPort?: number): Error {
  const [flag, p] = err?.listener === 'smtp' ? ['--smtp-port', smtpPort] : err?.listener === 'https' ? ['--https-port', httpsPort] : ['--port', port];
  switch (err?.code) {
    case 'EADDRINUSE':
      return new CliError(`port ${p} is already in use (${flag})`);
    case 'EACCES':
      return new CliError(`no permission to listen on port ${p} (${flag})`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`cannot listen on host ${host} (--host): ${err.code}`);
    case 'EMULATOR_DB_IN_USE':
    case 'EMULATOR_DB_NOT_A_DATABASE':
    case 'EMULATOR_DB_NO_ACCESS':
    case 'EMULATOR_DB_TOO_NEW':
    case 'EMULATOR_DB_TOO_OLD':
      return new CliError(err.message);
    default:
      return err instanceof CliError ? err : new CliError(`cannot start: ${err?.message ?? err}`);
  }
}

/** The end of `emulator start --help`: how the flags are read from the environment (yargs `.env('EMULATOR')`, `spellEnvBooleans`). */
const ENV_EPILOGUE = [
  'Environment: every flag is also read from EMULATOR_<FLAG>, the flag in capitals with - as _ (a flag on the command line wins). For example:',
  '  EMULATOR_PORT=4400',
  '  EMULATOR_HOST=0.0.0.0',
  '  EMULATOR_DB=/data/emulator.db',
  '  EMULATOR_SMTP_PORT=0',
  '  EMULATOR_TLS=1  (booleans: 1/0, true/false, yes/no, on/off)',
  '  EMULATOR_EXIT_WITH_PARENT=0',
].join('\n');

/** The flags of `emulator start` (every one also read from `EMULATOR_<FLAG>`). */
const startOptions = (y: Argv) =>
  y
    .option('port', { type: 'number', default: 4400, describe: 'Port to listen on (0 picks a free one)' })
    .option('smtp-port', { type: 'number', default: 2587, describe: 'Port of the SMTP relay (user resend, password an API key; 0 picks a free one)' })
    .option('smtp', { type: 'boolean', default: true, describe: 'Run the SMTP relay (--no-smtp turns it off)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Host to bind (0.0.0.0 inside Docker)' })
    .option('db', { type: 'string', default: ':memory:', describe: 'SQLite file, or :memory:' })
    .option('fixtures', { type: 'string', describe: 'What to seed: a bundled set, default (set up, no activity) or demo (with sent emails, a sent broadcast, an inbox thread), or a fixtures JSON file' })
    .option('api-key', { type: 'string', describe: "Token of the default team's full-access key" })
    .option('clock', { choices: ['real', 'manual'] as const, default: 'real' as const, describe: 'Emulated clock mode' })
    .option('webhooks', { choices: ['send', 'record'] as const, default: 'send' as const, describe: 'POST webhook deliveries, or only record them' })
    .option('webhook-timeout', { type: 'number', default: 10_000, describe: 'Webhook delivery timeout, ms' })
    .option('admin-token', { type: 'string', describe: 'Require this token (Authorization: Bearer) on the admin API /_emulator/* but health; the inbox page asks for it' })
    .option('relay', { type: 'string', describe: 'A real SMTP server (smtp://user:pass@host:port, STARTTLS when offered; smtps:// for TLS) that the inbox page\'s "Send to a real inbox" sends a stored email through, only when asked' })
    .option('relay-allow', { type: 'string', describe: 'Comma-separated recipients a release may go to: addresses or * patterns (*@example.com,me@x.org); default any' })
    .option('public-url', { type: 'string', describe: 'URL other services reach the emulator at, for the links it hands out (default: the listening URL)' })
    .option('mount-path', { type: 'string', describe: 'Serve the API under this path prefix (e.g. /resend, behind a proxy that keeps it): the SDK baseUrl is http://HOST:PORT/resend' })
    .option('rate-limit', { type: 'number', default: 0, describe: 'Requests per second per team; 0 = off' })
    .option('plan', { choices: PLAN_NAMES, describe: "Count usage against this plan's quotas (429 over them; default: unlimited)" })
    .option('log-level', { choices: ['error', 'warn', 'info', 'debug'], default: 'info', describe: 'Log level' })
    .option('validate-responses', { type: 'boolean', default: false, describe: 'Check every response against spec/openapi.yaml (for development)' })
    // EMULATOR_URL is where clients reach an emulator (resend-emulator/playwright reads it,
    // docs/playwright.md), often set in the same environment that starts this one: not a flag.
    .option('url', { type: 'string', hidden: true, describe: 'EMULATOR_URL, read by clients; ignored here' })
    .option('faults', { type: 'string', describe: 'JSON file: an array of fault rules (bodies of POST /_emulator/faults), added at start and at every reset' })
    .option('tls', {
      type: 'boolean',
      default: false,
      describe: 'Also serve HTTPS as api.resend.com, signed by a local CA (`emulator ca` names it); SMTP then offers STARTTLS',
    })
    .option('https-port', { type: 'number', default: DEFAULT_HTTPS_PORT, describe: 'Port of the HTTPS listener with --tls (0 picks a free one)' })
    .option('tls-dir', { type: 'string', describe: 'Folder of the local CA (default: beside the --db file, or the user cache folder for :memory:)' })
    // The recording proxy (src/parity/proxy.ts, docs/parity.md#the-recording-proxy).
    .option('upstream', { type: 'string', describe: 'Also forward every API call to this base URL (e.g. https://api.resend.com); sends only to test addresses; differences listed on stop' })
    .option('upstream-api-key', { type: 'string', describe: "With --upstream: the key sent upstream instead of each request's own" })
    .option('record', { type: 'string', describe: 'With --upstream: write both answers of every call to this HAR file on stop (API keys removed)' })
    .option('exit-with-parent', {
      type: 'boolean',
      default: true,
      describe: 'Stop when the process that started it exits (e.g. npx killed); --no-exit-with-parent to outlive it (`emulator start &` in a script)',
    })
    .epilogue(ENV_EPILOGUE)
    .check(checkNumbers);

/** The flags of `emulator ca`. */
const caOptions = (y: Argv) =>
  y
    .option('tls-dir', { type: 'string', describe: 'Folder of the local CA (default: as `emulator start`)' })
    .option('db', { type: 'string', default: ':memory:', describe: 'The --db of `emulator start` (the default folder is beside it)' })
    .option('public-url', { type: 'string', describe: 'The --public-url of `emulator start` (its host is one of the names the CA permits)' })
    .option('pem', { type: 'boolean', default: false, describe: "Print the CA certificate's PEM instead of its path" })
    // The environment of `emulator start` (EMULATOR_PORT, ... as the Docker image sets them) is no error here.
    .strict(false);

type StartArgs = Awaited<ReturnType<typeof startOptions>['argv']>;
type CaArgs = Awaited<ReturnType<typeof caOptions>['argv']>;

/**
 * The `--faults FILE` of `emulator start` and `emulator parity`: a JSON array
 * of fault rules, each checked as the admin API checks it. Throws a CliError
 * `cannot read faults FILE: ...` (unreadable, not JSON) or `--faults FILE:
 * rule N: ...` (not valid rules).
 */
async function readFaultsFile(file: string): Promise<FaultInput[]> {
  let list: unknown;
  try {
    list = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`cannot read faults ${file}: ${(err as Error).message}`);
  }
  try {
    await checkFaultInputs(list);
  } catch (err) {
    throw new CliError(`--faults ${file}: ${(err as Error).message}`);
  }
  return list as FaultInput[];
}

/** `emulator start`: reads the fixtures and faults files, starts the listeners, prints where they are, and closes on SIGINT/SIGTERM or when the process that started it exits (`--exit-with-parent`). Throws a CliError on a bad file or a listener that cannot bind. */
async function start(args: StartArgs): Promise<void> {
  if (args.fixtures !== undefined) {
    // Read once up front, so a bad file fails before a --db file is created.
    let fx: unknown;
    try {
      fx = loadFixtures(args.fixtures);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    if (fx === null || typeof fx !== 'object' || Array.isArray(fx)) {
      throw new CliError(`cannot read fixtures ${args.fixtures}: not a JSON object`);
    }
  }
  // Read and checked up front too, so a bad file fails before anything is opened.
  const faults = args.faults === undefined ? undefined : await readFaultsFile(args.faults);
  const config = defaultConfig({
    db: args.db,
    fixtures: args.fixtures,
    apiKey: args['api-key'],
    clock: args.clock,
    webhooks: args.webhooks,
    webhookTimeoutMs: args['webhook-timeout'],
    rateLimit: args['rate-limit'],
    plan: args.plan,
    publicUrl: args['public-url'],
    mountPath: args['mount-path'],
    adminToken: args['admin-token'],
    relay: args.relay,
    relayAllow: args['relay-allow'] === undefined ? undefined : relayAllowList(args['relay-allow']),
    logLevel: args['log-level'],
    validateResponses: args['validate-responses'],
    faults,
    tls: args.tls,
    httpsPort: args['https-port'],
    tlsDir: args['tls-dir'],
    upstream: upstreamOf(args),
  });
  const smtpPort = args.smtp === false ? null : args['smtp-port'];
  let r: Awaited<ReturnType<typeof run>>;
  try {
    r = await run(config, args.host, args.port, smtpPort);
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'EFAULTRULE') throw new CliError(`--faults ${args.faults}: ${(err as Error).message.replace(/^fault rule/, 'rule')}`);
    throw listenError(err as ListenFailure, args.host, args.port, smtpPort, args['https-port']);
  }
  process.stdout.write(
    `resend-emulator listening on ${r.url}\n` +
      `API key: ${r.apiKey ?? '(none: the fixtures define no default key)'}\n` +
      `Inbox: ${r.url}/_emulator/${config.adminToken ? ' (admin token required)' : ''}\n` +
      (r.smtpUrl ? `SMTP: ${r.smtpUrl} (user resend, password: the API key)${r.httpsUrl ? ', STARTTLS offered' : ''}\n` : '') +
      (r.httpsUrl ? `HTTPS: ${r.httpsUrl} (as api.resend.com; trust the CA ${r.caCertPath})\n` : '') +
      (faults ? `Faults: ${faults.length} rule${faults.length === 1 ? '' : 's'} from ${args.faults} (GET /_emulator/faults)\n` : ''),
  );
  let closing = false;
  const stop = (why: string) => {
    if (closing) return;
    closing = true;
    r.ctx.log('info', `${why}, closing`);
    r.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`close failed: ${err}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT received'));
  process.on('SIGTERM', () => stop('SIGTERM received'));
  // npx killed (its `sh -c` wrapper gone, or npx itself): src/parent-watch.ts.
  if (args['exit-with-parent']) watchParent(stop);
}

/** `--upstream`, `--upstream-api-key`, `--record` as the config's `upstream`; throws a CliError for `--record` or `--upstream-api-key` without `--upstream`, or an `--upstream` that is not an http(s) URL. */
function upstreamOf(args: StartArgs): EmulatorConfig['upstream'] {
  if (args.upstream === undefined) {
    if (args.record !== undefined || args['upstream-api-key'] !== undefined) throw new CliError('--record and --upstream-api-key need --upstream URL');
    return undefined;
  }
  if (!/^https?:\/\/[^/]/i.test(args.upstream)) throw new CliError(`--upstream must be an http(s) URL: ${args.upstream}`);
  return { url: args.upstream, apiKey: args['upstream-api-key'], record: args.record };
}

/** The flags of `emulator parity` (docs/parity.md). */
const parityOptions = (y: Argv) =>
  y
    .option('api-key', { type: 'string', describe: 'The API key of the service (default: env RESEND_API_KEY)' })
    .option('base-url', { type: 'string', describe: "The service's API base URL, or another emulator's (default https://api.resend.com)" })
    .option('har', { type: 'string', describe: 'Write both sides of every call to this HAR file (API keys removed)' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'List the calls, make none' })
    .option('upstream-har', { type: 'string', describe: 'Compare with the answers recorded in this HAR instead of calling a service' })
    .option('fixtures', { type: 'string', describe: "The emulator's fixtures: default, demo, or a file (as `emulator start`)" })
    .option('faults', { type: 'string', describe: "JSON file of fault rules for the emulator (as `emulator start`)" })
    // The environment of `emulator start` (EMULATOR_PORT, ...) is no error here.
    .strict(false);

type ParityArgs = Awaited<ReturnType<typeof parityOptions>['argv']>;

/**
 * `emulator parity`: the tour against the service and an emulator (or a
 * HAR replayed), the report on stdout (src/parity/command.ts). The key is
 * `--api-key` as typed, else `RESEND_API_KEY` (never `EMULATOR_API_KEY`,
 * the emulator's own). Throws a CliError on a bad faults file, a missing
 * key, an unreadable HAR or an unreachable service.
 */
async function parity(args: ParityArgs, argv: readonly string[]): Promise<void> {
  const typed = argv.some((a) => a === '--api-key' || a.startsWith('--api-key='));
  const apiKey = typed ? args['api-key'] : process.env.RESEND_API_KEY;
  const faults = args.faults === undefined ? undefined : await readFaultsFile(args.faults);
  // Loaded only for this command (start-up of `emulator start` does not pay for it).
  const { runParity } = await import('./parity/command.js');
  // Ctrl-C ends the tour after the current step; what it created is still deleted.
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runParity({ apiKey, baseUrl: args['base-url'], har: args.har, dryRun: args['dry-run'], upstreamHar: args['upstream-har'], fixtures: args.fixtures, faults, signal: interrupt.signal });
  } catch (err) {
    throw new CliError(`parity: ${(err as Error).message}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `emulator ca`: creates the local CA of `--tls` if needed; prints its certificate's path, or its PEM with `--pem`. */
async function ca(args: CaArgs): Promise<void> {
  const { ensureConfiguredCa } = await import('./tls/ca.js');
  let made: Awaited<ReturnType<typeof ensureConfiguredCa>>;
  try {
    made = await ensureConfiguredCa({ tlsDir: args['tls-dir'], db: args.db, publicUrl: args['public-url'] }, (line) => process.stderr.write(`[resend-emulator] ${line}\n`));
  } catch (err) {
    throw new CliError(`cannot create the CA: ${(err as Error).message}`);
  }
  process.stdout.write(args.pem ? made.certPem : `${made.certPath}\n`);
}

/** The boolean flags (of every command), each also read from `EMULATOR_<FLAG>`. */
const BOOLEAN_FLAGS = ['smtp', 'tls', 'validate-responses', 'pem', 'exit-with-parent'];

/**
 * yargs reads a boolean flag's environment variable as on only when it is
 * `true`: `EMULATOR_TLS=1` (the Docker image's documented form) or
 * `EMULATOR_SMTP=1` read as off. Rewrites `1`/`yes`/`on` to `true` and
 * `0`/`no`/`off` to `false` (any case) in `env`, before yargs reads it.
 */
function spellEnvBooleans(env: NodeJS.ProcessEnv): void {
  for (const flag of BOOLEAN_FLAGS) {
    const name = `EMULATOR_${flag.toUpperCase().replace(/-/g, '_')}`;
    const value = env[name]?.trim();
    if (value === undefined) continue;
    if (/^(1|yes|on)$/i.test(value)) env[name] = 'true';
    else if (/^(0|no|off)$/i.test(value)) env[name] = 'false';
  }
}

/**
 * The version of this package, from its own package.json: the first one
 * above this module (src/, dist/src/ or the bundled dist/cli.mjs), never the
 * one of the folder the CLI runs in (yargs' default reads the nearest to the
 * working folder: a user's project printed its own version).
 */
export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
    dir = path.dirname(dir);
  }
  return 'unknown';
}

/** The part of yargs' internals that renders a command's help text ahead of need (not in its typings). */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * Runs the CLI with `argv` (default: the process's). Resolves when the
 * command has started.
 */
export async function main(argv: string[] = hideBin(process.argv)): Promise<void> {
  spellEnvBooleans(process.env);
  const cli = yargs(argv)
    .scriptName('emulator')
    .env('EMULATOR')
    .command('start', 'Start the Resend API emulator', startOptions, start)
    .command('parity', 'Compare the emulator with the service (or a HAR, or another emulator): docs/parity.md', parityOptions, (args) => parity(args, argv))
    .command('ca', 'Create the local CA of --tls if needed and print its certificate path (--pem: the certificate)', caOptions, ca)
    .version(packageVersion())
    .demandCommand(1, 'Name a command: start, parity, ca')
    .strict()
    .help()
    .showHelpOnFail(false)
    .fail((msg, err) => {
      // err: thrown by a check or the handler (already user-facing when a CliError);
      // msg alone: a usage error found by yargs (unknown flag, bad choice, ...).
      if (err instanceof CliError) throw err;
      if (err && !msg) throw err;
      throw new CliError(`${msg ?? err?.message}\n${USAGE_HINT}`);
    });
  // When a command's handler runs, yargs renders and caches the command's whole
  // help text for a later showHelp(): measuring strings at every `emulator
  // start` (docs/benchmarks.md#figures-behind-the-code), for a text nothing here shows
  // (showHelpOnFail(false); --help prints before any handler runs). Angular's
  // CLI skips it the same way (angular/angular-cli#34087).
  const usage = (cli as unknown as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
  await cli.parseAsync();
}
