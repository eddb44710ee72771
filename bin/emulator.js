#!/usr/bin/env node
// CLI entry: runs the compiled CLI (`npm run build`, done by `npm ci` via `prepare`).
import { main } from '../dist/src/cli.js';

main().catch((err) => {
  process.stderr.write(`resend-emulator: ${err?.message ?? err}\n`);
  process.exit(1);
});
