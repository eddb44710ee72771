/**
 * The command line (DESIGN.md "CLI"): `emulator start [flags]`, every flag
 * also read from `EMULATOR_<FLAG>` (e.g. `EMULATOR_PORT`).
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { defaultConfig, run } from './server.js';

/** Runs the CLI with `argv` (default: the process's). Resolves when the command has started. */
export async function main(argv: string[] = hideBin(process.argv)): Promise<void> {
  await yargs(argv)
    .scriptName('emulator')
    .env('EMULATOR')
    .command(
      'start',
      'Start the Resend API emulator',
      (y) =>
        y
          .option('port', { type: 'number', default: 4400, describe: 'Port to listen on (0 picks a free one)' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'Host to bind (0.0.0.0 inside Docker)' })
          .option('db', { type: 'string', default: ':memory:', describe: 'SQLite file, or :memory:' })
          .option('fixtures', { type: 'string', describe: 'Fixtures JSON to seed (default: bundled fixtures/default.json)' })
          .option('api-key', { type: 'string', describe: "Token of the default team's full-access key" })
          .option('clock', { choices: ['real', 'manual'] as const, default: 'real' as const, describe: 'Emulated clock mode' })
          .option('webhooks', { choices: ['send', 'record'] as const, default: 'send' as const, describe: 'POST webhook deliveries, or only record them' })
          .option('webhook-timeout', { type: 'number', default: 10_000, describe: 'Webhook delivery timeout, ms' })
          .option('public-url', { type: 'string', describe: 'URL other services reach the emulator at, for the links it hands out (default: the listening URL)' })
          .option('rate-limit', { type: 'number', default: 0, describe: 'Requests per second per team; 0 = off' })
          .option('log-level', { choices: ['error', 'warn', 'info', 'debug'], default: 'info', describe: 'Log level' })
          .option('validate-responses', { type: 'boolean', default: false, describe: 'Check every response against spec/openapi.yaml (for development)' }),
      async (args) => {
        const config = defaultConfig({
          db: args.db,
          fixtures: args.fixtures,
          apiKey: args['api-key'],
          clock: args.clock,
          webhooks: args.webhooks,
          webhookTimeoutMs: args['webhook-timeout'],
          rateLimit: args['rate-limit'],
          publicUrl: args['public-url'],
          logLevel: args['log-level'],
          validateResponses: args['validate-responses'],
        });
        const r = await run(config, args.host, args.port);
        process.stdout.write(
          `resend-emulator listening on ${r.url}\n` +
            `API key: ${r.apiKey}\n` +
            `Inbox: ${r.url}/_emulator/\n`,
        );
        let closing = false;
        const stop = (signal: string) => {
          if (closing) return;
          closing = true;
          r.ctx.log('info', `${signal} received, closing`);
          r.close().then(
            () => process.exit(0),
            (err) => {
              process.stderr.write(`close failed: ${err}\n`);
              process.exit(1);
            },
          );
        };
        process.on('SIGINT', () => stop('SIGINT'));
        process.on('SIGTERM', () => stop('SIGTERM'));
      },
    )
    .demandCommand(1, 'Name a command: start')
    .strict()
    .help()
    .parseAsync();
}
