#!/usr/bin/env node
// Sums a CPU profile (`node --cpu-prof` writes one .cpuprofile per process)
// by function and by file: self time (the samples in the function itself)
// and inclusive time (with what it called), the largest first.
// `node bench/profile-summary.js FILE.cpuprofile [--top N] [--from µs] [--to µs]`
// --from/--to keep the samples between two times of the monotonic clock in
// µs (the profile's clock: `process.hrtime.bigint() / 1000n` in any process
// of the machine), e.g. the phases `bench/import.js` prints when it runs the
// CLI with BENCH_CLI_NODE_FLAGS. Files under node_modules are shortened to
// the package path.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, from: { type: 'string' }, to: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/profile-summary.js FILE.cpuprofile [--top N] [--from µs] [--to µs]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);
const from = values.from === undefined ? -Infinity : Number(values.from);
const to = values.to === undefined ? Infinity : Number(values.to);

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const fileOf = (cf) => (cf.url || '(native)').replace(/^file:\/\//, '').replace(/.*node_modules\//, '');
const nameOf = (cf) => `${cf.functionName || '(anonymous)'} ${fileOf(cf).replace(/.*\//, '')}:${cf.lineNumber + 1}`;

const self = new Map();
const inclusive = new Map();
const files = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
let total = 0;
// Sample i was taken at startTime + the deltas up to i; it stands for the time until the next sample.
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (t < from || t > to) continue;
  const us = profile.timeDeltas[i + 1] ?? 0;
  const id = profile.samples[i];
  const cf = nodes.get(id).callFrame;
  total += us;
  add(self, nameOf(cf), us);
  add(files, fileOf(cf), us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = nameOf(nodes.get(cur).callFrame);
    if (seen.has(key)) continue; // recursion counts once
    seen.add(key);
    add(inclusive, key, us);
  }
}

const ms = (us) => (us / 1000).toFixed(1).padStart(9);
const pct = (us) => `${((100 * us) / (total || 1)).toFixed(1).padStart(5)} %`;
const print = (title, map, n) => {
  console.log(`--- ${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${ms(us)} ms ${pct(us)}  ${key}`);
};
console.log(`${ms(total).trim()} ms sampled${values.from || values.to ? ` between ${values.from ?? 'the start'} and ${values.to ?? 'the end'} µs` : ''}`);
print('self time by file', files, 15);
print('self time by function', self, top);
print('inclusive time by function', inclusive, top);
