#!/usr/bin/env node
// Development check (not part of `npm test`; needs ../shared/reference):
// runs the whole vitest suite with RESEND_EMULATOR_REFERENCE_SPEC set, so that every
// success response the tests provoke is validated against the real service's
// OpenAPI document (src/http/reference-check.ts), then prints the mismatches
// grouped by operationId and error. Mismatches the emulator keeps on purpose
// are in ALLOW below, each with its reason; any other mismatch exits 1.
//
//   node scripts/check-reference.mjs                 # whole suite
//   node scripts/check-reference.mjs test/sdk        # extra args go to vitest
//   node scripts/check-reference.mjs --no-run        # only summarise the last report
//   node scripts/check-reference.mjs --all           # also list the allowed groups one by one
//
// Env: REFERENCE_DIR (default ../shared/reference), RESEND_EMULATOR_REFERENCE_REPORT
// (default test-results/reference-mismatches.jsonl).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const refDir = path.resolve(process.env.REFERENCE_DIR ?? path.join(root, '..', 'shared', 'reference'));
const specFile = path.join(refDir, 'resend-openapi.yaml');
const report = path.resolve(root, process.env.RESEND_EMULATOR_REFERENCE_REPORT ?? 'test-results/reference-mismatches.jsonl');

const args = process.argv.slice(2);
const noRun = args.includes('--no-run');
const showAll = args.includes('--all');
const vitestArgs = args.filter((a) => a !== '--no-run' && a !== '--all');

// Why a mismatch is kept. `op`: operationId (string or RegExp); `test`: RegExp
// over the error key `<kind> <instancePath> <keyword> <detail>` (see keyOf).
// Spec (interface-spec.md / API-FACTS §8) wins over the reference; recordings
// win over the reference schema.
const ALLOW = [];

if (!noRun) {
  if (!fs.existsSync(specFile)) {
    console.error(`check-reference: the reference document is not there: ${specFile}\n` +
      'This development check needs the shared reference folder next to the repository (../shared/reference),\n' +
      'or REFERENCE_DIR pointing at a folder holding resend-openapi.yaml. `npm test` does not need it.');
    process.exit(2);
  }
  fs.rmSync(report, { force: true });
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', ...vitestArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, RESEND_EMULATOR_REFERENCE_SPEC: specFile, RESEND_EMULATOR_REFERENCE_REPORT: report },
  });
  if (run.status !== 0) console.error(`\ncheck-reference: vitest exited with ${run.status}; the summary below covers what ran.`);
  process.exitCode = run.status === 0 ? 0 : 1;
}

if (!fs.existsSync(report)) {
  console.log('check-reference: no mismatches recorded (no report file).');
  process.exit(process.exitCode ?? 0);
}

/** One group key per error: kind, a path with indexes as `*`, keyword and its detail. */
function keyOf(kind, e) {
  const p = e.params ?? {};
  const detail = e.keyword === 'additionalProperties' ? p.additionalProperty
    : e.keyword === 'required' ? p.missingProperty
    : e.message;
  return `${kind} ${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/'} ${e.keyword} ${detail}`;
}

const groups = new Map();
let lines = 0;
for (const line of fs.readFileSync(report, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  lines++;
  const r = JSON.parse(line);
  const errs = r.errors?.length ? r.errors : [{ instancePath: '', keyword: r.kind, message: '', params: {} }];
  for (const e of errs) {
    const key = keyOf(r.kind, e);
    const g = groups.get(`${r.operationId} ${r.status} ${key}`) ?? { op: r.operationId, status: r.status, key, count: 0, sample: r };
    g.count++;
    groups.set(`${r.operationId} ${r.status} ${key}`, g);
  }
}

const opMatches = (want, op) => (want instanceof RegExp ? want.test(op) : want === op);
const why = (g) => ALLOW.find((a) => opMatches(a.op, g.op) && a.test.test(g.key))?.why;
const sorted = [...groups.values()].sort((a, b) => (a.op + a.key < b.op + b.key ? -1 : 1));
const open = sorted.filter((g) => !why(g));
const allowed = sorted.filter((g) => why(g));

console.log(`\nReference check: ${lines} mismatching responses, ${groups.size} distinct (operation, error) groups.`);
if (open.length) {
  console.log(`\nUnexplained (${open.length}):`);
  let last = '';
  for (const g of open) {
    if (g.op !== last) console.log(`  ${g.op}`);
    last = g.op;
    console.log(`    [${g.status}] ${g.key}  (${g.count}×)  e.g. ${g.sample.method} ${g.sample.path} ${String(g.sample.body ?? '').slice(0, 160)}`);
  }
}
const byWhy = new Map();
for (const g of allowed) {
  const w = why(g);
  const entry = byWhy.get(w) ?? { groups: [], count: 0 };
  entry.groups.push(g);
  entry.count += g.count;
  byWhy.set(w, entry);
}
if (byWhy.size) {
  console.log(`\nAllowed (${allowed.length} groups):`);
  for (const [w, { groups: gs, count }] of byWhy) {
    console.log(`  - ${w}  (${gs.length} groups, ${count}×)`);
    if (showAll) for (const g of gs) console.log(`      ${g.op} [${g.status}] ${g.key}`);
  }
}
console.log(`\n${open.length} unexplained groups, ${allowed.length} allowed.`);
if (open.length) process.exitCode = 1;
