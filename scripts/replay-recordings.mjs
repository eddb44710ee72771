#!/usr/bin/env node
// Development check (not part of `npm test`; needs ../shared/reference):
// replays each recorded exchange of the real service against a fresh
// emulator and reports where the status or the top-level response keys
// differ, and where our responses do not validate against the reference
// OpenAPI document. Ids the real service returned are mapped to the ids the
// emulator returned, so later requests of a recording address the same
// resources. Run after `npm run build`: `node scripts/replay-recordings.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { startServer } from '../dist/src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const refDir = process.env.REFERENCE_DIR ?? path.resolve(root, '..', 'shared', 'reference');
const recDir = path.join(refDir, 'recordings');
if (!fs.existsSync(recDir)) {
  console.error(`no recordings at ${recDir} (set REFERENCE_DIR)`);
  process.exit(2);
}

const reference = await $RefParser.dereference(YAML.parse(fs.readFileSync(path.join(refDir, 'resend-openapi.yaml'), 'utf8')));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default ? addFormats.default(ajv) : addFormats(ajv);
/** The reference's response schema for a method + concrete path + status. */
function referenceSchema(method, urlPath, status) {
  for (const [p, item] of Object.entries(reference.paths)) {
    const re = new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (!re.test(urlPath)) continue;
    const op = item[method.toLowerCase()];
    const schema = op?.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (schema) return schema;
  }
  return null;
}

// Spec-over-service differences the emulator keeps on purpose (API-FACTS §8).
// Each is matched against a difference's text; matches are listed apart.
const EXPECTED = [
  { test: /POST \/api-keys: object api_key, recorded list/, why: 'API-FACTS §8 #1: object api_key (SPEC) where the service said list' },
  { test: /\/segments.*: object segment, recorded audience/, why: 'API-FACTS §8 #12: segment (SPEC); the 17 Oct 2025 recordings said audience' },
  { test: /GET \/audiences\/[^ ]+\/contacts\/[^ ]+: keys \{[^}]*properties[^}]*\}, recorded/, why: 'API-FACTS §5.7: properties absent on the legacy path only on 17 Oct 2025; later recordings have it' },
  { test: /fails the reference schema: .*(first|last)_name must be string/, why: 'the recordings return null first_name/last_name; the reference schema says string' },
];

const onlyArg = process.argv[2];
let total = 0;
const problems = [];
for (const file of fs.readdirSync(recDir).filter((f) => f.endsWith('.har') && (!onlyArg || f.includes(onlyArg))).sort()) {
  const har = JSON.parse(fs.readFileSync(path.join(recDir, file), 'utf8'));
  const emu = await startServer({ clock: 'manual', webhooks: 'record', logLevel: 'error' });
  const ids = new Map();
  const mapIds = (s) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (m) => ids.get(m) ?? m);
  for (const e of har.log.entries) {
    total++;
    const url = new URL(e.request.url);
    const urlPath = mapIds(url.pathname + url.search);
    const body = e.request.postData?.text ? mapIds(e.request.postData.text) : undefined;
    const res = await fetch(emu.url + urlPath, {
      method: e.request.method,
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json', 'user-agent': 'resend-node:replay' },
      body,
    });
    const text = await res.text();
    let ours = null;
    try { ours = JSON.parse(text); } catch { /* reported below */ }
    let recorded = null;
    try { recorded = JSON.parse(e.response.content.text ?? 'null'); } catch { /* none */ }
    const collect = (a, b) => {
      if (a && b && typeof a === 'object' && typeof b === 'object') {
        if (typeof a.id === 'string' && typeof b.id === 'string') ids.set(a.id, b.id);
        if (Array.isArray(a) && Array.isArray(b)) a.forEach((x, i) => collect(x, b[i]));
        else for (const k of Object.keys(a)) collect(a[k], b[k]);
      }
    };
    collect(recorded, ours);
    const label = `${file.replace(/\.har$/, '')}: ${e.request.method} ${url.pathname}`;
    if (res.status !== e.response.status) problems.push(`${label}: status ${res.status}, recorded ${e.response.status}`);
    if (recorded && ours && typeof recorded === 'object' && !Array.isArray(recorded)) {
      const a = Object.keys(recorded).sort().join(',');
      const b = Object.keys(ours).sort().join(',');
      if (a !== b) problems.push(`${label}: keys {${b}}, recorded {${a}}`);
      if (recorded.object !== ours.object) problems.push(`${label}: object ${ours.object}, recorded ${recorded.object}`);
    }
    if (ours === null) problems.push(`${label}: response is not JSON`);
    const schema = res.ok ? referenceSchema(e.request.method, url.pathname, res.status) : null;
    if (schema && !ajv.validate(schema, ours)) problems.push(`${label}: fails the reference schema: ${ajv.errorsText(ajv.errors)}`);
  }
  await emu.close();
}
const explained = problems.map((p) => ({ p, why: EXPECTED.find((x) => x.test.test(p))?.why }));
for (const { p } of explained.filter((x) => !x.why)) console.log(`- ${p}`);
const byWhy = new Map();
for (const { why } of explained.filter((x) => x.why)) byWhy.set(why, (byWhy.get(why) ?? 0) + 1);
for (const [why, n] of byWhy) console.log(`  expected (${n}×): ${why}`);
const unexplained = explained.filter((x) => !x.why).length;
console.log(`${total} exchanges replayed, ${unexplained} unexplained differences, ${problems.length - unexplained} expected`);
process.exit(unexplained ? 1 : 0);
