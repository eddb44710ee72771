#!/usr/bin/env node
// Prints docs/endpoints.md's endpoint table from spec/openapi.yaml and the handlers in
// dist/ (run `npm run build` first): `node scripts/endpoint-table.mjs`.
// With --check, exits 1 if docs/endpoints.md's table differs from it.
import fs from 'node:fs';
import { loadSpec } from '../dist/src/http/spec.js';
import { modules } from '../dist/src/modules.js';

const { operations } = await loadSpec();
const handled = new Set(modules.flatMap((m) => Object.keys(m.operations ?? {})));
const rows = operations
  .filter((o) => !o.path.startsWith('/_emulator'))
  .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  .map((o) => `| ${o.method} | \`${o.path}\` | \`${o.operationId}\` | ${handled.has(o.operationId) ? 'served' : 'not yet'} |`);
const table = ['| method | path | operationId | status |', '|---|---|---|---|', ...rows].join('\n');
if (process.argv.includes('--check')) {
  const readme = fs.readFileSync(new URL('../docs/endpoints.md', import.meta.url), 'utf8');
  const m = /<!-- endpoints:start -->\n?([\s\S]*?)\n?<!-- endpoints:end -->/.exec(readme);
  if (!m || m[1].trim() !== table.trim()) {
    console.error('docs/endpoints.md endpoint table is out of date: run `npm run docs:endpoints`');
    process.exit(1);
  }
} else if (process.argv.includes('--write')) {
  const file = new URL('../docs/endpoints.md', import.meta.url);
  const readme = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, readme.replace(/<!-- endpoints:start -->[\s\S]*?<!-- endpoints:end -->/, `<!-- endpoints:start -->\n${table}\n<!-- endpoints:end -->`));
} else {
  console.log(table);
}
