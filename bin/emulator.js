#!/usr/bin/env node
// CLI entry: runs the bundled CLI (dist/cli.mjs, made by `npm run build`, which `npm ci` runs via `prepare`).
import module from 'node:module';

// Node 22.1+: keep compiled code between starts (a no-op where the API is missing, as on Node 20).
module.enableCompileCache?.();
// Node >= 24.19: the store collects its closed connections' native wrappers with a full gc() started from JS
// (src/store/db.ts, FINALIZE_FROM_JS). This process is the emulator's own, so it exposes gc() to itself here; a
// library (startServer, createApp) never changes its host's flags and collects through v8.queryObjects instead.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major > 24 || (major === 24 && minor >= 19)) {
  const v8 = await import('node:v8');
  const vm = await import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  globalThis.gc ??= vm.runInNewContext('gc');
}
const { main } = await import('../dist/cli.mjs');

main().catch((err) => {
  process.stderr.write(`resend-emulator: ${err?.message ?? err}\n`);
  process.exit(1);
});
