#!/usr/bin/env node
// CLI entry: runs the bundled CLI (dist/cli.mjs, made by `npm run build`, which `npm ci` runs via `prepare`).
import module from 'node:module';

// Node 22.1+: keep compiled code between starts (a no-op where the API is missing, as on Node 20).
module.enableCompileCache?.();
const { main } = await import('../dist/cli.mjs');

main().catch((err) => {
  process.stderr.write(`resend-emulator: ${err?.message ?? err}\n`);
  process.exit(1);
});
